package dev.quiver.query;

import dev.quiver.query.engine.Bindings;
import dev.quiver.query.engine.Evaluator;
import dev.quiver.query.parse.QueryAst;
import dev.quiver.query.parse.QueryParser;
import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.Plan;
import dev.quiver.query.plan.Planner;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A query in the Flecs v4 Query Language, compiled for one world (FEATURES.md sections 8 and 9).
 *
 * <p>{@link #parse(World, String)} runs the stages in order: parse ({@link QueryParser}, text to
 * terms), validate and compile ({@link Planner}: names resolved, traits read, terms ordered, one
 * operation per term) and, per call to {@link #count()}, {@link #forEach(Consumer)} or
 * {@link #rows(int)}, evaluate ({@link Evaluator}). Like an uncached Flecs query, the plan reflects
 * the relationship traits at creation; each evaluation reads the current world.
 *
 * <p>Supported now: terms {@code C}, {@code (R, T)}, {@code C(src)}, {@code R(src, T)} with
 * entities, dotted paths, numeric ids, {@code $variables} in any position, {@code $this},
 * {@code *}, {@code _} and the singleton {@code $}; operators {@code !}, {@code ?} and
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
 * a fixed target or source; for a variable target only when an earlier written term bound the
 * source, or else for sources that have an R pair. For a transitive term the field id is the pair
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
 * {@link QueryValidationException} (conformance NOTES K13); {@link dev.quiver.query.cache.CachedQuery}
 * accepts them, with {@code groupBy} and {@code orderBy}. {@link dev.quiver.query.builder.QueryBuilder}
 * builds the same queries by calls ({@link #of(World, QueryAst)}). IsA component inheritance and the
 * *From operators raise {@link UnsupportedQueryException}.
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
     * This query with variable {@code $name} set to {@code entity} before evaluation (Flecs v4
     * iterator variables): every result has {@code $name = entity}, and the plan reads it as bound
     * from the start instead of enumerating it, so {@code R($x, $y)} with {@code $x} set walks from
     * that entity only. Use it rather than pasting a name into the query text. A query is
     * immutable: this returns a new one (re-planned); setting the same variable again replaces
     * its value.
     *
     * @param name   a named variable of the query, with or without the leading {@code $}
     * @param entity an alive entity
     * @throws QueryVariableException when the query has no such variable, it is {@code $this} or
     *                                anonymous, or the entity is not alive
     */
    public Query set(String name, long entity) {
        String n = name.startsWith("$") ? name.substring(1) : name;
        if (!world.isAlive(entity)) {
            throw new QueryVariableException("cannot set $" + n + " to " + world.idToString(entity)
                    + ": it is not an alive entity", n);
        }
        var names = new ArrayList<>(presetNames);
        long[] values;
        int at = names.indexOf(n);
        if (at >= 0) {
            values = presetValues.clone();
        } else {
            names.add(n);
            values = java.util.Arrays.copyOf(presetValues, presetValues.length + 1);
            at = names.size() - 1;
        }
        values[at] = entity;
        Plan p = Planner.plan(world, ast, names);
        return new Query(world, ast, p, List.copyOf(names), values);
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
        return new Evaluator(world, plan, presetValues).count();
    }

    /** Calls {@code action} with every result, in evaluation order (deterministic for a given world state). */
    public void forEach(Consumer<QueryRow> action) {
        new Evaluator(world, plan, presetValues).run(b -> {
            action.accept(row(b));
            return true;
        });
    }

    /**
     * Calls {@code action} with every result whose {@code $this} entity lies in one of
     * {@code thisTables}, walking those tables in the given order where the plan walks tables for
     * {@code $this} (the cached queries' iteration, {@link dev.quiver.query.cache.CachedQuery}). A
     * query without {@code $this} ignores the restriction.
     */
    public void forEachIn(List<Table> thisTables, Consumer<QueryRow> action) {
        Evaluator ev = new Evaluator(world, plan, presetValues);
        ev.restrictThis(thisTables);
        ev.run(b -> {
            action.accept(row(b));
            return true;
        });
    }

    /** Number of results whose {@code $this} lies in one of {@code thisTables} (see {@link #forEachIn}). */
    public long countIn(List<Table> thisTables) {
        Evaluator ev = new Evaluator(world, plan, presetValues);
        ev.restrictThis(thisTables);
        return ev.count();
    }

    /** The compiled plan (read by the cached queries to find the terms a table's type decides). */
    public Plan compiledPlan() {
        return plan;
    }

    /**
     * The results as a list.
     *
     * @param limit maximum number of rows; negative for all
     */
    public List<QueryRow> rows(int limit) {
        List<QueryRow> out = new ArrayList<>();
        if (limit == 0) {
            return out;
        }
        new Evaluator(world, plan, presetValues).run(b -> {
            out.add(row(b));
            return limit < 0 || out.size() < limit;
        });
        return out;
    }

    private QueryRow row(Bindings b) {
        int[] slots = plan.variableSlots();
        int nv = slots.length, n = plan.fieldCount();
        long[] data = new long[QueryRow.dataLength(nv, n)];
        for (int i = 0; i < nv; i++) {
            data[i] = b.value(slots[i]);
        }
        for (int f = 0; f < n; f++) {
            data[nv + f] = b.fieldId(f);
            data[nv + n + f] = b.fieldSource(f);
            if (b.fieldSet(f)) {
                data[nv + 2 * n + (f >>> 6)] |= 1L << f;
            }
        }
        long thisEntity = plan.hasThis() ? b.value(0) : 0;
        return new QueryRow(plan.variableNames(), thisEntity, plan.hasThis() ? b.table(0) : null, b.row(0), n, data);
    }

    @Override
    public String toString() {
        return "Query[" + ast.text() + "]";
    }
}
