package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The RG-1 query operations on the small variant (F = 10, D = 4, N = 11,111; shared/bench/RG1.md). */
class Rg1SmallTest {
    static final int F = 10, D = 4;
    static final int N = (int) ((Math.pow(F, D + 1) - 1) / (F - 1));
    static final int FIRST_LEAF = (int) ((Math.pow(F, D) - 1) / (F - 1));
    static final int NUM_LEAVES = (int) Math.pow(F, D);

    @TempDir
    static Path dir;
    static World w;
    static long[] nodes = new long[N];
    static long position;

    static int depth(int i) {
        int d = 0;
        while (i > 0) {
            i = (i - 1) / F;
            d++;
        }
        return d;
    }

    @BeforeAll
    static void build() {
        w = World.create(dir.resolve("rg1"));
        position = w.component("Position", Schema.of("x", FieldType.F64, "y", FieldType.F64));
        w.transaction(x -> {
            long locatedIn = x.entity("LocatedIn");
            x.add(locatedIn, Builtin.TRANSITIVE);
            x.add(locatedIn, Ids.pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE));
            long likes = x.entity("Likes");
            for (int i = 0; i < N; i++) {
                nodes[i] = x.entity("n" + i);
                x.set(nodes[i], position, new Object[] {(double) i, (double) depth(i)});
                if (i > 0) {
                    x.add(nodes[i], Ids.pair(locatedIn, nodes[(i - 1) / F]));
                }
            }
            for (int i = FIRST_LEAF; i < N; i++) {
                if (i % 100 == 7) {
                    x.add(nodes[i], Ids.pair(likes, nodes[FIRST_LEAF + (int) ((i * 7919L) % NUM_LEAVES)]));
                }
            }
        });
    }

    @AfterAll
    static void close() {
        w.close();
    }

    @Test
    void iterDirectPairsOnly() {
        Query q = Query.parse(w, "Position, (LocatedIn, *|self)");
        assertEquals(N - 1, q.count());
        double[] sum = {0};
        long[] n = {0};
        q.forEach(r -> {
            Column c = r.thisTable().column(position);
            sum[0] += c.f64(0, r.thisRow());
            n[0]++;
        });
        assertEquals(N - 1, n[0]);
        assertEquals((double) (N - 1) * N / 2, sum[0]);
    }

    @Test
    void transFixedTarget() {
        for (int k = 1; k <= 10; k++) {
            assertEquals((N - 1) / F - 1, Query.parse(w, "(LocatedIn, n" + k + ")").count());
        }
        assertEquals(N - 1, Query.parse(w, "(LocatedIn, n0)").count());
    }

    @Test
    void transvarEveryNodeAncestorPair() {
        long expected = 0;
        for (int d = 1; d <= D; d++) {
            expected += (long) d * (long) Math.pow(F, d);
        }
        Query q = Query.parse(w, "(LocatedIn, $x)");
        assertTrue(q.plan().contains("TRANS_ALL") && q.plan().contains("per-table"), q.plan());
        assertEquals(expected, q.count());
        assertEquals(expected, q.rows(-1).size());
        assertEquals(expected, Query.parse(w, "(LocatedIn, *)").count());
        assertEquals(expected, Query.parse(w, "LocatedIn($a, $b)").count());
        assertEquals(expected, Query.parse(w, "Position, (LocatedIn, $x)").count());
    }

    @Test
    void joinLikesWithTargetPosition() {
        long expectedSum = 0, expectedCount = 0;
        for (int i = FIRST_LEAF; i < N; i++) {
            if (i % 100 == 7) {
                expectedSum += FIRST_LEAF + (i * 7919L) % NUM_LEAVES;
                expectedCount++;
            }
        }
        Query q = Query.parse(w, "(Likes, $y), Position($y)");
        assertEquals(expectedCount, q.count());
        long[] sum = {0};
        q.forEach(r -> sum[0] += (long) ((Double) w.get(r.variable("y"), position).get("x")).doubleValue());
        assertEquals(expectedSum, sum[0]);
    }

    @Test
    void fixedSourceAncestorsAndReachability() {
        int leaf = N - 1;
        assertEquals(D, Query.parse(w, "LocatedIn(n" + leaf + ", $x)").count());
        assertEquals(1, Query.parse(w, "LocatedIn(n" + leaf + ", n0)").count());
        assertEquals(0, Query.parse(w, "LocatedIn(n0, n" + leaf + ")").count());
    }
}
