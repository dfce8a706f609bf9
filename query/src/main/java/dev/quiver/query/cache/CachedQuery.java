package dev.quiver.query.cache;

import dev.quiver.query.Query;
import dev.quiver.query.QueryRow;
import dev.quiver.query.QueryValidationException;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.query.parse.QueryAst;
import dev.quiver.query.parse.QueryParser;
import dev.quiver.query.parse.Term;
import dev.quiver.query.parse.TermRef;
import dev.quiver.query.parse.Traversal;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Consumer;

/**
 * A cached query (Flecs v4 cached queries, FEATURES.md QK-01..QK-06, QK-14, QK-17..QK-19): it
 * keeps the tables its {@code $this} terms match ({@link TableFilter}) and stays matched as tables
 * appear and disappear ({@link TableCache}, driven by the world's table events); each evaluation
 * walks only those tables, in cache order, and the evaluator checks the remaining terms as for an
 * uncached query. Caching never changes results: the rows are those of the same query uncached,
 * as a multiset (QK-01, "caching never changes results").
 *
 * <p>On top of the uncached query it allows what Flecs allows only on cached queries:
 * <ul>
 *   <li>{@code cascade} and {@code cascade|desc} on a {@code $this} source (QS-44, HIE-08): the
 *       term matches as {@code up R} and results come ordered by the depth of {@code $this} along
 *       R (ChildOf by default), parents first, or deepest first with {@code desc}. At most one
 *       cascade term; uncached queries keep refusing it, as Flecs does (conformance NOTES K13).</li>
 *   <li>{@link #groupBy(String)}: results grouped by the target of a relationship on
 *       {@code $this}'s table, groups in ascending id order, tables without the relationship in
 *       group 0 ({@link #groups()}, {@link #forEachInGroup}).</li>
 *   <li>{@link #orderBy(String, boolean)}: results sorted by {@code id} or a component member
 *       ({@code Position.x}) of {@code $this}, inside each group.</li>
 * </ul>
 * Without grouping or ordering, results stream table by table in cache order; with them, the
 * results are gathered and sorted (stable) before the first is handed out. After a change the
 * rows are gathered again and laid out in the last sort's order before sorting, so that the rows
 * of tables that did not change come as sorted runs and the sort (TimSort) merges them with the
 * changed rows instead of sorting everything; ties are broken by the walk position, so the answer
 * is the one a fresh sort gives.
 *
 * <p>Like a Flecs query, the plan reflects the relationship traits at creation; it is planned again
 * (with its table cache made again) when the data it was made from changes: an id whose IsA subsets
 * come into use, a relationship that gets a subset, a *From E with other ids ({@link Query#refreshed}).
 * Not thread-safe; one instance per thread.
 */
public final class CachedQuery implements AutoCloseable {
    private final World world;
    private final QueryAst ast;
    /** Planned again (with a new filter and table cache) when its plan's data changes ({@link #walk}). */
    private Query query;
    private TableFilter filter;
    private final Grouping grouping;
    private final OrderKey order;
    /** Made at the first evaluation (so that groupBy, orderBy and set chains register nothing). */
    private TableCache cache;
    private boolean closed;
    /** The table walk of a cascade query and the sorted rows of an ordered one, and when they were made. */
    private List<Table> depthWalk;
    private long depthStamp0 = -1, depthStamp1 = -1;
    private List<QueryRow> sorted;
    private long sortStamp0 = -1, sortStamp1 = -1;
    private long sorts;
    /**
     * Each {@code $this} entity's position among the distinct entities of the last sorted result
     * (the order a re-sort starts from), and how many there were; null before the first sort.
     */
    private it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap lastRank;
    private int lastRankCount;

    private CachedQuery(World world, QueryAst ast, Query query, Grouping grouping, OrderKey order) {
        this.world = world;
        this.ast = ast;
        this.query = query;
        this.filter = TableFilter.of(query.compiledPlan());
        this.grouping = grouping;
        this.order = order;
    }

