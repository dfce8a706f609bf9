package dev.quiver.bench;

import dev.quiver.storage.Builtin;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.World;

import java.nio.file.Path;

/**
 * An RG-1 world (bench/RG1.md) built through the public library API, with the ids the operations
 * need: every node's entity id (by node index), the Position component, and the LocatedIn and
 * Likes relationships.
 *
 * <p>{@link #create} loads the whole world in transactions of {@link #BATCH} nodes; each commits
 * durably (write-ahead log forced to disk), so the world is durable when it returns.
 */
public final class Rg1World implements AutoCloseable {
    /** Nodes created per transaction while loading. */
    public static final int BATCH = 50_000;

    private final Rg1Spec spec;
    private final Path dir;
    private final long[] nodes;
    private World world;
    private long position;
    private long locatedIn;
    private long likes;
    private int xField;

    private Rg1World(Rg1Spec spec, Path dir) {
        this.spec = spec;
        this.dir = dir;
        this.nodes = new long[spec.nodes()];
    }

    /**
     * Creates the RG-1 world in a new directory: declares Position, LocatedIn (Transitive,
     * (OnDeleteTarget, Delete)) and Likes, then creates every node "n&lt;i&gt;" with its Position
     * and its (LocatedIn, parent) pair, then the Likes pairs.
     *
     * @param spec the workload parameters
     * @param dir  the world directory: missing or empty
     * @return the open world, writable
     */
    public static Rg1World create(Rg1Spec spec, Path dir) {
        Rg1World r = new Rg1World(spec, dir);
        r.world = World.create(dir);
        try {
            r.load();
        } catch (RuntimeException | Error e) {
            r.close();
            throw e;
        }
        return r;
    }

    private void load() {
        world.transaction(tx -> {
            position = tx.component(Position.class);
            locatedIn = tx.entity("LocatedIn");
            tx.add(locatedIn, Builtin.TRANSITIVE, tx.pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE));
            likes = tx.entity("Likes");
        });
        xField = world.schema(position).indexOf("x");
        int n = spec.nodes();
        for (int start = 0; start < n; start += BATCH) {
            int from = start, to = Math.min(n, start + BATCH);
            world.transaction(tx -> {
                Object[] value = new Object[2];
                for (int i = from; i < to; i++) {
                    long e = tx.entity("n" + i);
                    // one table move: Position and the pair together; then the value in place
                    if (i == 0) {
                        tx.add(e, position);
                    } else {
                        tx.add(e, position, tx.pair(locatedIn, nodes[Rg1Spec.parent(i)]));
                    }
                    value[0] = (double) i;
                    value[1] = (double) Rg1Spec.depthOf(i);
                    tx.set(e, position, value);
                    nodes[i] = e;
                }
            });
        }
        world.transaction(tx -> {
            for (int i = spec.firstLeaf(); i < n; i++) {
                if (spec.likes(i)) {
                    tx.add(nodes[i], tx.pair(likes, nodes[spec.likesTarget(i)]));
                }
            }
        });
    }

    /** Closes the world and opens it again as its writer. */
    public void reopen() {
        closeWorld();
        openWorld();
    }

    /** Closes the world (a checkpoint seals what the write-ahead log holds); {@link #openWorld} follows. */
    public void closeWorld() {
        world.close();
        world = null;
    }

    /** Opens the closed world again. */
    public void openWorld() {
        world = World.open(dir);
    }

    /** The open world. */
    public World world() {
        return world;
    }

    /** The world directory. */
    public Path directory() {
        return dir;
    }

    /** The workload parameters. */
    public Rg1Spec spec() {
        return spec;
    }

    /** The entity of node {@code i}. */
    public long node(int i) {
        return nodes[i];
    }

    /** The Position component id. */
    public long position() {
        return position;
    }

    /** The LocatedIn relationship. */
    public long locatedIn() {
        return locatedIn;
    }

    /** The Likes relationship. */
    public long likes() {
        return likes;
    }

    /**
     * Reads Position.x from table columns, remembering the last table's column (rows of one table
     * come together in query results).
     */
    public final class PositionX {
        private Table table;
        private Column column;

        /** Position.x of the entity at {@code row} of {@code table}. */
        public double at(Table t, int row) {
            if (t != table) {
                table = t;
                column = t.column(position);
            }
            return column.f64(xField, row);
        }

        /** Position.x of an entity, found through the entity index (table and row). */
        public double of(long entity) {
            return at(world.tableAccess().table(entity), world.tableAccess().row(entity));
        }
    }

    @Override
    public void close() {
        if (world != null) {
            world.close();
            world = null;
        }
    }
}
