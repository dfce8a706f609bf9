/**
 * The on-disk format of a world (format version {@value dev.quiver.storage.format.WorldFormat#VERSION}):
 * how the in-memory structures become pages and back. One codec class per page family; nothing
 * else in the storage module knows the page layout. Mutation code reports what it changed to
 * {@link dev.quiver.storage.tx.Changes}; {@link dev.quiver.storage.format.WorldFormat} turns a
 * transaction's changes into the pages to rewrite.
 *
 * <h2>Files</h2>
 * A world directory holds sealed generation files (Chronicle Map files {@code gen-<g>.cm} holding
 * the pages of every family), a manifest naming them and a write-ahead log of page after-images
 * (see {@code dev.quiver.storage.file.Store}). A page is rewritten whole; a page whose content
 * became empty is removed. The file layer stores each blob with its checksum; this package gives
 * the blobs' layout.
 *
 * <h2>Name deltas (format 6; one per commit since format 9)</h2>
 * A commit does not log {@code names} pages whole: a bulk commit adds names in every one of the
 * 4096 buckets, and logging each bucket's page rewrote the whole name index into the WAL about
 * once per commit. Instead its WAL record holds one names delta (format 9; before, one delta
 * entry per bucket it changed, 4096 for a bulk commit): a WAL entry with bit 0x40 of its map byte
 * set and key -1, a <em>family delta</em> ({@code dev.quiver.storage.file.Journal#FAMILY_DELTA},
 * {@link dev.quiver.storage.format.WorldFormat#FAMILY_DELTA}), not enveloped
 * ({@link dev.quiver.storage.format.NamePage#writeDelta}): i32 m (1 to 4096), then a directory of
 * m entries in strictly ascending bucket, each u16 the bucket and i32 the end of its part
 * (counted from the end of the directory; a part starts where the previous one ends, the first at
 * 0; the last part ends at the end of the blob), then the parts. A bucket's part: the entries the
 * bucket gained or filed again (as a {@code names} page body, generation and hash included since
 * format 7: an entry removed and filed again, by a rename, is written again with its new hash),
 * then the keys of those it lost (varint n, then per key the index gap and the zz parent delta).
 * The net change of the transaction only: an entry added and removed in it appears in neither
 * list. Whoever reads a bucket's page (a reader, the writer after a crash, a rollback) applies the
 * bucket's parts of the WAL's names deltas, found by a binary search of each directory, in WAL
 * order to its page in the manifest's generations, as set operations on the entries
 * ({@link dev.quiver.storage.format.WorldFormat#applyDelta}); a checkpoint writes the result as
 * the whole page of every bucket a directory lists. A generation never holds a delta. A build of
 * format 5 would misread the flag, and one of format 6 to 8 rejects the key -1 (and would find
 * no names delta for a bucket), so the version changes with each; a world of an older format is
 * refused by this build with the format error naming both versions (take a snapshot with the
 * build that wrote it).
 *
 * <h2>Encodings</h2>
 * Fixed-width integers ({@code u8}, {@code i32}, {@code i64}) are big-endian. {@code varint} is an
 * unsigned LEB128 of up to 64 bits (7 bits a byte, low groups first, the high bit set when another
 * byte follows, at most 10 bytes); {@code zz} is the varint of a signed value's zig-zag form
 * ({@code 0, -1, 1, -2 -> 0, 1, 2, 3}); "delta" means a value minus the previous one of its list
 * (the first from 0). {@code vstr} is a varint UTF-8 byte length and the bytes. An {@code id} (the
 * 64-bit ids of {@code dev.quiver.index.Ids}) is two varints: its high 32 bits with the pair flag
 * moved to bit 0 ({@code (hi & 0x7FFFFFFF) << 1 | flag}), then its low 32 bits
 * ({@link dev.quiver.storage.format.Bytes}).
 *
 * <h2>Envelope</h2>
 * Every page but {@code meta} is stored as a u8 flag and its body: flag 0, the body as it is; flag
 * 1, varint body length (257 to 2^28, and at most 255 times the compressed bytes plus 16) then the
 * body as one LZ4 block. A body over 256 bytes is compressed and kept so when that is smaller
 * ({@link dev.quiver.storage.format.PageCompression}). Any LZ4 compressor may seal a block (two
 * builds may seal one body differently): a page is its body, and the invariant check compares
 * bodies. A damaged envelope is refused with a
 * corruption error naming the family and key. The meta page is never enveloped: every format
 * version starts it with its version as an i32, so that any build tells another version (a
 * {@code WorldFormatException} naming both) from damage.
 *
 * <h2>Page bodies</h2>
 * <ul>
 *   <li>{@code meta}, key 0 ({@link dev.quiver.storage.format.MetaPage}): i32 format version,
 *       varint next entity index, varint table id count, varint alive entities (builtins included;
 *       format 7), varint n, n x zz delta of the free entity indices (reuse order); nothing follows.</li>
 *   <li>{@code schemas}, key = component entity index ({@link dev.quiver.storage.format.SchemaPage}):
 *       varint n, n x (vstr field name, u8 field type code: {@link dev.quiver.storage.FieldType#code()}),
 *       then the defaults (format 4): varint d, d x (varint field index, ascending; the value: vstr
 *       for a string field, else varint of the raw word), then the ranges (format 7): varint g,
 *       g x (varint field index, ascending; i64 raw bits of the minimum and of the maximum as
 *       doubles, an open end infinite).</li>
 *   <li>{@code entities}, key = entity index / 1024 ({@link dev.quiver.storage.format.EntityPage}):
 *       varint n (the page's indices, all below the meta page's next entity index), i32 m (the
 *       byte length of the names section; format 11), then the entries as runs (format 12; before,
 *       one entry per index) covering the n indices in order, each the longest possible: varint
 *       {@code generation << 2 | state} (state 0 never used, with generation 0; 1 alive; 2 dead),
 *       varint the run's length minus 1 (at most the indices left), and for a run of alive
 *       entities (one table, consecutive rows; format 7) zz of its table id minus the previous
 *       alive run's (the first from 0) and zz of its first row minus the previous alive run's last
 *       row minus 1 (the first from -1). Then the names section (format 11; before, each alive entry carried its name),
 *       exactly m bytes: per named entity in ascending index, varint its offset in the block minus
 *       the previous named entity's minus 1 (the first from -1), then its name front-coded against
 *       the previous name of the section: varint bytes shared, varint suffix length, suffix (UTF-8,
 *       at least one byte in all); a named entity must be alive, an anonymous one is absent.
 *       Reading a block stops before the names section: the entity index keeps it undecoded and
 *       decodes it when a name of the block is first used, where a damaged section is refused
 *       naming the page (and by the checker, which uses every name). The row pages hold the same
 *       placement from the tables' side; that both agree is the checker's ({@code quiver check});
 *       reading a page checks that the table exists and, when its rows are in memory, that the
 *       row holds the entity.</li>
 *   <li>{@code tables}, key = table id / 64 ({@link dev.quiver.storage.format.TablePage}): varint n
 *       tables in id order, each: varint id (the first as it is, the others minus the previous id
 *       minus 1), varint type length, the type's ids ({@code id} encoding), varint column count,
 *       per column varint 1 + its position in the type (0: not in the type, the {@code id}
 *       follows); varint rows + 1 then the rows inline (see rows) when at most 64, or 0 when the
 *       rows are in row pages. Since format 5 a type may hold a sparse marker, the pair
 *       {@code (R, *)} (second element index 1), for a relationship whose pairs are stored
 *       without fragmenting: those pairs are in the {@code reverse} pages only.</li>
 *   <li>{@code rows}, key = (table id &lt;&lt; 20) | chunk ({@link dev.quiver.storage.format.RowPage}):
 *       varint n (at most 1024), n x (zz delta of the entity index, varint generation), then per
 *       column per field: for a string field n x vstr; for a number field a u8 mode and n values
 *       ({@link dev.quiver.storage.format.Words}): 0 i64 raw word, 1 zz delta of the raw word, 2
 *       varint of the byte-reversed raw word, 3 ({@code f32}/{@code f64} holding whole numbers
 *       below 2^24 / 2^53, never -0) zz delta of the whole number.</li>
 *   <li>{@code components} (family 5): none since format 4. The component index (for each id, the
 *       tables whose type holds it, and the wildcard records {@code (R,*)}, {@code (*,T)}) is a
 *       function of the table types: it is rebuilt from the {@code tables} pages when a world is
 *       read, its records in ascending table id. Storing it cost a rewrite of every record page
 *       whose record lists a new or dropped table, which for {@code (ChildOf,*)} or
 *       {@code (IsA,*)} in a world of many small tables meant every table on every commit.</li>
 *   <li>{@code reverse}, key = target index / 1024 (format 8; / 64 before) ({@link dev.quiver.storage.format.ReversePage}):
 *       varint n targets in ascending order, each: varint target index minus the block's first,
 *       varint k (at least 1), k x zz delta of {@code (relationship index << 32) | source index}.
 *       Every pair has its entry, sparse pairs included (format 5); the forward half of the
 *       sparse pairs has pages of its own since format 13 ({@code sparse}, below). Since format 7 a commit logs a
 *       block's changes as a delta ({@link dev.quiver.storage.format.ReversePage#writeDelta}:
 *       varint n operations, each varint {@code (target offset << 1) | op} (0 add, 1 remove) and
 *       the zz delta of its entry from the previous operation's), replayed in order as the
 *       in-memory index ran them (add appends, remove swaps the last entry in); a block changed
 *       otherwise (a target's entries dropped at once) is written whole.</li>
 *   <li>{@code reverse}, key = 2^32 + block / 1024 (format 10), a summary of 1024 blocks
 *       ({@link dev.quiver.storage.format.ReverseSummary}): varint s (at least 1) distinct sets of
 *       relationship indices, each varint k (at least 1) then k indices ascending, each as the
 *       varint of its difference from the previous one minus 1 (the first from -1); then varint
 *       n (1 to 1024) blocks ascending, each varint its offset in the group minus the previous
 *       one's minus 1 (the first from -1) and varint the number of its set (below s). A block's
 *       set holds the relationship index of every entry of its page, with the WAL's deltas
 *       applied (a superset: a commit adds what its adds bring, sets a block it writes whole to
 *       exactly its relationships, and leaves a set as it is on a remove); a block not listed has
 *       no page. A commit that changes a set writes the summary page whole in the same WAL record
 *       as the block's delta, so both are as durable as each other. A lookup of the sources of
 *       {@code (R, t)} whose block is not decoded reads the block only when its set holds R; the
 *       checker verifies that every set covers its block. A format-9 world has no summaries and
 *       is refused (the format error naming both versions).</li>
 *   <li>{@code names}, key = bucket of the name index ({@link dev.quiver.storage.format.NamePage}):
 *       the top 12 bits of the key's hash ({@code dev.quiver.index.NameIndex#hash(parent index, name)},
 *       MurmurHash3's finalizer over {@code name.hashCode() * 31 + parent}), so that a lookup by
 *       name reads one page (format 5; before, pages by entity block, which a lookup could only use
 *       once all were read): varint n entries in ascending entity index, each: varint index gap
 *       (minus the previous entry's index minus 1, the first from -1), zz delta of the parent
 *       index, and (format 7) varint the entity's generation and i32 the key's hash, whose top
 *       12 bits must be the bucket, so that a bucket is read without any entity page. The name is
 *       the {@code entities} page's: a lookup compares it for the entry whose parent and hash
 *       match; that every entry's hash is its name's is the checker's.</li>
 *   <li>{@code sparse}, key = (relationship index &lt;&lt; 22) | source index / 1024 (format 13;
 *       family 8) ({@link dev.quiver.storage.format.SparsePage}): the forward half of a
 *       non-fragmenting relationship's pairs ({@code table.SparseStore}) for 1024 sources: varint n
 *       sources (1 to 1024) ascending, each: varint its offset in the block minus the previous
 *       one's minus 1 (the first from -1), zz its first (smallest) target index minus the previous
 *       source's first target (the first from 0), varint m further targets, m x varint the target
 *       minus the previous one minus 1. A page exists for each block where some source holds a pair
 *       of the relationship; a commit writes whole the pages of the blocks whose pairs it changed.
 *       After an open a relationship whose marker {@code (R, *)} some non-empty table holds reads
 *       a block's page when one of its sources is first asked about or changed (before format 13
 *       the first sparse check rebuilt every sparse pair from the reverse pages). That the forward
 *       and reverse pairs agree is the checker's.</li>
 * </ul>
 * Every reader checks each count and length against the bytes that remain before allocating, and
 * that nothing follows the last entry.
 *
 * <h2>Reading in place</h2>
 * Opening a world reads the meta, schema and table pages; the {@code entities}, {@code rows},
 * {@code reverse}, {@code names} and {@code sparse} pages are read one at a time when a lookup, a walk or a change
 * first touches them (the writer reads a page before changing it, so its in-memory copy and the
 * committed page agree until the commit). A reader keeps a bounded number of them decoded,
 * forgetting the oldest first. The checker and the snapshot writer read every page. What a first
 * query after an open pays is held down by the layout (format 8): an entity page's names are kept
 * as its UTF-8 bytes (front coding undone into one buffer per block) and made Strings only when
 * asked, and (format 11) not decoded at all until a name of the block is first used; a row page's entities are decoded without its values (a table's values are read, whole,
 * when a column is first asked for); a reverse page covers 1024 targets, so that a walk over a
 * subtree looks up one page per 1024 targets, most of which have no sources; and a lookup of one
 * relationship's sources first asks the block's summary (format 10; one summary page per 1024
 * blocks, read when first asked), so that a walk over {@code LocatedIn} decodes no block whose
 * targets only other relationships point at; and an entity page's entries are runs (format 12),
 * so that restoring a block of entities created together is a few bulk fills, cheap even for code
 * not compiled yet.
 */
package dev.quiver.storage.format;
