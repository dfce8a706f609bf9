package dev.quiver.query.cache;

import dev.quiver.query.Query;
import dev.quiver.query.QueryRow;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link Query#forEachIn} and {@link Query#countIn}, the evaluation a cached query runs: exactly the
 * rows of the full query whose $this lies in the given tables, whichever step binds $this (a table
 * walk, the reverse index of a transitive relationship, an upward traversal, an equality).
 */
class RestrictedEvaluationTest {
    @TempDir
    Path dir;

    @Test
    void restrictedRowsAreTheRowsInThoseTables() {
        World w = World.create(dir.resolve("w"));
        try {
            w.transaction(x -> {
                w.add(w.entity("LocatedIn"), dev.quiver.storage.Builtin.TRANSITIVE);
                for (String[] e : new String[][] {{"paris", "(LocatedIn,france)", "City"}, {"lyon", "(LocatedIn,france)", "City", "Big"},
                    {"france", "(LocatedIn,europe)", "Country"}, {"berlin", "(LocatedIn,germany)", "City", "Big"},
                    {"germany", "(LocatedIn,europe)", "Country"}, {"house", "Light"}, {"house.room", "Big"},
                    {"house.room.lamp", "City"}}) {
                    long x0 = w.entity(e[0]);
                    for (int i = 1; i < e.length; i++) {
                        w.add(x0, w.ensureId(e[i]));
                    }
                }
            });
            String[] queries = {"City", "City, !Big", "(LocatedIn, europe)", "Big, Light(up)", "City, $this == lyon",
                "!Big", "(LocatedIn, $x), Country($x)", "Country(france)"};
            List<Table> all = w.tableAccess().allTables();
            for (String text : queries) {
                Query q = Query.parse(w, text);
                for (int mask = 0; mask < 8; mask++) {
                    List<Table> some = new ArrayList<>();
                    for (int i = 0; i < all.size(); i++) {
                        if (((i * 7 + mask) & 3) != 0 || mask == 7) {
                            some.add(all.get(i));
                        }
                    }
                    List<String> expected = new ArrayList<>();
                    for (QueryRow r : q.rows(-1)) {
                        if (!q.hasThis() || some.contains(w.tableAccess().table(r.thisEntity()))) {
                            expected.add(r.thisEntity() + " " + r.fieldId(0));
                        }
                    }
                    List<String> got = new ArrayList<>();
                    q.forEachIn(some, r -> got.add(r.thisEntity() + " " + r.fieldId(0)));
                    expected.sort(null);
                    got.sort(null);
                    assertEquals(expected, got, text + " in " + some.size() + " tables");
                    assertEquals(expected.size(), q.countIn(some), text);
                }
                assertEquals(q.hasThis() ? 0 : q.count(), q.countIn(List.of()), text + " in no table");
            }
        } finally {
            w.close();
        }
    }
}
