package dev.quiver.snapshots;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;

/**
 * Writes the records of {@link SnapshotFormat} to a file, keeping the running CRC32C. The caller
 * writes into a temporary file and moves it into place after {@link #finish()}.
 */
final class SnapshotWriter implements Closeable {
    private final FileOutputStream file;
    private final CRC32C crc = new CRC32C();
    private final DataOutputStream out;
    private long pages;

    SnapshotWriter(Path path) throws IOException {
        this.file = new FileOutputStream(path.toFile());
        this.out = new DataOutputStream(new CheckedOutputStream(new BufferedOutputStream(file, 1 << 16), crc));
        out.write(SnapshotFormat.MAGIC);
        out.writeInt(SnapshotFormat.VERSION);
    }

    /** Appends one page record. */
    void page(String mapName, long key, byte[] blob) throws IOException {
        byte[] name = mapName.getBytes(StandardCharsets.UTF_8);
        if (name.length == 0 || name.length > SnapshotFormat.MAX_MAP_NAME_BYTES) {
            throw new IllegalArgumentException("map name of " + name.length + " bytes: " + mapName);
        }
        out.writeByte(SnapshotFormat.PAGE_TAG);
        out.writeShort(name.length);
        out.write(name);
        out.writeLong(key);
        out.writeInt(blob.length);
        out.write(blob);
        pages++;
    }

    /** Writes the trailer and forces the bytes to the device; returns the number of page records. */
    long finish() throws IOException {
        out.writeByte(SnapshotFormat.END_TAG);
        out.writeLong(pages);
        out.flush();
        int checksum = (int) crc.getValue();
        out.writeInt(checksum);
        out.flush();
        file.getChannel().force(true);
        return pages;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
