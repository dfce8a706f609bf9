package dev.quiver.query.engine;

import dev.quiver.index.Ids;
import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.Plan;
import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.Types;
import dev.quiver.storage.World;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.List;

/**
 * Runs a {@link Plan}: a backtracking interpreter over its steps (after Flecs v4
 * {@code flecs_query_run_until}, with continuation objects in place of jump labels). Each step
 * enumerates its matches under the current variable bindings and, for each, binds its variables,
 * writes its field and continues with the next step; when the last step succeeds a result is
 * yielded. Evaluation walks the component index ({@link dev.quiver.storage.TableAccess#tables}), table types and the
 * reverse index ({@link World#forEachSource}); it never scans entities one by one, except that a
 * query with no positive {@code $this} term walks all tables (FEATURES.md QS-49).
 *
 * <p>One evaluator is one run: it holds the per-run state (bindings, per-step scratch lists and
 * caches, transitive closures). Not thread-safe; create one per run.
 *
 * <p>Operation families: id terms, operators and {@code EACH} here; the transitive operations in
 * {@link TransitiveOps} (over {@link Closure}s); the equality predicates in {@link PredicateOps};
 * upward traversal ({@code up R}, {@code self|up R}) in {@link UpTraversal}; member-value terms in
 * {@link MemberOps}; the *From operators in {@link FromOps}; {@code EACH} and {@code THIS_SET} in {@link EachOps}.
 *
 * <p>Prefab and Disabled tables are skipped unless the query mentions those ids (QS-47), and so are
 * toggle companions R~ (hidden entities standing for R's disabled pairs) unless it mentions Disabled
 * or DisabledRelationship. Terms
 * widened by IsA inheritance (component inheritance, {@code self|up IsA}) run in {@link InheritOps}.
 */
public final class Evaluator {

    /** Receives results. */
    @FunctionalInterface
    public interface Sink {
        /**
         * Called once per result.
         *
         * @return false to stop the evaluation
         */
        boolean accept(Bindings bindings);
    }

    /** A continuation: runs the rest of the plan; false means stop (or, for tests, "found"). */
    @FunctionalInterface
    interface Cont {
        boolean go();
    }

    static final Cont FOUND = () -> false;
    static final int FAIL = -1;

    final World world;
    private final Plan plan;
    final Bindings b;
    final Cont[] next;
    /** Per step id: the step {@link #next} runs (the next one in its chain), or null at a chain's end ({@link LocatedCheck}). */
    private final Step[] following;
    private final boolean[] flag;
    final LongArrayList[] scratch;
    private final boolean[] deadConstant;
    /** Per step id: a row-independent generator that may batch the rows of sparse marker tables ({@link MarkerSafety}). */
    private final boolean[] markerSafe;
    /** Per variable slot: some step has the variable as its source ({@link Located#sourceSlots}). */
    private final boolean[] sourceSlots;
    /** Per step id: its {@link Located} scratch, made on first use ({@link #located}). */
    private Located[] located;
    private final TransitiveOps transitive = new TransitiveOps(this);
    private final PredicateOps predicates = new PredicateOps(this);
    private final InheritOps inheritance = new InheritOps(this);
    private final UpTraversal up = new UpTraversal(this);
    private final MemberOps members = new MemberOps(this);
    private final FromOps from = new FromOps(this);
    final SparseOps sparse = new SparseOps(this);
    /** The SELECT and WITH steps (their own ids; an inherited term goes to {@link InheritOps}). */
    final IdTermOps idTerms;
    private final EachOps each = new EachOps(this);
    private Sink sink;
    boolean counting;
    private long count;
    long mult = 1;
    /** Table-at-a-time run: row-independent generators of $this yield whole tables ({@link #runTables}). */
    private boolean batching;
    /** The id of the first top-level step, whose walk {@link #runChunk} splits into chunks. */
    private final int chunkStep;
    /** The chunk to run (-1: all) and the number of chunks the first step's walk has (1 when it is not split). */
    private int chunk = -1;
    private int chunks = 1;
    /**
     * False when no table can be left out (no Prefab, Disabled or toggle companion tables, or the
     * query asks for them).
     */
    private final boolean skippable;
    /** The relationships a wildcard relationship never matches ({@link TypeMatch}): Disabled and toggle companions. */
    final java.util.function.IntPredicate toggled;
    /** When set ({@link #restrictThis}): the tables $this may lie in, walked in this order. */
    private List<Table> thisTables;
    private java.util.Set<Table> thisSet;

