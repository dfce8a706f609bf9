/**
 * Moving whole worlds in and out: point-in-time snapshots, TSV pair files, Flecs Script files, and
 * the Parquet/CSV export.
 *
 * <ul>
 *   <li>{@link dev.quiver.snapshots.Snapshots}: {@code write(world, file)} streams every persistent
 *       page of a world's committed state into one checksummed file (layout in
 *       {@code SnapshotFormat}: magic {@code QVSNAP}, format version, page records, a trailer with
 *       the record count and a CRC32C); {@code restore(file, dir)} verifies the whole file before it
 *       creates anything. Damage is a {@link dev.quiver.snapshots.CorruptSnapshotException}, an
 *       intact file of another version a {@link dev.quiver.snapshots.SnapshotFormatException}.</li>
 *   <li>{@link dev.quiver.snapshots.TsvLoader}: streams {@code subject<TAB>relationship<TAB>target}
 *       files (plain or gzip) into a world, one transaction per file; a bad line is a
 *       {@link dev.quiver.snapshots.TsvFormatException} naming {@code file:line}, and nothing of
 *       the file is loaded.</li>
 *   <li>{@link dev.quiver.snapshots.script.FlecsScriptLoader}: loads a Flecs Script file (the
 *       subset of the conformance worlds) into a world as one transaction; an error is a
 *       {@link dev.quiver.snapshots.script.FlecsScriptException} naming {@code file:line:column},
 *       and nothing of the file is loaded.</li>
 *   <li>{@link dev.quiver.snapshots.export.Exporter}: writes a world as {@code vertices} and
 *       {@code edges} tables in Parquet or CSV (package {@code dev.quiver.snapshots.export}).</li>
 * </ul>
 */
package dev.quiver.snapshots;
