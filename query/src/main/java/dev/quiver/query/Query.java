package dev.quiver.query;

import dev.quiver.query.engine.Evaluator;
import dev.quiver.query.parse.InOut;
import dev.quiver.query.parse.QueryAst;
import dev.quiver.query.parse.QueryParser;
import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.Plan;
import dev.quiver.query.plan.Planner;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.World;
import dev.quiver.query.engine.Bindings;
import dev.quiver.query.engine.RowIds;
import dev.quiver.storage.table.Table;

import dev.quiver.query.iter.QueryIterator;
import dev.quiver.query.iter.ResultShape;
import dev.quiver.query.iter.TableResult;
import dev.quiver.query.iter.WorldChangedException;

import java.util.ArrayList;
import java.util.List;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A query in the Flecs v4 Query Language, compiled for one world (FEATURES.md sections 8 and 9).
 *
 * <p>{@link #parse(World, String)} runs the stages in order: parse ({@link QueryParser}, text to
 * terms), validate and compile ({@link Planner}: names resolved, traits read, terms ordered, one
 * operation per term) and, per call to {@link #count()}, {@link #forEachTable}, {@link #iter()},
 * {@link #each}, {@link #forEach(Consumer)}, {@link #rows(int)} or {@link #stream()}, evaluate
 * ({@link Evaluator}). Like an uncached Flecs query, the plan reflects the relationship traits at
 * creation; each evaluation reads the current world.
 *
 * <p>Iteration is table by table ({@link TableResult}, Flecs v4 iterators): when the term that binds
 * {@code $this} walks the component index and every later term reads only the table's type, one
 * step stands for all rows of a table (or a run of them, {@link TableResult}), with the fields'
 * data readable as columns and, for a wildcard over non-fragmenting pairs, the field's id per row;
 * otherwise steps are single rows. The per-row {@link #each}, {@link #forEach}, {@link #rows} and {@link #stream}
 * are built on it. Writes while a callback iteration runs are refused
 * ({@link dev.quiver.storage.WorldIteratingException}); a pull iteration ({@link #iter()},
 * {@link #stream()}) fails fast with {@link WorldChangedException} after a write. Field values:
 * {@link QueryRow#get(int, Class)}, {@link QueryRow#column(int)} (in place, also for a field whose
 * source is a variable the engine bound with its table), {@link TableResult#column(int)}.
 *
 * <p>Supported now: terms {@code C}, {@code (R, T)}, {@code C(src)}, {@code R(src, T)} with
 * entities, dotted paths, numeric ids, {@code $variables} in any position, {@code $this},
 * {@code *} and {@code _} (the {@code $} source was removed in Flecs v4.1, conformance NOTES K10: a
 * syntax error); operators {@code !}, {@code ?} and
 * {@code ||}; {@code !{ ... }} scopes; {@code ==}, {@code !=}, {@code ~=}; {@code |self} (and
 * plain {@code self} sources); lookup variables {@code $this.child} as sources; the Singleton
 * trait. Prefab and Disabled entities are left out unless the query mentions those tags (QS-47).
 *
 * <p>Transitive relationships (Flecs v4 Transitive trait, QS-26..QS-33) are followed for a fixed
 * or bound target (reverse index walk), a fixed or bound source (forward walk over the table
 * types) and with both unbound (per-table closures), with set semantics: each (source, target)
 * once, however many paths lead there, and walks end on cycles. An entity is its own ancestor
 * only on a cycle. {@code (R, *)} follows the chain like a variable; {@code (R, *|self)} and
 * {@code (R, _)} do not (QS-30). Reflexive (QS-34, conformance NOTES K4) adds R(x, x): always for
 * a fixed target or source; for a variable or {@code *} target (K3: {@code *} follows the chain
 * like a variable) only when an earlier written term bound the source or the target, or else for
 * sources that have an R pair. For a transitive term the field id is the pair
 * (R, target) (Flecs reports the first pair of the path when $this was unbound; see K1).
 * {@code R($x, $x)} on an acyclic (so also transitive) R is refused, as in Flecs.
 *
 * <p>Upward traversal (QS-40..QS-46): {@code T(up R)} matches a source when T is on an entity
 * reached by following R up from it, one or more steps (depth-first over several targets, first
 * target's chain first; the nearest owner is the field's source); {@code T(self|up R)} tries the
 * source first; {@code up} alone follows ChildOf ({@code parent} is an alias). R must be
 * Traversable (ChildOf, IsA, or a Transitive relationship), else {@link QueryValidationException};
 * {@code up IsA} needs a component with {@code (OnInstantiate, Inherit)}. {@code cascade} and
 * {@code desc} order by depth, which Flecs allows only on cached queries: they raise
 * {@link QueryValidationException} (conformance NOTES K13).
 *
 * <p>The *From operators {@code and | E}, {@code or | E}, {@code not | E} match E's own ids (DontInherit
 * ones left out) as And terms, one Or chain or Not terms (QS-24, plan package {@code FromTerms}); a
 * query whose E has changed is planned again before it is evaluated. Member-value terms
 * {@code Comp.member(src, T)} compare an entity member of the source's Comp with T, {@code *} or a
 * variable (QS-23, plan package {@code MemberTerms}). Access modifiers are checked and each field's
 * access is computed ({@link #fieldAccess(int)}, QS-25).
 *
 * <p>{@link dev.quiver.query.cache.CachedQuery} accepts {@code cascade} and {@code desc}, with
 * {@code groupBy} and {@code orderBy}; {@link dev.quiver.query.builder.QueryBuilder} builds the same
 * queries by calls ({@link #of(World, QueryAst)}).
 *
 * <p>Errors at creation: {@link QuerySyntaxException} (token and column),
 * {@link UnknownQueryNameException} (name and column), {@link UnsupportedQueryException},
 * {@link QueryValidationException}; all are {@link dev.quiver.error.QuiverException}s. Not thread-safe with respect to world mutation.
 */
public final class Query {
    private final World world;
    private final QueryAst ast;
    private final Plan plan;
    /** Variables set before evaluation (names without {@code $}) and their entities, in {@link #set} order. */
    private final List<String> presetNames;
    private final long[] presetValues;
    /** Built on first iteration ({@link #shape()}). */
    private ResultShape shape;
    /**
     * The world's {@link World#readStamp()} when {@link #plan} was last found current; -1 for
     * never. While it is unchanged, so is the data the plan read, and {@link Plan#current} need not
     * walk the IsA subsets again.
     */
    private volatile long currentAt = -1;

    private Query(World world, QueryAst ast, Plan plan, List<String> presetNames, long[] presetValues) {
        this.world = world;
        this.ast = ast;
        this.plan = plan;
        this.presetNames = presetNames;
        this.presetValues = presetValues;
    }

    /**
     * Parses and compiles a query for a world.
     *
     * @param world the world whose names, traits and data the query uses
     * @param text the query, e.g. {@code (Lexname, noun_animal), !(KindOf, animal_n_01)}
     * @throws QuerySyntaxException on a syntax error
     * @throws UnknownQueryNameException on a name that resolves to no entity
     * @throws UnsupportedQueryException on a construct not evaluated yet
     * @throws QueryValidationException on a query Flecs refuses at creation (traversal of a
     *     non-Traversable relationship, {@code up IsA} on a component without
     *     {@code (OnInstantiate, Inherit)}, {@code desc} without {@code cascade}, {@code cascade})
     */
    public static Query parse(World world, String text) {
        QueryAst ast = QueryParser.parse(text);
        return new Query(world, ast, Planner.plan(world, ast), List.of(), new long[0]);
    }

    /**
     * Compiles an already parsed (or built) query: the same stages as {@link #parse(World, String)}
     * after parsing. Used by {@link dev.quiver.query.builder.QueryBuilder} and the cached queries.
     *
     * @param world the world whose names, traits and data the query uses
     * @param ast the terms; {@link QueryAst#text()} is what {@link #text()} reports
     * @throws UnknownQueryNameException, UnsupportedQueryException, QueryValidationException as
     *     {@link #parse(World, String)}
     */
    public static Query of(World world, QueryAst ast) {
        return new Query(world, ast, Planner.plan(world, ast), List.of(), new long[0]);
    }

    /**
     * Parses and compiles a query with variables set before evaluation, as {@link #set} would set
     * them one by one, except that the query is compiled with them bound from the start: a
     * predicate may read a set variable before any term binds it, so
     * {@code $this != sf, City} with {@code $this} set is answered, while
     * {@link #parse(World, String)} refuses it as Flecs does (the variable is read before a term
     * binds it). The CLI's {@code --var NAME=ENTITY} comes here.
     *
     * @param world     the world whose names, traits and data the query uses
     * @param text      the query
     * @param variables variable names (with or without {@code $}; {@code this} for {@code $this})
     *                  and the alive entities they are set to, in iteration order
     * @throws QueryVariableException as {@link #set}: no such variable, or an entity not alive
     * @throws QuerySyntaxException, UnknownQueryNameException, UnsupportedQueryException,
     *     QueryValidationException as {@link #parse(World, String)}
     */
    public static Query parse(World world, String text, java.util.Map<String, Long> variables) {
        return of(world, QueryParser.parse(text), variables);
    }

    /** {@link #parse(World, String, java.util.Map)} for an already parsed or built query. */
    public static Query of(World world, QueryAst ast, java.util.Map<String, Long> variables) {
        List<String> names = new ArrayList<>();
        long[] values = new long[0];
        for (var v : variables.entrySet()) {
            values = preset(world, names, values, v.getKey(), v.getValue());
        }
        return new Query(world, ast, Planner.plan(world, ast, names), List.copyOf(names), values);
    }

    /**
     * This query with variable {@code $name} set to {@code entity} before evaluation (Flecs v4
     * iterator variables): every result has {@code $name = entity}, and the plan reads it as bound
     * from the start instead of enumerating it, so {@code R($x, $y)} with {@code $x} set walks from
     * that entity only. Use it rather than pasting a name into the query text. A query is
     * immutable: this returns a new one (re-planned); setting the same variable again replaces
     * its value.
     *
     * <p>{@code $this} may be set too (Flecs v4 {@code ecs_iter_set_var(it, 0, e)}): the results
     * are exactly the unset query's results whose {@code $this} is {@code entity}, so a Prefab or
     * Disabled entity gives none unless the query asks for those tags (QS-47), as it would unset.
     * The plan looks the entity's table and row up in the entity index and tests the terms on it
     * ({@code THIS_SET} in {@link #plan()}), without walking tables; a table-at-a-time iteration
     * hands out one table with one row per result.
     *
     * @param name   a named variable of the query or {@code this}, with or without the leading {@code $}
     * @param entity an alive entity
     * @throws QueryVariableException when the query has no such variable (for {@code this}: no
     *                                term outside of a scope reads {@code $this}), it is anonymous,
     *                                or the entity is not alive
     */
    public Query set(String name, long entity) {
        var names = new ArrayList<>(presetNames);
        long[] values = preset(world, names, presetValues, name, entity);
        return new Query(world, ast, Planner.plan(world, ast, names), List.copyOf(names), values);
    }

    /**
     * Sets {@code $name} (with or without the {@code $}) to {@code entity} in a preset list:
     * appends the name to {@code names} when new, and returns a copy of {@code values} with the
     * entity at the name's place ({@link #set}, {@link #of(World, QueryAst, java.util.Map)}).
     *
     * @throws QueryVariableException when the entity is not alive
     */
    private static long[] preset(World world, List<String> names, long[] values, String name, long entity) {
        String n = name.startsWith("$") ? name.substring(1) : name;
        if (!world.isAlive(entity)) {
            throw new QueryVariableException("cannot set $" + n + " to " + world.idToString(entity)
                    + ": it is not an alive entity", n);
        }
        int at = names.indexOf(n);
        if (at < 0) {
            at = names.size();
            names.add(n);
        }
        long[] out = java.util.Arrays.copyOf(values, names.size());
        out[at] = entity;
        return out;
    }

    /** The query text as given. */
    public String text() {
        return ast.text();
    }

    /** The query in canonical form (terms joined by ", ", elements without spaces). */
    public String canonicalText() {
        return ast.canonical();
    }

    /** Named variables other than {@code $this}, in first-appearance order (anonymous and scope-local ones excluded). */
    public List<String> variableNames() {
        return plan.variableNames();
    }

    /** True when the query uses {@code $this} (outside of scopes); rows then carry {@link QueryRow#thisEntity()}. */
    public boolean hasThis() {
        return plan.hasThis();
    }

    /** Number of fields of each row. */
    public int fieldCount() {
        return plan.fieldCount();
    }

    /**
     * The variable that field {@code field}'s term is matched on, for printing sources the way
     * Flecs reports them: {@code "this"} for {@code $this} (written or implicit), the variable's
     * name without {@code $} for a variable source ({@code "p"}, or {@code "_x"} for an anonymous
     * one), and null when the source is not a variable (a fixed entity, {@code _}, or the
     * component itself for a Singleton). For an Or chain, the source of its first alternative.
     *
     * @throws IndexOutOfBoundsException when there is no such field
     */
    public String fieldSourceVariable(int field) {
        if (field < 0 || field >= plan.fieldCount()) {
            throw new IndexOutOfBoundsException("field " + field + " of " + plan.fieldCount());
        }
        for (Step s : plan.steps()) {
            Step found = stepOfField(s, field);
            if (found != null) {
                Operand src = found.term().source();
                return src.isVar() ? plan.slotNames().get(src.slot()) : null;
            }
        }
        return null;
    }

    /**
     * The access of field {@code field} (FEATURES.md QS-25): the modifier written on its term, or the
     * default: {@link InOut#INOUT} for data owned by {@code $this}, {@link InOut#IN} for data read
     * from another source (fixed, variable, {@code up} traversal, IsA-inherited), {@link InOut#NONE}
     * for fields without data (tags, Not, *From and equality terms). Never {@link InOut#DEFAULT}.
     *
     * @throws IndexOutOfBoundsException when there is no such field
     */
    public InOut fieldAccess(int field) {
        if (field < 0 || field >= plan.fieldCount()) {
            throw new IndexOutOfBoundsException("field " + field + " of " + plan.fieldCount());
        }
        return plan.fieldAccess()[field];
    }

    /** The first step (itself, the wrapped step or an Or alternative) that writes the field with a term. */
    private static Step stepOfField(Step s, int field) {
        if (s.field() == field && s.term() != null) {
            return s;
        }
        if (s.inner() != null) {
            Step f = stepOfField(s.inner(), field);
            if (f != null) {
                return f;
            }
        }
        for (Step a : s.alternatives()) {
            Step f = stepOfField(a, field);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    /** The compiled plan as text, one step per line (for diagnostics and tests). */
    public String plan() {
        return plan.toString();
    }

    /**
     * Number of results, without building rows. For example {@code (R, T)} on a transitive R
     * counts the distinct sources, {@code R(S, $x)} the distinct reachable {@code $x}.
     */
    public long count() {
        return new Evaluator(world, current(), presetValues).count();
    }

    /**
     * A pull iteration over the results, one {@link TableResult} (a table's rows, or one row) per
     * step ({@link QueryIterator}: fail-fast when the world is written before it finishes).
     */
    public QueryIterator iter() {
        return new QueryIterator(shape(), new Evaluator(world, current(), presetValues));
    }

    /**
     * Calls {@code visitor} with every step of the iteration, table by table ({@link TableResult}),
     * until it returns false. While it runs the world refuses writes
     * ({@link dev.quiver.storage.WorldIteratingException}, nothing changed), so the tables it walks
     * never move under it; collect changes and apply them afterwards.
     */
    public void forEachTable(Predicate<TableResult> visitor) {
        ResultShape sh = shape();
        Evaluator ev = new Evaluator(world, current(), presetValues);
        world.beginIteration();
        try {
            ev.runTables(b -> visitor.test(TableResult.capture(sh, b)));
        } finally {
            world.endIteration();
        }
    }

    /**
     * Calls {@code visitor} with every result, row by row, until it returns false (built on
     * {@link #forEachTable}: a table's rows come together, and the world refuses writes meanwhile).
     * Rows come table by table in the order of {@link #iter()}: within a table, all rows for one
     * match of the later terms, then all rows for the next (Flecs v4 order). Each row is an object
     * of its own that may be kept ({@link #eachReused} reuses one instead).
     */
    public void each(Predicate<QueryRow> visitor) {
        each(visitor, false);
    }

    /**
     * {@link #each}, in the same order, with one {@link QueryRow} object passed to every call and
     * set to each result in turn, so that nothing is allocated per row (a join's located rows
     * included: RG-1 {@code (Likes, $y), Position($y)}, 10,000 rows, about 220 bytes each with
     * {@link #each}). The row is valid only during the call it is passed to: afterwards it answers
     * for a later result, and once the iteration is over for the last result or for none (a
     * join's row that reads the engine's bindings: every variable 0, every field unset). Keep a
     * result with {@link QueryRow#copy()}, or iterate with {@link #each} when rows are kept.
     */
    public void eachReused(Predicate<QueryRow> visitor) {
        each(visitor, true);
    }

    /** {@link #forEach(Consumer)} with one reused row ({@link #eachReused}: valid only during the call). */
    public void forEachReused(Consumer<QueryRow> action) {
        eachReused(r -> {
            action.accept(r);
            return true;
        });
    }

    /** {@link #each}, with new rows or one reused row ({@link #eachReused}). */
    private void each(Predicate<QueryRow> visitor, boolean reuse) {
        ResultShape sh = shape();
        Evaluator ev = new Evaluator(world, current(), presetValues);
        SingleRows single = new SingleRows(sh, reuse);
        world.beginIteration();
        try {
            // one row (a transitive or per-row match): no table view. Two lambdas, so that the
            // compiled code of one kind of single row never meets the other (a join's located rows
            // after a walk's shared ones made the JIT's code for both start over: RG-1 join)
            if (single.shareable) {
                ev.runTables(b -> plan.hasThis() && b.batchRows() == 0 ? visitor.test(single.sharedRow(b)) : eachStep(sh, b, single, visitor));
            } else {
                ev.runTables(b -> plan.hasThis() && b.batchRows() == 0 ? visitor.test(single.locatedRow(b)) : eachStep(sh, b, single, visitor));
            }
        } finally {
            single.finish();
            world.endIteration();
        }
    }

    /** {@link #each} of a step that is not a single {@code $this} row: a batch of rows, or a result without {@code $this}. */
    private boolean eachStep(ResultShape sh, Bindings b, SingleRows single, Predicate<QueryRow> visitor) {
        return plan.hasThis() ? eachRow(sh, b, single, visitor) : eachRow(TableResult.capture(sh, b), single, visitor);
    }

    /**
     * Passes the rows of one step to {@code visitor}, sharing the step's data: the world refuses
     * writes while {@link #each} runs, so the step stays valid without a check per row.
     */
    private boolean eachRow(TableResult t, SingleRows single, Predicate<QueryRow> visitor) {
        RowGroup g = group(t);
        long[] ents = t.entities();
        int off = t.offset();
        boolean hasThis = plan.hasThis();
        for (int i = 0, n = t.count(); i < n; i++) {
            if (!visitor.test(single.row(g, hasThis ? ents[off + i] : 0, i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@link #eachRow(TableResult, SingleRows, Predicate)} for a batch of {@code $this} rows, straight from the
     * bindings: no step object per batch (a transitive walk hands out about ten rows a batch, RG-1
     * transvar 650,000 batches).
     */
    private boolean eachRow(ResultShape sh, Bindings b, SingleRows single, Predicate<QueryRow> visitor) {
        Table table = b.table(0);
        int off = b.batchOffset();
        RowIds[] rowIds = TableResult.rowIds(b, plan.fieldCount());
        // without per-row ids, the batch's rows share the group of their table and data with the
        // single rows and earlier batches (its row 0 is the table's row 0), else one group of their own
        RowGroup g = rowIds == null ? single.shared(b, table) : null;
        int first = g != null ? off : 0;
        if (g == null) {
            long[] data = TableResult.captureData(sh, b);
            g = single.shareable ? new RowGroup(sh, table, off, data, rowIds, null, null)
                : RowGroup.of(sh, b, table, off, data, rowIds);
        }
        long[] known = b.batchEntities(); // a transitive walk's batch: its entities, the table's rows unread
        long[] ents = known != null ? known : table.entities(off, off + b.batchRows()); // a lazily read table reads just these rows' chunks
        int at = known != null ? 0 : off;
        for (int i = 0, n = b.batchRows(); i < n; i++) {
            if (!visitor.test(single.row(g, ents[at + i], first + i))) {
                return false;
            }
        }
        return true;
    }

    /** Calls {@code action} with every result ({@link #each}). */
    public void forEach(Consumer<QueryRow> action) {
        // one adapter per kind of single row, as each has one lambda per kind: the action's call
        // site in the second meets only the consumers of queries with located sources (a join's),
        // not every caller's, so the JIT can inline a join's consumer instead of giving up on a
        // site shared with the walks' consumers (RG-1: the join's runs came after iter and trans)
        if (SingleRows.shareable(shape())) {
            each(r -> {
                action.accept(r);
                return true;
            });
        } else {
            each(r -> {
                action.accept(r);
                return true;
            });
        }
    }

    /**
     * Calls {@code action} with every result whose {@code $this} entity lies in one of
     * {@code thisTables}, walking those tables in the given order where the plan walks tables for
     * {@code $this} (the cached queries' iteration, {@link dev.quiver.query.cache.CachedQuery}). A
     * query without {@code $this} ignores the restriction.
     */
    public void forEachIn(List<Table> thisTables, Consumer<QueryRow> action) {
        ResultShape sh = shape();
        Evaluator ev = new Evaluator(world, current(), presetValues);
        ev.restrictThis(thisTables);
        ev.run(b -> {
            TableResult t = TableResult.capture(sh, b);
            RowGroup g = group(t);
            for (int i = 0; i < t.count(); i++) {
                action.accept(row(g, t, i));
            }
            return true;
        });
    }

    /** Number of results whose {@code $this} lies in one of {@code thisTables} (see {@link #forEachIn}). */
    public long countIn(List<Table> thisTables) {
        Evaluator ev = new Evaluator(world, current(), presetValues);
        ev.restrictThis(thisTables);
        return ev.count();
    }

    /** The compiled plan (read by the cached queries to find the terms a table's type decides). */
    public Plan compiledPlan() {
        return current();
    }

    /**
     * The results as a list, in {@link #each} order.
     *
     * @param limit maximum number of rows; negative for all
     */
    public List<QueryRow> rows(int limit) {
        List<QueryRow> out = new ArrayList<>();
        if (limit == 0) {
            return out;
        }
        each(r -> {
            out.add(r);
            return limit < 0 || out.size() < limit;
        });
        return out;
    }

    /**
     * This query, or the same query planned again when the data its plan was made from changed
     * ({@link Plan#current}: a *From term's E got other ids, an id got IsA subsets in use). The
     * cached queries keep the result, so that they plan once per change, not once per evaluation.
     *
     * @throws UnknownQueryNameException, UnsupportedQueryException, QueryValidationException as
     *     {@link #parse(World, String)}, when planning again refuses the query now
     */
    public Query refreshed() {
        return planCurrent() ? this : new Query(world, ast, Planner.plan(world, ast, presetNames), presetNames,
            presetValues);
    }

    /** {@link Plan#current}, checked once per {@link World#readStamp()} ({@link #currentAt}). */
    private boolean planCurrent() {
        long stamp = world.readStamp();
        if (stamp >= 0 && stamp == currentAt) {
            return true;
        }
        if (!plan.current(world)) {
            return false;
        }
        currentAt = stamp;
        return true;
    }

    /**
     * The plan to evaluate: this query's, or a new one when the data it was made from changed
     * ({@link Plan#current}: the ids of a *From term's E, FEATURES.md QS-24: E's id list is read
     * when the query is evaluated; the IsA subsets of a component or relationship).
     * Planning again resolves the names again, so it raises the creation errors of
     * {@link #parse} when a name the query uses was deleted meanwhile.
     */
    private Plan current() {
        return planCurrent() ? plan : Planner.plan(world, ast, presetNames);
    }

    /**
     * The results as a sequential, ordered, lazy stream over {@link #iter()}: rows are made as the
     * stream pulls them, so {@code limit} and {@code findFirst} stop the evaluation early. Writing
     * the world before the stream is consumed makes it throw {@link WorldChangedException}.
     * Closing the stream ends the iteration.
     */
    public Stream<QueryRow> stream() {
        QueryIterator it = iter();
        Spliterator<QueryRow> rows = new Spliterators.AbstractSpliterator<>(Long.MAX_VALUE,
                Spliterator.ORDERED | Spliterator.NONNULL) {
            private TableResult current;
            private RowGroup group;
            private int next;

            @Override
            public boolean tryAdvance(Consumer<? super QueryRow> action) {
                while (current == null || next >= current.count()) {
                    if (!it.hasNext()) {
                        return false;
                    }
                    current = it.next();
                    group = group(current);
                    next = 0;
                }
                action.accept(row(group, current, next++));
                return true;
            }
        };
        return StreamSupport.stream(rows, false).onClose(it::close);
    }

    /**
     * The results as the engine finds them one row at a time, without table batches (the
     * reference that tests compare the table-by-table iteration with).
     */
    List<QueryRow> rowsOneByOne() {
        List<QueryRow> out = new ArrayList<>();
        ResultShape sh = shape();
        new Evaluator(world, current(), presetValues).run(b -> {
            TableResult t = TableResult.capture(sh, b);
            RowGroup g = group(t);
            for (int i = 0; i < t.count(); i++) {
                out.add(row(g, t, i));
            }
            return true;
        });
        return out;
    }

    /** What every result of this query shares (built once). */
    private ResultShape shape() {
        ResultShape sh = shape;
        if (sh == null) {
            int n = plan.fieldCount();
            boolean[] thisSourced = new boolean[n];
            for (int f = 0; f < n; f++) {
                for (Step st : plan.steps()) {
                    thisSourced[f] |= thisSourced(st, f);
                }
            }
            int[] sourceSlots = new int[n];
            java.util.Arrays.fill(sourceSlots, -2); // not yet seen
            for (Step st : plan.steps()) {
                sourceSlots(st, sourceSlots);
            }
            for (int f = 0; f < n; f++) {
                sourceSlots[f] = Math.max(sourceSlots[f], -1);
            }
            sh = new ResultShape(world, plan.variableNames(), plan.variableSlots(), n, plan.hasThis(), thisSourced,
                sourceSlots);
            shape = sh;
        }
        return sh;
    }

    /**
     * Records in {@code out} the source slot of each field written by {@code s}, a wrapped step or an
     * Or alternative: the slot when every such term's source is that variable, -1 when they differ
     * or a source is not a variable (-2 in {@code out}: no term seen yet).
     */
    private static void sourceSlots(Step s, int[] out) {
        if (s.field() >= 0 && s.field() < out.length && s.term() != null) {
            Operand src = s.term().source();
            int slot = src != null && src.kind() == Operand.Kind.VAR ? src.slot() : -1;
            int f = s.field();
            out[f] = out[f] == -2 || out[f] == slot ? slot : -1;
        }
        if (s.inner() != null) {
            sourceSlots(s.inner(), out);
        }
        for (Step a : s.alternatives()) {
            sourceSlots(a, out);
        }
    }

    /** True when a step writing {@code field} (the step itself, a wrapped step or an Or alternative) has $this as its source. */
    private static boolean thisSourced(Step s, int field) {
        if (s.field() == field && s.term() != null && s.term().source() != null && s.term().source().kind() == Operand.Kind.VAR
                && s.term().source().slot() == 0) {
            return true;
        }
        if (s.inner() != null && thisSourced(s.inner(), field)) {
            return true;
        }
        for (Step a : s.alternatives()) {
            if (thisSourced(a, field)) {
                return true;
            }
        }
        return false;
    }

    /** The rows of a step share one group (a step made from bindings that are gone: no located sources). */
    private static RowGroup group(TableResult t) {
        return new RowGroup(t.shape(), t.table(), t.offset(), t.sharedData(0), t.sharedRowIds(), null, null);
    }

    /** Row {@code i} of step {@code t} (whose group is {@code g}) as a {@link QueryRow}, sharing the step's data. */
    private QueryRow row(RowGroup g, TableResult t, int i) {
        t.sharedData(i); // checks the row and that the world was not written
        return new QueryRow(g, plan.hasThis() ? t.entities()[t.offset() + i] : 0, i);
    }

    @Override
    public String toString() {
        return "Query[" + ast.text() + "]";
    }
}