    /** Prepares a run of {@code plan} over {@code world}. */
    public Evaluator(World world, Plan plan) {
        this(world, plan, new long[0]);
    }

    /**
     * An evaluation with the plan's preset variables bound: {@code presetValues[i]} is the entity
     * of slot {@code plan.presetSlots()[i]}.
     */
    public Evaluator(World world, Plan plan, long[] presetValues) {
        this.world = world;
        this.plan = plan;
        this.b = new Bindings(plan.slotCount(), Math.max(plan.fieldCount(), 1));
        int[] preset = plan.presetSlots();
        if (presetValues.length != preset.length) {
            throw new IllegalArgumentException(presetValues.length + " preset values for " + preset.length + " preset variables");
        }
        for (int i = 0; i < preset.length; i++) {
            b.values[preset[i]] = presetValues[i];
        }
        this.skippable = (!plan.matchPrefab() && !world.tableAccess().tables(Builtin.PREFAB).isEmpty())
            || (!plan.matchDisabled() && (!world.tableAccess().tables(Builtin.DISABLED).isEmpty()
                || !world.tableAccess().tables(Builtin.DISABLED_RELATIONSHIP).isEmpty()));
        this.toggled = world.tableAccess().toggleRelationships();
        int n = plan.stepCount();
        next = new Cont[n];
        following = new Step[n];
        flag = new boolean[n];
        scratch = new LongArrayList[n];
        idTerms = new IdTermOps(this, n);
        deadConstant = new boolean[n];
        for (int i = 0; i < n; i++) {
            scratch[i] = new LongArrayList();
        }
        markerSafe = MarkerSafety.of(plan);
        sourceSlots = Located.sourceSlots(plan);
        link(plan.steps(), this::yield);
        chunkStep = plan.steps().isEmpty() ? -1 : plan.steps().get(0).id();
    }

    /**
     * Marks steps whose fixed id elements were deleted after the query was created: they match
     * nothing (an entity index may have been reused by a new entity since).
     */
    private void markDead(Step s) {
        ResolvedTerm t = s.term();
        if (t != null && t.predicate() == null) {
            for (Operand o : new Operand[] {t.first(), t.second()}) {
                if (o != null && o.kind() == Operand.Kind.CONST && !world.isAlive(o.entity())) {
                    deadConstant[s.id()] = true;
                }
            }
        }
    }

    /**
     * Restricts this run to results whose {@code $this} lies in one of {@code tables} (a cached
     * query's matched tables): the steps that bind {@code $this} by walking tables walk these, in
     * this order, instead of the component index; a result whose {@code $this} was bound another
     * way is kept only when its table is among them. No effect on a plan without {@code $this}.
     */
    public void restrictThis(List<Table> tables) {
        this.thisTables = List.copyOf(tables);
        this.thisSet = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        this.thisSet.addAll(tables);
    }

    /** Runs the plan, passing every result to {@code sink} until it returns false. */
    public void run(Sink sink) {
        this.sink = sink;
        this.counting = false;
        start();
    }

    /**
     * Runs the plan table by table: like {@link #run}, except that a top-level generator of
     * {@code $this} the planner marked row-independent (a table walk whose later steps read only
     * the table's type) yields one result per table and later-step match, standing for all the
     * table's rows ({@link Bindings#batchRows()}); sparse marker tables and transitive walks may
     * yield runs of rows ({@link Bindings#batchOffset()}, {@link #rowRuns}). Other results are
     * single rows.
     */
    public void runTables(Sink sink) {
        this.sink = sink;
        this.counting = false;
        this.batching = true;
        start();
    }

    /**
     * Runs one chunk of a table-by-table run ({@link #runTables}): when the first step walks
     * tables (a {@code SELECT} with a variable source, {@code TRANS_ALL} or {@code EACH}), chunk
     * {@code i} is the part of the run below the first step's {@code i}-th table; otherwise
     * chunk 0 is the whole run. Lets a pull iterator stop between chunks and resume; the world
     * must not change between chunks (the table lists are read again).
     *
     * @return the number of chunks of the run (at least 1)
     */
    public int runChunk(int i, Sink sink) {
        this.chunk = i;
        this.chunks = 1;
        runTables(sink);
        return chunks;
    }

    /** First table index a generator walks: all, or, for the first step of a chunked run, its chunk's table. */
    int walkStart(Step s, int size) {
        if (chunk < 0 || s.id() != chunkStep) {
            return 0;
        }
        chunks = Math.max(1, size);
        return Math.min(chunk, size);
    }

