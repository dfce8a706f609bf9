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
 * became empty is removed.
 *
 * <h2>Page families</h2>
 * All integers are big-endian; {@code str} is an i32 UTF-8 byte length and the bytes; ids are the
 * 64-bit ids of {@code dev.quiver.index.Ids}.
 * <ul>
 *   <li>{@code meta}, key 0 ({@link dev.quiver.storage.format.MetaPage}): i32 format version, i32
 *       next entity index, i32 table id count, i32 n, n x i32 free entity indices (reuse order).</li>
 *   <li>{@code schemas}, key = component entity index ({@link dev.quiver.storage.format.SchemaPage}):
 *       i32 n, n x (str field name, u8 field type code: {@link dev.quiver.storage.FieldType#code()}).</li>
 *   <li>{@code entities}, key = entity index / 1024 ({@link dev.quiver.storage.format.EntityPage}):
 *       i32 n, then per index of the block: u8 state (0 never used, 1 alive, 2 dead); unless 0,
 *       i32 generation; if alive, str name ("" for anonymous).</li>
 *   <li>{@code tables}, key = table id / 64 ({@link dev.quiver.storage.format.TablePage}): i32 n
 *       tables, each: i32 id, i32 type length, ids; i32 column count, column ids; i32 rows, then
 *       the rows inline (see rows) when at most 64, or -1 when the rows are in row pages.</li>
 *   <li>{@code rows}, key = (table id &lt;&lt; 20) | chunk ({@link dev.quiver.storage.format.RowPage}):
 *       i32 n (at most 1024), n x i64 entity, then per column per field n values (i64 raw word, or
 *       str for string fields).</li>
 *   <li>{@code components}, key = (kind &lt;&lt; 40) | entity index / 64
 *       ({@link dev.quiver.storage.format.ComponentPage}), kind 0 plain id, 1 {@code (R,T)} by T,
 *       2 {@code (R,*)} by R, 3 {@code (*,T)} by T: i32 n records, each i64 id, i32 k, k x i32
 *       table id. Records are filed by the entity they name, so new entities touch their own pages.</li>
 *   <li>{@code reverse}, key = target index / 64 ({@link dev.quiver.storage.format.ReversePage}):
 *       i32 n targets, each i32 target index, i32 k, k x i64 {@code (relationship index << 32) | source index}.</li>
 *   <li>{@code names}, key = entity index / 1024 ({@link dev.quiver.storage.format.NamePage}): i32 n
 *       entries of the block's named entities, each str name, i32 parent index, i64 entity.</li>
 * </ul>
 */
package dev.quiver.storage.format;