    private TableCache cache() {
        if (closed) {
            throw new IllegalStateException("cached query '" + ast.text() + "' was closed");
        }
        if (cache == null) {
            Grouping.Keys keys = grouping != null && grouping.kind() == Grouping.Kind.TARGET ? grouping.keys(world) : null;
            cache = new TableCache(world, filter, keys == null ? null : keys::target);
        }
        return cache;
    }

    /** The table cache, made if needed (for tests of its upkeep). */
    TableCache tableCache() {
        return cache();
    }

    /**
     * Stops following the world's tables (unregisters the table-event listener). Evaluating
     * afterwards throws {@link IllegalStateException}. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        if (cache != null) {
            cache.close();
        }
        depthWalk = null;
        sorted = null;
        lastRank = null;
    }

    /**
     * Parses, compiles and caches a query; {@code cascade} is allowed (see the class comment).
     *
     * @throws dev.quiver.query.QuerySyntaxException and the other errors of
     *     {@link Query#parse(World, String)}
     * @throws QueryValidationException for a second cascade term
     * @throws UnsupportedQueryException for cascade on a source other than {@code $this}
     */
    public static CachedQuery parse(World world, String text) {
        return of(world, QueryParser.parse(text));
    }

    /**
     * {@link #parse(World, String)} with variables set before evaluation and bound from the start
     * ({@link Query#parse(World, String, java.util.Map)}): {@code $this != sf, City} with
     * {@code $this} set is answered.
     */
    public static CachedQuery parse(World world, String text, java.util.Map<String, Long> variables) {
        return of(world, QueryParser.parse(text), variables);
    }

    /** Caches a parsed or built ({@link dev.quiver.query.builder.QueryBuilder#ast()}) query; as {@link #parse}. */
    public static CachedQuery of(World world, QueryAst ast) {
        return of(world, ast, java.util.Map.of());
    }

    /** {@link #of(World, QueryAst)} with variables set before evaluation ({@link #parse(World, String, java.util.Map)}). */
    public static CachedQuery of(World world, QueryAst ast, java.util.Map<String, Long> variables) {
        List<Term> terms = new ArrayList<>(ast.terms());
        Grouping depth = null;
        for (int i = 0; i < terms.size(); i++) {
            Term t = terms.get(i);
            if (t.isScope() || t.isEquality() || t.source() == null) {
                continue;
            }
            Traversal tr = t.source().traversal();
            if (!tr.cascade()) {
                continue;
            }
            if (depth != null) {
                throw new QueryValidationException("a query can order by one cascade term only; second one in '" + t
                    + "' at column " + tr.column(), "cascade", tr.column());
            }
            if (!t.source().isThis()) {
                throw new UnsupportedQueryException("cascade on source '" + t.source().withTraversal(Traversal.NONE)
                    + "' (cascade orders $this)", "cascade", tr.column());
            }
            long rel = Builtin.CHILD_OF;
            String relText = "ChildOf";
            if (tr.relationship() != null) {
                relText = tr.relationship().name();
                rel = world.lookup(relText); // unknown names are reported by the planner below
            }
            depth = new Grouping(Grouping.Kind.DEPTH, rel, tr.desc(), "cascade" + (tr.desc() ? "|desc " : " ") + relText);
            Traversal up = new Traversal(tr.self(), true, false, false, tr.relationship(), tr.column());
            terms.set(i, new Term(t.oper(), t.inout(), t.first(), t.second(), withTraversal(t.source(), up),
                t.predicate(), t.scope(), t.column()));
        }
        Query q = Query.of(world, new QueryAst(ast.text(), terms), variables);
        return new CachedQuery(world, ast, q, depth, null);
    }

    private static TermRef withTraversal(TermRef r, Traversal t) {
        return new TermRef(r.kind(), r.name(), r.lookup(), t, r.column());
    }