    /** End (exclusive) of the table indices a generator walks ({@link #walkStart}). */
    int walkEnd(Step s, int size) {
        return chunk < 0 || s.id() != chunkStep ? size : Math.min(chunk + 1, size);
    }

    /**
     * True when a row-independent generator handles a table at once: counting (its first row's
     * results times its row count) or, in a table-by-table run, yielding whole tables of $this.
     */
    boolean wholeTable(Step s, int slot) {
        return s.rowIndependent() && (counting || (batching && slot == 0));
    }

    /**
     * True when a top-level step about to bind {@code slot} may hand out runs of rows of one table
     * as one result ({@code TRANS_DOWN}): counting, or {@code $this} in a table-at-a-time run, and
     * no later step reads more of the slot than its table type ({@link MarkerSafety}).
     */
    boolean rowRuns(Step s, int slot) {
        return (counting || (batching && slot == 0)) && markerSafe[s.id()] && b.values[slot] == 0;
    }

    /**
     * The lookup scratch of step {@code s} ({@link Located}), taken on first use in a run ({@link Located#take}: the
     * thread's spare when there is one) and given back when the run ends ({@link #start}): a step nested
     * below another has its own.
     */
    Located located(Step s) {
        if (located == null) {
            located = new Located[next.length];
        }
        Located l = located[s.id()];
        if (l == null) {
            l = Located.take();
            located[s.id()] = l;
        }
        return l;
    }

    /** Gives the run's {@link Located} scratch back ({@link Located#release}). */
    private void releaseLocated() {
        if (located == null) {
            return;
        }
        for (int i = 0; i < located.length; i++) {
            if (located[i] != null) {
                Located.release(located[i]);
                located[i] = null;
            }
        }
    }

    /** True when some step of the plan has the variable of {@code slot} as its source ({@link Located#sourceSlots}). */
    boolean sourceSlot(int slot) {
        return sourceSlots[slot];
    }

    /**
     * True when a generator handling whole tables ({@link #wholeTable}) may do so for {@code tb}:
     * it holds no sparse marker, or no later step reads more than the generated variable's table
     * type ({@link MarkerSafety}).
     */
    boolean batchable(Step s, Table tb) {
        return markerSafe[s.id()] || !Types.hasMarker(tb.type());
    }

    /**
     * Binds row {@code offset} of {@code tb}, standing for rows {@code offset} to
     * {@code offset + n - 1} ({@link #wholeTable}); returns the multiplier to give back to
     * {@link #endRows}.
     */
    long startRows(int slot, Table tb, int offset, int n) {
        return startRows(slot, tb, offset, n, tb.entity(offset), null);
    }

    /**
     * {@link #startRows(int, Table, int, int)} whose rows' entities are known ({@code first}, and
     * {@code entities[i]} that of row {@code offset + i} unless null: {@link Bindings#batchEntities()}),
     * not read from the table.
     */
    long startRows(int slot, Table tb, int offset, int n, long first, long[] entities) {
        long saved = mult;
        bindSource(slot, first, tb, offset);
        if (counting) {
            mult *= n;
        } else {
            b.batchRows = n;
            b.batchOffset = offset;
            b.batchEntities = entities;
        }
        return saved;
    }

    /** Ends a batch of {@link #startRows}: unbinds the slot, forgets the batch and the per-row field ids. */
    void endRows(int slot, long savedMult) {
        b.values[slot] = 0;
        b.batchRows = 0;
        b.batchOffset = 0;
        b.batchEntities = null;
        mult = savedMult;
        java.util.Arrays.fill(b.rowIds, null);
    }

    /**
     * Counts the results without building them. Generator steps marked row-independent by the
     * planner count a whole table at once (results of its first row times its row count).
     */
    public long count() {
        this.counting = true;
        this.count = 0;
        this.mult = 1;
        start();
        return count;
    }

    private void start() {
        if (!plan.steps().isEmpty()) {
            try {
                exec(plan.steps().get(0));
            } finally {
                releaseLocated();
            }
        }
    }

    private boolean yield() {
        if (thisSet != null && !thisInTables()) {
            return true;
        }
        if (counting) {
            count += mult;
            return true;
        }
        return sink.accept(b);
    }

