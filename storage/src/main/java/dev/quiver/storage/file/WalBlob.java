package dev.quiver.storage.file;

/**
 * Where one blob of a committed WAL record lies (a page's after-image or a delta): a store's
 * {@link Overlay} keeps this instead of the bytes, which the WAL holds until the next checkpoint,
 * so neither the writer's heap nor a reader's carries everything committed since then (up to
 * 64 MiB of WAL; after RG-1's depth-6 load, 13 MiB). Reading it back ({@link #read}) checks the
 * CRC32C taken when it was appended (or found at open), so a WAL damaged later is reported, never
 * sealed into a generation.
 */
final class WalBlob {
    /** The journal that appended it (reading after that journal is closed fails). */
    final Journal journal;
    /** Byte offset of the blob in the journal's file. */
    final long position;
    /** Length in bytes. */
    final int length;
    /** CRC32C of the bytes. */
    final int crc;

    WalBlob(Journal journal, long position, int length, int crc) {
        this.journal = journal;
        this.position = position;
        this.length = length;
        this.crc = crc;
    }

    /**
     * The blob's bytes, read from the journal file; {@code page} names it in errors.
     *
     * @throws dev.quiver.error.StorageIOException  when the file cannot be read
     * @throws dev.quiver.error.CorruptionException when the bytes fail their checksum
     */
    byte[] read(String page) {
        return journal.read(this, page);
    }
}
