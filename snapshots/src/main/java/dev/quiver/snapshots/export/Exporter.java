package dev.quiver.snapshots.export;

import dev.quiver.error.StorageIOException;
import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.World;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.function.LongPredicate;
import java.util.stream.Stream;

/**
 * Exports a world as a vertex table and an edge table (GraphFrames convention: {@code id} on
 * vertices, {@code src}/{@code dst} on edges; columns in {@link Layout}) in Parquet or CSV, for
 * DuckDB, pandas, Spark and the {@code spark} module's jobs.
 *
 * <p>The export streams table by table: each archetype table's rows go straight from its columns
 * into the file writer through one reused {@link RowBuffer}, so memory holds the writer's current
 * row group, never the rows of the world. The files are written into a temporary sibling
 * directory ({@code .NAME.export-tmp-*}) that is renamed to the output directory only when both
 * are complete: a failed export leaves nothing behind, and an existing output directory must be
 * empty.
 */
public final class Exporter {
    private Exporter() {}

    /**
     * Exports a world into {@code dir}: {@code vertices.EXT} and {@code edges.EXT}.
     *
     * @param world   an open world (read-only is enough)
     * @param dir     the output directory: missing or empty; its parent must exist
     * @param options the format, the relationships and the entities to export
     * @return row counts, bytes and time
     * @throws ExportException     when {@code dir} is not empty or is a file, its parent is
     *                             missing, or a relationship is unknown (nothing is written)
     * @throws StorageIOException  when the files cannot be written (nothing is left behind)
     */
    public static ExportResult export(World world, Path dir, ExportOptions options) {
        long start = System.nanoTime();
        Path target = dir.toAbsolutePath().normalize();
        Path parent = target.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new ExportException("cannot export to " + dir + ": directory " + parent + " does not exist");
        }
        boolean exists = Files.exists(target);
        if (exists && !Files.isDirectory(target)) {
            throw new ExportException("cannot export to " + dir + ": it is a file");
        }
        if (exists && !isEmpty(target)) {
            throw new ExportException("cannot export to " + dir + ": the directory is not empty");
        }
        Layout layout = Layout.plan(world, options.relationships());
        ExportFormat format = options.format();
        Path tmp = parent.resolve("." + target.getFileName() + ".export-tmp-" + ProcessHandle.current().pid()
                + "-" + Long.toHexString(System.nanoTime()));
        boolean done = false;
        try {
            Files.createDirectory(tmp);
            long vertices;
            long edges;
            try (TableSink sink = TableSink.open(format, tmp.resolve(format.verticesFile()), "vertices", layout.vertexColumns)) {
                vertices = writeVertices(world, layout, options.keep(), sink);
            }
            try (TableSink sink = TableSink.open(format, tmp.resolve(format.edgesFile()), "edges", layout.edgeColumns)) {
                edges = writeEdges(world, layout, options.keep(), sink);
            }
            long bytes = Files.size(tmp.resolve(format.verticesFile())) + Files.size(tmp.resolve(format.edgesFile()));
            moveIntoPlace(tmp, target, exists);
            done = true;
            return new ExportResult(dir, vertices, edges, bytes, (System.nanoTime() - start) / 1_000_000);
        } catch (IOException e) {
            throw new StorageIOException("cannot export to " + dir + ": " + e, e);
        } finally {
            if (!done) {
                deleteQuietly(tmp);
            }
        }
    }

    private static long writeVertices(World world, Layout layout, LongPredicate keep, TableSink sink) throws IOException {
        RowBuffer row = new RowBuffer(layout.vertexColumns.size());
        long n = 0;
        for (Table t : world.tableAccess().allTables()) {
            int count = t.count();
            if (count == 0 || t.hasId(Builtin.DISABLED_RELATIONSHIP)) {
                continue; // toggle companions (R~, rules.Toggles) are hidden: no vertex, no edge
            }
            Column[] columns = t.columns();
            int[] base = new int[columns.length];
            for (int c = 0; c < columns.length; c++) {
                base[c] = Ids.isPair(columns[c].id()) ? -1 : layout.vertexBase(columns[c].id());
            }
            long[] entities = t.entities();
            for (int r = 0; r < count; r++) {
                long e = entities[r];
                if (Builtin.isBuiltin(e) || (keep != null && !keep.test(e))) {
                    continue;
                }
                row.clear();
                row.word(Layout.ID, e);
                row.string(Layout.NAME, world.name(e));
                row.string(Layout.PATH, world.path(e));
                for (int c = 0; c < columns.length; c++) {
                    if (base[c] >= 0) {
                        fields(columns[c], r, base[c], row);
                    }
                }
                sink.write(row);
                n++;
            }
        }
        return n;
    }

    private static long writeEdges(World world, Layout layout, LongPredicate keep, TableSink sink) throws IOException {
        RowBuffer row = new RowBuffer(layout.edgeColumns.size());
        Int2ObjectOpenHashMap<String> relationshipPaths = new Int2ObjectOpenHashMap<>();
        long n = 0;
        for (Table t : world.tableAccess().allTables()) {
            int count = t.count();
            if (count == 0 || t.hasId(Builtin.DISABLED_RELATIONSHIP)) {
                continue; // toggle companions (R~, rules.Toggles) are hidden: no vertex, no edge
            }
            long[] entities = t.entities();
            for (long pair : t.type()) {
                if (Ids.isPair(pair) && Ids.second(pair) == Ids.WILDCARD_INDEX) {
                    n += writeSparseEdges(world, layout, keep, sink, t, Ids.first(pair), relationshipPaths, row);
                    continue;
                }
                if (!Ids.isPair(pair) || !layout.isEdge(world, pair)) {
                    continue;
                }
                long dst = world.entityOfIndex(Ids.second(pair));
                if (keep != null && !keep.test(dst)) {
                    continue;
                }
                String relationship = relationshipPaths.computeIfAbsent(Ids.first(pair),
                        i -> world.path(world.entityOfIndex(i)));
                Column data = t.column(pair);
                int base = data == null ? -1 : layout.edgeBase(world, pair);
                for (int r = 0; r < count; r++) {
                    long src = entities[r];
                    if (Builtin.isBuiltin(src) || (keep != null && !keep.test(src))) {
                        continue;
                    }
                    row.clear();
                    row.word(Layout.SRC, src);
                    row.word(Layout.DST, dst);
                    row.string(Layout.RELATIONSHIP, relationship);
                    if (base >= 0) {
                        fields(data, r, base, row);
                    }
                    sink.write(row);
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * The edges of a sparse relationship in table {@code t} (FEATURES TRT-16: the table holds the
     * marker {@code (R, *)}, each row's targets are in the sparse store); sparse pairs carry no data.
     */
    private static long writeSparseEdges(World world, Layout layout, LongPredicate keep, TableSink sink, Table t, int rel,
                                         Int2ObjectOpenHashMap<String> relationshipPaths, RowBuffer row) throws IOException {
        long n = 0;
        for (int r = 0, count = t.count(); r < count; r++) {
            long src = t.entity(r);
            if (Builtin.isBuiltin(src) || (keep != null && !keep.test(src))) {
                continue;
            }
            for (int tgt : world.tableAccess().sparse().targets(Ids.index(src), rel)) {
                long pair = Ids.pairOfIndices(rel, tgt);
                long dst = world.entityOfIndex(tgt);
                if (!layout.isEdge(world, pair) || (keep != null && !keep.test(dst))) {
                    continue;
                }
                row.clear();
                row.word(Layout.SRC, src);
                row.word(Layout.DST, dst);
                row.string(Layout.RELATIONSHIP, relationshipPaths.computeIfAbsent(rel, i -> world.path(world.entityOfIndex(i))));
                sink.write(row);
                n++;
            }
        }
        return n;
    }

    /** Copies one row of a column's fields into the buffer, from column index {@code base} on. */
    private static void fields(Column column, int r, int base, RowBuffer row) {
        Schema s = column.schema();
        for (int f = 0; f < s.size(); f++) {
            if (s.field(f).type() == FieldType.STRING) {
                row.string(base + f, (String) column.value(f, r));
            } else {
                row.word(base + f, column.word(f, r));
            }
        }
    }

    private static boolean isEmpty(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            throw new StorageIOException("cannot read directory " + dir + ": " + e, e);
        }
    }

    /** Renames the finished temporary directory to the target (an empty target is replaced). */
    private static void moveIntoPlace(Path tmp, Path target, boolean exists) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException | AtomicMoveNotSupportedException e) {
            if (exists) {
                Files.delete(target); // empty, checked before the export began
            }
            Files.move(tmp, target);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException ignored) {
                    // best effort: the temporary directory is hidden and named as such
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }
}
