package dev.quiver.storage.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file operations the journal uses, behind an interface so that tests can inject faults
 * (short writes, ENOSPC, a failed fsync, unsynced bytes lost in a crash: STYLE.md habit 12). The
 * production layer is {@link #OS}: plain {@link FileChannel}s. A layer is chosen per store through
 * {@link StoreHooks#fileLayer()}.
 */
interface FileLayer {
    /** The operating system's files. */
    FileLayer OS = path -> new OsFile(FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE), path);

    /** Opens (creating if missing) a file for reading and writing. */
    Handle open(Path path) throws IOException;

    /** An open file: positional writes and reads, size, truncate, fsync, whole-file read. */
    interface Handle extends AutoCloseable {
        /** Size in bytes. */
        long size() throws IOException;

        /** Writes some bytes of {@code src} at {@code position}; returns how many (maybe fewer than asked). */
        int write(ByteBuffer src, long position) throws IOException;

        /** Forces written bytes (and, with {@code metadata}, the size) to the device. */
        void force(boolean metadata) throws IOException;

        /** Cuts the file to {@code size} bytes. */
        void truncate(long size) throws IOException;

        /** Every byte of the file. */
        byte[] readAll() throws IOException;

        /**
         * Reads {@code len} bytes at {@code position} into {@code dst} from {@code off}.
         *
         * @throws java.io.EOFException when the file ends first
         */
        void read(byte[] dst, int off, int len, long position) throws IOException;

        @Override
        void close() throws IOException;
    }

    /** {@link Handle} over a {@link FileChannel}. */
    final class OsFile implements Handle {
        private final FileChannel channel;
        private final Path path;

        OsFile(FileChannel channel, Path path) {
            this.channel = channel;
            this.path = path;
        }

        @Override
        public long size() throws IOException {
            return channel.size();
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            return channel.write(src, position);
        }

        @Override
        public void force(boolean metadata) throws IOException {
            channel.force(metadata);
        }

        @Override
        public void truncate(long size) throws IOException {
            channel.truncate(size);
        }

        @Override
        public byte[] readAll() throws IOException {
            return Files.readAllBytes(path);
        }

        @Override
        public void read(byte[] dst, int off, int len, long position) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(dst, off, len);
            while (b.hasRemaining()) {
                if (channel.read(b, position + b.position() - off) < 0) {
                    throw new java.io.EOFException(path + " ends at " + (position + b.position() - off) + ", before "
                            + (position + len));
                }
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
