package dev.quiver.snapshots;

/**
 * The byte layout of a snapshot file, format version 13. All integers are big-endian. The page
 * records carry the world's own pages, so the version follows the world's page format: version 1
 * held world-format-1 pages (a types page and row pages per table), version 2 world-format-2
 * pages (tables 64 to a page), version 3 world-format-3 pages (varint encodings, LZ4), version 4
 * world-format-4 pages (no {@code components} pages, schema defaults, the CanToggle and Transient
 * builtins), version 5 world-format-5 pages (the DontFragment and Union builtins, sparse markers
 * {@code (R, *)} in table types with the sparse pairs in the reverse pages; name pages by hash bucket),
 * version 6 world-format-6 pages (the same page bodies; format 6 changed the world's WAL, which
 * snapshots do not hold, and its meta page says 6), version 7 world-format-7 pages (entity pages
 * with each alive entity's table and row, the meta page with the alive count, name pages with each
 * entry's generation and hash, schema pages with field ranges, the DisabledRelationship builtin:
 * disabled pairs {@code (R, T)} held as {@code (R~, T)}), version 8 world-format-8 pages (reverse pages
 * by blocks of 1024 targets), version 9 world-format-9 pages (the same page bodies; format 9 changed
 * the world's WAL, one names delta per commit, and its meta page says 9), version 10 world-format-10
 * pages (with the summary pages of the reverse blocks, keys from 2^32 on), version 11
 * world-format-11 pages (entity pages with their names in a section after the entries), version 12
 * world-format-12 pages (entity pages with their entries as runs), version 13 world-format-13
 * pages (with the {@code sparse} pages: the forward half of the non-fragmenting pairs). A snapshot of another version is
 * refused by name; restore it with the build that
 * wrote it, or load its export.
 *
 * <pre>
 * header   6 bytes  magic, ASCII "QVSNAP"
 *          int32    format version (13)
 * record   byte     'P' (0x50)
 *  (each   uint16   length n of the map name, 1..{@value #MAX_MAP_NAME_BYTES}
 *   page)  n bytes  map name, UTF-8
 *          int64    page key
 *          int32    blob length b, 0..{@value #MAX_BLOB_BYTES}
 *          b bytes  blob
 * trailer  byte     'E' (0x45)
 *          int64    number of page records
 *          int32    CRC32C of every preceding byte of the file, magic included
 * </pre>
 *
 * <p>Every format version, present and future, starts with the magic and the version and ends
 * with the CRC32C of all preceding bytes. That lets a reader tell an intact snapshot of another
 * version ({@link SnapshotFormatException}) from a damaged one ({@link CorruptSnapshotException})
 * without knowing the other version's records. Nothing may follow the checksum.
 */
final class SnapshotFormat {
    private SnapshotFormat() {}

    /** The 6 magic bytes every snapshot starts with. */
    static final byte[] MAGIC = {'Q', 'V', 'S', 'N', 'A', 'P'};

    /** The format version this build reads and writes. */
    static final int VERSION = 13;

    /** Header size: magic and version. */
    static final int HEADER_BYTES = MAGIC.length + 4;

    /** Trailer size: tag, record count, checksum. */
    static final int TRAILER_BYTES = 1 + 8 + 4;

    /** Tag that opens a page record. */
    static final byte PAGE_TAG = 'P';

    /** Tag that opens the trailer. */
    static final byte END_TAG = 'E';

    /** Longest map name, in UTF-8 bytes. */
    static final int MAX_MAP_NAME_BYTES = 1024;

    /** Largest blob of one page, in bytes. */
    static final int MAX_BLOB_BYTES = Integer.MAX_VALUE - 16;
}