    /** With {@link #restrictThis}: the bound {@code $this} lies in one of the tables (or the plan has no $this). */
    private boolean thisInTables() {
        if (!plan.hasThis()) {
            return true;
        }
        long e = b.values[0];
        Table t = b.tables[0];
        int row = b.rows[0];
        if (t == null || row < 0 || row >= t.count() || t.entity(row) != e) {
            t = e != 0 && world.isAlive(e) ? world.tableAccess().table(e) : null;
        }
        return thisSet.contains(t);
    }

    /** The tables a table walk binding {@code slot} visits: the restriction for $this, else {@code all}. */
    List<Table> walked(int slot, List<Table> all) {
        return slot == 0 && thisTables != null ? thisTables : all;
    }

    // ------------------------------------------------------------------ continuation graph

    void link(List<Step> chain, Cont end) {
        for (int i = 0; i < chain.size(); i++) {
            Step s = chain.get(i);
            markDead(s);
            next[s.id()] = i + 1 < chain.size() ? stepCont(chain.get(i + 1)) : end;
            following[s.id()] = i + 1 < chain.size() ? chain.get(i + 1) : null;
            linkChildren(s);
        }
    }

    /** The step that {@code s}'s continuation runs, or null when it ends a chain or was linked otherwise. */
    Step following(Step s) {
        return following[s.id()];
    }

    /** True when a fixed element of {@code s} was deleted after the query was created ({@link #markDead}): it matches nothing. */
    boolean dead(Step s) {
        return deadConstant[s.id()];
    }

    private Cont stepCont(Step s) {
        return () -> exec(s);
    }

    void linkChildren(Step s) {
        if (s.inner() != null) {
            markDead(s.inner());
        }
        for (Step a : s.alternatives()) {
            markDead(a);
        }
        for (Step c : s.checks()) {
            markDead(c);
        }
        switch (s.kind()) {
            case NOT:
                next[s.inner().id()] = FOUND;
                break;
            case OPTIONAL:
                next[s.inner().id()] = () -> {
                    flag[s.id()] = true;
                    return next[s.id()].go();
                };
                break;
            case OR:
                for (int i = 0; i < s.alternatives().size(); i++) {
                    final int alt = i;
                    next[s.alternatives().get(i).id()] = () -> {
                        for (int j = 0; j < alt && !s.checks().isEmpty(); j++) {
                            if (!exec(s.checks().get(j))) {
                                return true; // an earlier alternative matches this source
                            }
                        }
                        flag[s.id()] = true;
                        return next[s.id()].go();
                    };
                }
                for (Step c : s.checks()) {
                    next[c.id()] = FOUND;
                }
                break;
            case NOT_SCOPE:
                link(s.scope(), FOUND);
                break;
            case AND_FROM:
            case OR_FROM:
            case NOT_FROM:
                from.link(s);
                break;
            default:
                break;
        }
    }

    // ------------------------------------------------------------------ dispatch

    /**
     * Runs step {@code s} under the current bindings. Kept short (the id terms' dispatch here, the
     * other kinds in {@link #execOther}, the unbound-requirement and blocked cases out of line), so
     * that the JIT inlines it into the continuation that calls it: it is on the path of every
     * result (RG-1 join: once per located row, where a 446-byte exec was too large to inline).
     */
    boolean exec(Step s) {
        if (s.requires().length != 0 && !requiresBound(s)) {
            unsetField(s.field());
            return next[s.id()].go();
        }
        if (blocked(s)) {
            return true;
        }
        switch (s.kind()) {
            case SELECT: return s.term().inherit().none() ? idTerms.selectOwn(s) : inheritance.select(s);
            case WITH: return s.term().inherit().none() ? idTerms.with(s) : inheritance.with(s);
            default: return execOther(s);
        }
    }

    /** True when every slot {@code s} requires is bound (else the step is skipped, its field unset). */
    private boolean requiresBound(Step s) {
        for (int slot : s.requires()) {
            if (b.values[slot] == 0) {
                return false;
            }
        }
        return true;
    }

