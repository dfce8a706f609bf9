package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.storage.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A fresh world per test plus helpers that print query results in the conformance row format
 * ({@code <this> | <vars> | <fields>}, sorted; see shared/conformance/FORMAT.md), so tests read
 * like the acceptance examples of FEATURES.md section 14.
 *
 * <p>Each test method runs inside one world transaction, so building its world costs one commit
 * instead of one per call (queries read the in-memory state and see the uncommitted changes).
 */
abstract class QueryTestSupport {
    @TempDir
    Path dir;
    World w;

    @RegisterExtension
    final InvocationInterceptor inOneTransaction = new InvocationInterceptor() {
        @Override
        public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
                                        ExtensionContext extension) throws Throwable {
            inTransaction(invocation);
        }

        @Override
        public void interceptTestTemplateMethod(Invocation<Void> invocation,
                                                ReflectiveInvocationContext<Method> context,
                                                ExtensionContext extension) throws Throwable {
            inTransaction(invocation);
        }
    };

    private void inTransaction(InvocationInterceptor.Invocation<Void> invocation) throws Throwable {
        Throwable[] failure = {null};
        w.transaction(x -> {
            try {
                invocation.proceed();
            } catch (Throwable t) {
                failure[0] = t;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    @BeforeEach
    void openWorld() {
        w = World.create(dir.resolve("world"));
    }

    @AfterEach
    void closeWorld() {
        w.close();
    }

    long e(String path) {
        return w.entity(path);
    }

    long pair(String r, String t) {
        return Ids.pair(e(r), e(t));
    }

    /** Adds ids written as names or "(R,T)" to the entity, creating names as needed. */
    long with(String entity, String... ids) {
        long x = e(entity);
        for (String id : ids) {
            w.add(x, w.ensureId(id));
        }
        return x;
    }

    void transitive(String... rels) {
        for (String r : rels) {
            w.add(e(r), dev.quiver.storage.Builtin.TRANSITIVE);
        }
    }

    void reflexive(String... rels) {
        for (String r : rels) {
            w.add(e(r), dev.quiver.storage.Builtin.REFLEXIVE);
        }
    }

    /** Rows of a query as sorted lines; also checks that count() agrees with the rows. */
    List<String> rows(String query) {
        Query q = Query.parse(w, query);
        List<String> out = new ArrayList<>();
        for (QueryRow r : q.rows(-1)) {
            out.add(format(q, r));
        }
        Collections.sort(out);
        assertEquals(out.size(), q.count(), "count() of " + query);
        IterationCheck.check(q);
        return out;
    }

    /** Only the "<this> | <vars>" part of each row, sorted. */
    List<String> answers(String query) {
        List<String> out = new ArrayList<>();
        for (String r : rows(query)) {
            int i = r.indexOf(" | ", r.indexOf(" | ") + 3);
            out.add(r.substring(0, i));
        }
        return out;
    }

    /** The $this entities (paths), sorted. */
    List<String> these(String query) {
        Query q = Query.parse(w, query);
        List<String> out = new ArrayList<>();
        for (QueryRow r : q.rows(-1)) {
            out.add(w.path(r.thisEntity()));
        }
        Collections.sort(out);
        assertEquals(out.size(), q.count(), "count() of " + query);
        return out;
    }

    long count(String query) {
        return Query.parse(w, query).count();
    }

    String format(Query q, QueryRow r) {
        return format(w, q, r);
    }

    /**
     * A row as {@code this | $vars | fields}: variables sorted by name ({@code *} when unbound),
     * each field's matched id with {@code @source} when the source is not {@code $this}, {@code -}
     * when not set.
     */
    static String format(World w, Query q, QueryRow r) {
        StringBuilder sb = new StringBuilder();
        sb.append(q.hasThis() ? path(w, r.thisEntity()) : "-").append(" | ");
        List<String> vars = new ArrayList<>(q.variableNames());
        Collections.sort(vars);
        if (vars.isEmpty()) {
            sb.append('-');
        }
        for (int i = 0; i < vars.size(); i++) {
            long v = r.variable(vars.get(i));
            sb.append(i == 0 ? "" : " ").append('$').append(vars.get(i)).append('=').append(v == 0 ? "*" : path(w, v));
        }
        sb.append(" | ");
        if (r.fieldCount() == 0) {
            sb.append('-');
        }
        for (int f = 0; f < r.fieldCount(); f++) {
            sb.append(f == 0 ? "" : " ");
            if (!r.fieldSet(f)) {
                sb.append('-');
                continue;
            }
            sb.append(w.idToString(r.fieldId(f)));
            long src = r.fieldSource(f);
            if (src != r.thisEntity() || !q.hasThis()) {
                sb.append('@').append(src == Ids.WILDCARD ? "*" : path(w, src));
            }
        }
        return sb.toString();
    }

    String name(long e) {
        return path(w, e);
    }

    private static String path(World w, long e) {
        return e == 0 ? "0" : w.path(e);
    }

    static List<String> list(String... s) {
        List<String> l = new ArrayList<>(List.of(s));
        Collections.sort(l);
        return l;
    }
}