    /**
     * This query grouped by the target of {@code relationship} on {@code $this}'s table (a new
     * cached query; this one is unchanged).
     *
     * @throws QueryOrderingException for an unknown relationship, a query with a cascade term, or
     *     a query without {@code $this}
     */
    public CachedQuery groupBy(String relationship) {
        if (grouping != null && grouping.kind() == Grouping.Kind.DEPTH) {
            throw new QueryOrderingException("groupBy(" + relationship + ") on a query with '" + grouping.text()
                + "': cascade is the grouping by depth, there can be one grouping");
        }
        needThis("groupBy(" + relationship + ")");
        long r = relationship == null ? 0 : world.lookup(relationship);
        if (r == 0) {
            throw new QueryOrderingException("unknown relationship '" + relationship + "' in groupBy");
        }
        return new CachedQuery(world, ast, query, new Grouping(Grouping.Kind.TARGET, r, false, "groupBy " + relationship),
            order);
    }

    /**
     * This query sorted by {@code key} inside each group (a new cached query).
     *
     * @param key {@code id}, {@code Component.member} (read on the source of the first field
     *     querying the component, else on {@code $this}) or {@code Component.member(source)} (the
     *     field with that source: {@code $this}, {@code $var} or an entity path); see {@link OrderKey}
     * @param descending largest first
     * @throws QueryOrderingException for a key naming no member of a component, a source no field
     *     of the component has, a Not or *From field, a field on {@code _}, or a query without
     *     {@code $this} (Flecs sorts the {@code $this} tables)
     */
    public CachedQuery orderBy(String key, boolean descending) {
        needThis("orderBy(" + key + ")");
        return new CachedQuery(world, ast, query, grouping, OrderKey.parse(world, query.compiledPlan(), key, descending));
    }

    /** {@link #orderBy(String, boolean)} ascending. */
    public CachedQuery orderBy(String key) {
        return orderBy(key, false);
    }

    private void needThis(String what) {
        if (!query.hasThis()) {
            throw new QueryOrderingException(what + ": the query has no $this to order or group ('" + ast.text() + "')");
        }
    }

    /**
     * This query with variable {@code $name} set before evaluation ({@link Query#set}); a new
     * cached query with the same grouping and ordering.
     *
     * @throws dev.quiver.query.QueryVariableException as {@link Query#set}
     */
    public CachedQuery set(String name, long entity) {
        return new CachedQuery(world, ast, query.set(name, entity), grouping, order);
    }

    /** The uncached query this one caches (cascade terms read as {@code up}). */
    public Query query() {
        return query;
    }

    /** The query text as given. */
    public String text() {
        return ast.text();
    }

    /** The canonical text, cascade flags included. */
    public String canonicalText() {
        return ast.canonical();
    }

    /**
     * The tables matched now (empty ones included), in cache order, or group by group for a
     * groupBy query. Do not hold across mutations.
     */
    public List<Table> tables() {
        return cache().tables();
    }

    /** Number of table matches since creation: each table is matched once while it exists (QK-05). */
    public long tableMatches() {
        return cache().matches();
    }

    /**
     * Number of scans of the world's whole table list: one, when the cache is made (the first
     * evaluation); afterwards table events keep the cache matched.
     */
    public long tableRescans() {
        return cache().rescans();
    }

    /**
     * Number of sorts done: of the rows, for an ordered query, and of the tables by depth, for a
     * cascade query. An evaluation sorts again only when the world changed since the last sort
     * (a write, {@link World#writeCount()}, or a table event); a groupBy query keeps its tables
     * filed by group as they appear and never sorts them.
     */
    public long sorts() {
        return sorts;
    }

    /** Calls {@code action} with every result, grouped and ordered as configured. */
    public void forEach(Consumer<QueryRow> action) {
        run(walk(), true, action);
    }