    /** {@link #exec} of the kinds other than the id terms' SELECT and WITH. */
    private boolean execOther(Step s) {
        switch (s.kind()) {
            case TRANS_DOWN: return transitive.down(s);
            case TRANS_UP: return transitive.up(s);
            case TRANS_ALL: return transitive.all(s);
            case TRANS_TEST: return transitive.test(s);
            case UP_SELECT: return up.select(s);
            case UP_WITH: return up.with(s);
            case PRED_EQ: return predicates.eq(s);
            case PRED_NEQ: return predicates.neq(s);
            case PRED_MATCH: return predicates.match(s);
            case NOT: return not(s);
            case OPTIONAL: return optional(s);
            case OR: return or(s);
            case NOT_SCOPE: return notScope(s);
            case EACH: return each.each(s);
            case THIS_SET: return each.thisSet(s);
            case MEMBER_SELECT: return members.select(s);
            case MEMBER_WITH: return members.with(s);
            case AND_FROM: return from.and(s);
            case OR_FROM: return from.or(s);
            case NOT_FROM: return from.not(s);
            default: throw new IllegalStateException("unknown op " + s.kind());
        }
    }

    // ------------------------------------------------------------------ emitting matched ids

    /**
     * True when {@code s} is the step whose walk this run splits and the run is a chunk past the
     * first: a pass beside the walk (inherited pairs) runs in the first chunk only.
     */
    boolean laterChunk(Step s) {
        return chunk > 0 && s.id() == chunkStep;
    }

    /**
     * {@link #emitAll} with the source slot bound to {@code e} at {@code row} of {@code tb} for the
     * duration, then unbound again (the row-by-row walks of the term families).
     */
    boolean emitAllAt(Step s, ResolvedTerm t, LongArrayList m, int slot, long e, Table tb, int row, Cont k) {
        bindSource(slot, e, tb, row);
        boolean r = emitAll(s, t, m, e, k);
        b.values[slot] = 0;
        return r;
    }

    boolean emitAll(Step s, ResolvedTerm t, LongArrayList m, long src, Cont k) {
        for (int i = 0, n = m.size(); i < n; i++) {
            if (!emit(s, t, m.getLong(i), src, k)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Binds the term's first/second variables from a matched id, writes the field, continues. A
     * pair term's binding is {@link #emitPair}'s, so that this stays short enough to inline where a
     * step emits once per row (an id term on a located variable: RG-1 join).
     */
    boolean emit(Step s, ResolvedTerm t, long id, long src, Cont k) {
        if (t.second() != null) {
            return emitPair(s, t, id, src, k);
        }
        int fs = -1;
        long reported = id;
        if (t.first().isVar()) {
            int r = bindOrCompare(t.first().slot(), id);
            if (r == FAIL) {
                return true;
            }
            fs = r;
        }
        if (t.first().kind() == Operand.Kind.ANY) {
            reported = Ids.WILDCARD;
        }
        setField(s.field(), reported, src);
        boolean r = k.go();
        unbind(fs);
        return r;
    }

    /** {@link #emit} of a pair term: binds its first and second variables from the pair {@code id}. */
    private boolean emitPair(Step s, ResolvedTerm t, long id, long src, Cont k) {
        int fs = -1, ss = -1;
        long reported = id;
        if (t.first().isVar()) {
            long v = world.entityOfIndex(Ids.first(id));
            int r = bindOrCompare(t.first().slot(), v);
            if (r == FAIL) {
                return true;
            }
            fs = r;
        }
        if (t.second().isVar()) {
            long v = world.entityOfIndex(Ids.second(id));
            int r = bindOrCompare(t.second().slot(), v);
            if (r == FAIL) {
                unbind(fs);
                return true;
            }
            ss = r;
        }
        if (t.first().kind() == Operand.Kind.ANY || t.second().kind() == Operand.Kind.ANY) {
            reported = Ids.pairOfIndices(t.first().kind() == Operand.Kind.ANY ? Ids.WILDCARD_INDEX : Ids.first(id),
                t.second().kind() == Operand.Kind.ANY ? Ids.WILDCARD_INDEX : Ids.second(id));
        }
        setField(s.field(), reported, src);
        boolean r = k.go();
        unbind(ss);
        unbind(fs);
        return r;
    }

    // ------------------------------------------------------------------ operators

    /** {@code !term}: continues once when the inner term has no match (QS-07). */
    private boolean not(Step s) {
        Step in = s.inner();
        if (in.term() != null && in.term().source() != null && in.term().source().kind() == Operand.Kind.LOOKUP
            && sourceValue(in.term().source()) == 0) {
            return true; // a failed lookup makes the whole term false (QS-22)
        }
        if (!exec(in)) {
            return true;
        }
        unsetField(s.field());
        return next[s.id()].go();
    }

    /** {@code ?term}: the inner matches, or one result with the field unset (QS-08). */
    private boolean optional(Step s) {
        flag[s.id()] = false;
        if (!exec(s.inner())) {
            return false;
        }
        if (!flag[s.id()]) {
            unsetField(s.field());
            return next[s.id()].go();
        }
        return true;
    }

    /** {@code a || b}: per source, the matches of the first alternative that has any (QS-10). */
    private boolean or(Step s) {
        flag[s.id()] = false;
        for (Step alt : s.alternatives()) {
            if (!exec(alt)) {
                return false;
            }
            if (flag[s.id()] && s.checks().isEmpty()) {
                return true;
            }
        }
        return true;
    }

    /** {@code !{ ... }}: continues once when the scope has no solution (QS-21). */
    private boolean notScope(Step s) {
        if (!exec(s.scope().get(0))) {
            return true;
        }
        unsetField(s.field());
        return next[s.id()].go();
    }

    // ------------------------------------------------------------------ bindings

    /** The entity an element stands for now: a constant, a bound variable, or 0 (any). */
    long value(Operand o) {
        switch (o.kind()) {
            case CONST: return o.entity();
            case VAR: return b.values[o.slot()];
            default: return 0;
        }
    }

    /** The source entity, resolving a lookup variable ($this.child); 0 when unknown. */
    long sourceValue(Operand o) {
        return o.kind() == Operand.Kind.LOOKUP ? lookupValue(o) : value(o);
    }

    /** {@link #sourceValue} of a lookup variable: the entity named {@code $base.lookup}, 0 when none. */
    private long lookupValue(Operand o) {
        long base = b.values[o.slot()];
        if (base == 0 || !world.isAlive(base)) {
            return 0;
        }
        return world.lookup(world.path(base) + "." + o.lookup());
    }

    Table tableOf(Operand o, long e) {
        if (o.isVar()) {
            Table t = b.tables[o.slot()];
            if (t != null) {
                return t;
            }
        }
        return world.isAlive(e) ? world.tableAccess().table(e) : null;
    }

    void bindSource(int slot, long e, Table tb, int row) {
        b.values[slot] = e;
        b.tables[slot] = tb;
        b.rows[slot] = row;
    }

    /** Binds an unbound slot (returns the slot) or compares a bound one (returns -2 or FAIL). */
    int bindOrCompare(int slot, long v) {
        long cur = b.values[slot];
        if (cur == 0) {
            if (v == 0) {
                return FAIL;
            }
            b.values[slot] = v;
            b.tables[slot] = null;
            return slot;
        }
        return cur == v ? -2 : FAIL;
    }

    void unbind(int r) {
        if (r >= 0) {
            b.values[r] = 0;
            b.tables[r] = null;
        }
    }

    void setField(int f, long id, long src) {
        if (f >= 0) {
            b.fieldIds[f] = id;
            b.fieldSources[f] = src;
            b.fieldSet[f] = true;
        }
    }

    void unsetField(int f) {
        if (f >= 0) {
            b.fieldSet[f] = false;
        }
    }

    /**
     * The step matches nothing: a fixed element was deleted, or its source is a skipped prefab
     * ({@link #skippedSource}). Kept out of {@link #exec} so that exec stays small: it is on the
     * stack once per step of a result, and long queries must not overflow it (QueryFuzzTest).
     */
    private boolean blocked(Step s) {
        return deadConstant[s.id()] || (skippable && skippedSource(s));
    }

    /**
     * True when an id term's source is a variable (or lookup) already bound to a Prefab or Disabled
     * entity the query does not ask for: such a source never matches, whichever step bound it, so
     * the answer does not depend on the planner's term order (QS-47). Fixed sources may be
     * prefabs; the owners found through up traversal or IsA inheritance too.
     */
    private boolean skippedSource(Step s) {
        switch (s.kind()) {
            case SELECT: case WITH: case TRANS_DOWN: case TRANS_UP: case TRANS_ALL: case TRANS_TEST:
            case UP_SELECT: case UP_WITH: case MEMBER_SELECT: case MEMBER_WITH:
                break;
            default:
                return false;
        }
        Operand src = s.term().source();
        if (src == null || !(src.isVar() || src.kind() == Operand.Kind.LOOKUP)) {
            return false;
        }
        long e = sourceValue(src);
        if (e == 0 || !world.isAlive(e)) {
            return false;
        }
        return skip(tableOf(src, e));
    }

    boolean skip(Table tb) {
        return skippable && ((tb.isPrefab() && !plan.matchPrefab())
            || ((tb.isDisabled() || tb.isToggleCompanion()) && !plan.matchDisabled()));
    }

}