    /**
     * The results as a list.
     *
     * @param limit maximum number of rows; negative for all
     */
    public List<QueryRow> rows(int limit) {
        List<QueryRow> out = new ArrayList<>();
        forEach(r -> {
            if (limit < 0 || out.size() < limit) {
                out.add(r);
            }
        });
        return out;
    }

    /** Number of results (no rows built). */
    public long count() {
        return query.countIn(walk());
    }

    /**
     * The groups of the non-empty matched tables (those that may hold results) now, in iteration
     * order: targets of the groupBy relationship (0 for none), or depths for cascade; {@code [0]}
     * when the query is not grouped.
     */
    public List<Long> groups() {
        if (grouping == null) {
            return List.of(0L);
        }
        Grouping.Keys keys = grouping.keys(world);
        LinkedHashSet<Long> out = new LinkedHashSet<>();
        for (Table t : walk()) {
            for (int r = 0, n = keys.perRow(t) ? t.count() : Math.min(1, t.count()); r < n; r++) {
                out.add(keys.of(t, r)); // a sparse R: groups by row
            }
        }
        List<Long> l = new ArrayList<>(out);
        l.sort(grouping::compare);
        return l;
    }

    /** Calls {@code action} with the results of one group (Flecs' group iterator), ordered as configured. */
    public void forEachInGroup(long group, Consumer<QueryRow> action) {
        if (grouping == null) {
            throw new QueryOrderingException("forEachInGroup(" + group + "): the query '" + ast.text() + "' is not grouped");
        }
        Grouping.Keys keys = grouping.keys(world);
        List<Table> in = new ArrayList<>();
        boolean rows = false;
        for (Table t : walk()) {
            if (keys.perRow(t)) {
                rows = true;
                in.add(t); // a sparse R: the rows of other groups are left out below
            } else if (keys.of(t) == group) {
                in.add(t);
            }
        }
        if (rows) {
            run(in, false, r -> {
                Table t = tableOf(r);
                if (keys.of(t, t == r.thisTable() ? r.thisRow() : world.tableAccess().row(r.thisEntity())) == group) {
                    action.accept(r);
                }
            });
            return;
        }
        run(in, false, action);
    }

    /**
     * The tables to walk: the cache's, in group order when grouped (groupBy: kept filed by the
     * cache; cascade: sorted by depth again only when the world changed).
     */
    private List<Table> walk() {
        Query q = query.refreshed();
        if (q != query) { // an id got IsA subsets in use, or a *From E other ids: other terms, other tables
            query = q;
            filter = TableFilter.of(q.compiledPlan());
            if (cache != null) {
                cache.close();
                cache = null;
            }
            depthWalk = null;
            sorted = null;
        }
        TableCache c = cache();
        if (!filter.usable(world)) { // a deleted constant: every table, as an uncached run
            List<Table> ts = new ArrayList<>(world.tableAccess().allTables());
            if (grouping != null) {
                Grouping.Keys keys = grouping.keys(world);
                ts.sort((a, b) -> grouping.compare(keys.of(a), keys.of(b)));
                sorts++;
            }
            return ts;
        }
        if (grouping == null || grouping.kind() == Grouping.Kind.TARGET) {
            return c.tables();
        }
        if (depthWalk == null || depthStamp0 != c.events() || depthStamp1 != world.writeCount()) {
            List<Table> ts = new ArrayList<>(c.tables());
            Grouping.Keys keys = grouping.keys(world);
            ts.sort((a, b) -> grouping.compare(keys.of(a), keys.of(b)));
            sorts++;
            depthWalk = ts;
            depthStamp0 = c.events();
            depthStamp1 = world.writeCount();
        }
        return depthWalk;
    }

    /**
     * Hands out the rows of {@code tables}: in table order when neither grouped nor ordered; else
     * sorted by (group, key), stable (an up or self|up term may hand out a table's rows apart from
     * the table walk, so rows are grouped again), the sorted rows kept while the world does not
     * change.
     */
    private void run(List<Table> tables, boolean whole, Consumer<QueryRow> action) {
        if (order == null && grouping == null) {
            query.forEachIn(tables, action);
            return;
        }
        TableCache c = cache();
        if (whole && sorted != null && sortStamp0 == c.events() && sortStamp1 == world.writeCount()
            && filter.usable(world)) {
            sorted.forEach(action);
            return;
        }
        List<QueryRow> rows = new ArrayList<>();
        query.forEachIn(tables, rows::add);
        Grouping.Keys keys = grouping == null ? null : grouping.keys(world);
        int n = rows.size();
        long[] group = new long[n];
        Object[] key = new Object[n];
        for (int i = 0; i < n; i++) {
            QueryRow r = rows.get(i);
            if (keys != null) {
                Table t = tableOf(r);
                group[i] = keys.perRow(t) ? keys.of(t, t == r.thisTable() ? r.thisRow() : world.tableAccess().row(r.thisEntity())) : keys.of(t);
            }
            if (order != null) {
                key[i] = order.of(world, r);
            }
        }
        Integer[] idx = previousOrder(rows);
        // (group, key), then the walk position: a total order, so the result is the stable sort of
        // the walk whatever order the rows come in; laid out in the last sort's order, the rows of
        // tables that did not change come as sorted runs, which the merge sort (TimSort) only merges
        java.util.Arrays.sort(idx, (a, b) -> {
            int k = keys == null ? 0 : grouping.compare(group[a], group[b]);
            if (k == 0 && order != null) {
                k = order.compare(key[a], key[b]);
            }
            return k != 0 ? k : Integer.compare(a, b);
        });
        sorts++;
        List<QueryRow> out = new ArrayList<>(n);
        for (Integer i : idx) {
            out.add(rows.get(i));
        }
        if (whole) {
            sorted = out;
            sortStamp0 = c.events();
            sortStamp1 = world.writeCount();
            rememberOrder(out);
        }
        out.forEach(action);
    }

    /**
     * The positions of {@code rows} (in walk order) laid out in the order of the last sort: a
     * row's {@code $this} entity at its last sorted position (the rows of one entity in walk
     * order), rows of entities that were not there at the end. A counting sort, linear in the rows.
     */
    private Integer[] previousOrder(List<QueryRow> rows) {
        int n = rows.size();
        Integer[] idx = new Integer[n];
        if (lastRank == null) {
            for (int i = 0; i < n; i++) {
                idx[i] = i;
            }
            return idx;
        }
        int slots = lastRankCount + 1;
        int[] hint = new int[n];
        int[] start = new int[slots + 1];
        for (int i = 0; i < n; i++) {
            hint[i] = lastRank.getOrDefault(rows.get(i).thisEntity(), lastRankCount);
            start[hint[i] + 1]++;
        }
        for (int h = 0; h < slots; h++) {
            start[h + 1] += start[h];
        }
        for (int i = 0; i < n; i++) {
            idx[start[hint[i]]++] = i;
        }
        return idx;
    }

    /** Remembers each {@code $this} entity's first position in a sorted result ({@link #previousOrder}). */
    private void rememberOrder(List<QueryRow> out) {
        it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap rank = new it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap(out.size());
        int next = 0;
        for (QueryRow r : out) {
            if (!rank.containsKey(r.thisEntity())) {
                rank.put(r.thisEntity(), next++);
            }
        }
        lastRank = rank;
        lastRankCount = next;
    }

    private Table tableOf(QueryRow r) {
        Table t = r.thisTable();
        long e = r.thisEntity();
        if (t != null && r.thisRow() >= 0 && r.thisRow() < t.count() && t.entity(r.thisRow()) == e) {
            return t;
        }
        return world.tableAccess().table(e);
    }

    @Override
    public String toString() {
        return "CachedQuery[" + ast.text() + (grouping != null ? ", " + grouping.text() : "")
            + (order != null ? ", orderBy " + order.text() + (order.descending() ? " desc" : "") : "") + "]";
    }
}
