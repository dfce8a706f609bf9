package dev.quiver.query.builder;

import dev.quiver.query.Query;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.query.parse.InOut;
import dev.quiver.query.parse.Operator;
import dev.quiver.query.parse.Predicate;
import dev.quiver.query.parse.QueryAst;
import dev.quiver.query.parse.QueryParser;
import dev.quiver.query.parse.Term;
import dev.quiver.query.parse.TermRef;
import dev.quiver.query.parse.Traversal;
import dev.quiver.storage.World;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Builds a query from calls instead of text (FEATURES.md QL-24; the Flecs v4 C++ {@code query_builder}
 * adapted to Java). It produces the parser's AST ({@link QueryAst}), and {@link #build(World)} gives a
 * {@link Query} with the canonical text, plan and results of the equivalent query text:
 *
 * <pre>{@code
 * Query q = new QueryBuilder()
 *     .with("Position")                         // Position
 *     .with("Likes", "$x")                      // (Likes, $x)
 *     .with("Transform").up()                   // Transform($this|up)
 *     .term().first("Eats").src("$x").second("*")   // Eats($x,*)
 *     .without("Dead")                          // !Dead
 *     .with("A").or().with("B")                 // A || B
 *     .scopeOpen().with("C").with("D").scopeClose() // !{C, D}
 *     .build(world);
 * }</pre>
 *
 * <p>Each term-starting call ({@link #with}, {@link #without}, {@link #term}, {@link #andFrom},
 * the equality calls, {@link #expr}, {@link #scopeOpen}) starts a new term; the other calls modify
 * the current term: its operator ({@link #and}, {@link #or}, {@link #not}, {@link #optional}), its
 * access modifier ({@link #in}, {@link #out}, {@link #inout}, {@link #none}, {@link #filter}) and
 * its elements. Element calls ({@link #first}, {@link #second}, {@link #src}) set an element and
 * make it the current element; {@link #var}, {@link #self}, {@link #up}, {@link #cascade},
 * {@link #desc} and {@link #parent} apply to the current element (the source after
 * {@link #with}). Elements are written as in the language: names and paths, numeric ids,
 * {@code $variables}, {@code *}, {@code _} ({@link #singleton()} names a component as its own source).
 *
 * <p>{@code a.or().with(b)} joins the current term and the next into an Or chain ({@code a || b},
 * v4 convention: every term of a chain but the last carries {@link Operator#OR}).
 * {@link #scopeOpen()} opens a Not scope {@code !{ ... }}, the only scope of the language.
 *
 * <p>Bad use raises {@link QueryBuilderException} at the offending call (a modifier before any
 * term, an element that is not one element, a second operator on a term, {@code scopeClose()}
 * without an open scope) or at {@link #ast()}/{@link #build(World)} (a term without an id, an
 * unclosed or empty scope, an Or chain without a next term or with a Not/Optional term). A query
 * starting with a scope raises {@link UnsupportedQueryException}, as the parser does. Names are
 * resolved by {@link #build(World)} with the parser's errors ({@code UnknownQueryNameException},
 * {@code QueryValidationException}, ...), whose columns point into the canonical text.
 * Not thread-safe; a builder can build any number of queries.
 */
public final class QueryBuilder {

    /** A term under construction. */
    private static final class Draft {
        Operator oper = Operator.AND;
        InOut inout = InOut.DEFAULT;
        TermRef first;
        TermRef second;
        TermRef source = TermRef.implicitThis(Traversal.NONE);
        Predicate predicate;
        List<Draft> scope;
        /** A finished term from {@link #expr}, taken as is. */
        Term given;
    }

    private final List<Draft> top = new ArrayList<>();
    /** The open scopes, innermost first; each holds its terms. */
    private final Deque<Draft> scopes = new ArrayDeque<>();
    private Draft current;
    private Elements.Place cursor = Elements.Place.SOURCE;

    /** An empty builder. */
    public QueryBuilder() {
    }

    // ------------------------------------------------------------------ terms

    /** Starts a term on id {@code id} ({@code Position}, {@code $C}, {@code *}, {@code 100}). */
    public QueryBuilder with(String id) {
        TermRef f = Elements.parse(id, Elements.Place.FIRST, callName("with(\"" + id + "\")"));
        Draft d = newTerm();
        d.first = f;
        cursor = Elements.Place.SOURCE;
        return this;
    }

    /** Starts a term on entity id {@code id}, written as its number (QL-02). */
    public QueryBuilder with(long id) {
        return with(Long.toUnsignedString(id));
    }

    /** Starts a pair term {@code (first, second)} ({@code (Likes, $x)}, {@code (ChildOf, *)}). */
    public QueryBuilder with(String first, String second) {
        String what = callName("with(\"" + first + "\", \"" + second + "\")");
        TermRef f = Elements.parse(first, Elements.Place.FIRST, what);
        TermRef s = Elements.parse(second, Elements.Place.SECOND, what);
        Draft d = newTerm();
        d.first = f;
        d.second = s;
        cursor = Elements.Place.SOURCE;
        return this;
    }

    /** Starts a pair term on entity ids, written as numbers. */
    public QueryBuilder with(long first, long second) {
        return with(Long.toUnsignedString(first), Long.toUnsignedString(second));
    }

    /** {@code !id}: starts a term that must not match. */
    public QueryBuilder without(String id) {
        return with(id).not();
    }

    /** {@code !(first, second)}. */
    public QueryBuilder without(String first, String second) {
        return with(first, second).not();
    }

    /** Starts an empty term, to be given its elements with {@link #first}, {@link #second}, {@link #src}. */
    public QueryBuilder term() {
        newTerm();
        cursor = Elements.Place.FIRST;
        return this;
    }

    /** {@code and | E}: starts a term requiring every id of E's type (QL-13). */
    public QueryBuilder andFrom(String entity) {
        return from(Operator.AND_FROM, entity);
    }

    /** {@code or | E}: starts a term requiring at least one id of E's type (QL-13). */
    public QueryBuilder orFrom(String entity) {
        return from(Operator.OR_FROM, entity);
    }

    /** {@code not | E}: starts a term refusing every id of E's type (QL-13). */
    public QueryBuilder notFrom(String entity) {
        return from(Operator.NOT_FROM, entity);
    }

    private QueryBuilder from(Operator o, String entity) {
        TermRef f = Elements.parse(entity, Elements.Place.FIRST, callName(o.prefix().trim() + "From(\"" + entity + "\")"));
        Draft d = newTerm();
        d.first = f;
        d.oper = o;
        cursor = Elements.Place.FIRST;
        return this;
    }

    /** {@code $v == E}: starts an equality term (QL-12). */
    public QueryBuilder eq(String variable, String entity) {
        return predicate(Predicate.EQ, variable, entity, false);
    }

    /** {@code $v == "name"}: {@code $v} is the entity with that name (QL-20). */
    public QueryBuilder eqName(String variable, String name) {
        return predicate(Predicate.EQ, variable, name, true);
    }

    /** {@code $v != E}. */
    public QueryBuilder neq(String variable, String entity) {
        return predicate(Predicate.NEQ, variable, entity, false);
    }

    /** {@code $v != "name"}. */
    public QueryBuilder neqName(String variable, String name) {
        return predicate(Predicate.NEQ, variable, name, true);
    }

    /** {@code $v ~= "sub"}: the name contains {@code sub} ({@code "!sub"}: does not). */
    public QueryBuilder matchName(String variable, String pattern) {
        return predicate(Predicate.MATCH, variable, pattern, true);
    }

    private QueryBuilder predicate(Predicate p, String variable, String right, boolean string) {
        String what = callName("'" + p.symbol() + "' term");
        TermRef left = Elements.parse(variable, Elements.Place.SOURCE, what);
        if (left.kind() != TermRef.Kind.VARIABLE) {
            throw new QueryBuilderException(what + ": the left side must be a $variable, not '" + variable + "'");
        }
        TermRef r;
        if (string) {
            if (right == null) {
                throw new QueryBuilderException(what + ": null string");
            }
            r = new TermRef(TermRef.Kind.STRING, right, null, Traversal.NONE, 0);
        } else {
            r = Elements.parse(right, Elements.Place.SECOND, what);
            if (r.kind() == TermRef.Kind.WILDCARD || r.kind() == TermRef.Kind.ANY) {
                throw new QueryBuilderException(what + ": the right side cannot be '" + right + "'");
            }
        }
        Draft d = newTerm();
        d.source = left;
        d.second = r;
        d.predicate = p;
        cursor = Elements.Place.SOURCE;
        return this;
    }

    /**
     * Appends the terms of query text (the C++ builder's {@code expr}), for example
     * {@code expr("Position, !Velocity")}; they can be modified like built terms afterwards
     * only through the calls that start new terms.
     *
     * @throws dev.quiver.query.QuerySyntaxException when the text does not parse
     */
    public QueryBuilder expr(String text) {
        QueryAst ast = QueryParser.parse(text);
        for (Term t : ast.terms()) {
            Draft d = newTerm();
            d.given = t;
        }
        return this;
    }

    /** Opens a Not scope {@code !{ ... }}: the query matches when the terms until {@link #scopeClose()} have no solution (QL-14). */
    public QueryBuilder scopeOpen() {
        if (scopes.size() >= QueryParser.MAX_SCOPE_DEPTH) {
            throw new QueryBuilderException(callName("scopeOpen()") + ": scopes nested deeper than "
                + QueryParser.MAX_SCOPE_DEPTH);
        }
        Draft d = newTerm();
        d.oper = Operator.NOT;
        d.scope = new ArrayList<>();
        scopes.push(d);
        current = null;
        return this;
    }

    /** Closes the innermost scope; the scope becomes the current term. */
    public QueryBuilder scopeClose() {
        if (scopes.isEmpty()) {
            throw new QueryBuilderException(callName("scopeClose()") + ": no open scope");
        }
        Draft s = scopes.peek();
        if (s.scope.isEmpty()) {
            throw new QueryBuilderException(callName("scopeClose()") + ": empty scope");
        }
        scopes.pop();
        current = s;
        return this;
    }

    // ------------------------------------------------------------------ operators and access

    /** The current term must match (the default). */
    public QueryBuilder and() {
        return oper(Operator.AND, "and()");
    }

    /** The current term and the next one form an Or chain {@code a || b}. */
    public QueryBuilder or() {
        return oper(Operator.OR, "or()");
    }

    /** {@code !term}: the current term must not match. */
    public QueryBuilder not() {
        return oper(Operator.NOT, "not()");
    }

    /** {@code ?term}: the current term is optional. */
    public QueryBuilder optional() {
        return oper(Operator.OPTIONAL, "optional()");
    }

    private QueryBuilder oper(Operator o, String call) {
        Draft d = need(call);
        if (d.given != null) {
            throw new QueryBuilderException(callName(call) + ": a term from expr(...) carries its own operator");
        }
        if (d.scope != null) {
            throw new QueryBuilderException(callName(call) + ": a scope is always '!{...}'");
        }
        if (d.oper != Operator.AND && d.oper != o) {
            throw new QueryBuilderException(callName(call) + ": the term already has operator '"
                + (d.oper == Operator.OR ? "||" : d.oper.prefix().trim()) + "'");
        }
        d.oper = o;
        return this;
    }

    /** {@code [in]}. */
    public QueryBuilder in() {
        return inout(InOut.IN, "in()");
    }

    /** {@code [out]}. */
    public QueryBuilder out() {
        return inout(InOut.OUT, "out()");
    }

    /** {@code [inout]}. */
    public QueryBuilder inout() {
        return inout(InOut.INOUT, "inout()");
    }

    /** {@code [none]}: no data access. */
    public QueryBuilder none() {
        return inout(InOut.NONE, "none()");
    }

    /** {@code [filter]}: match only. */
    public QueryBuilder filter() {
        return inout(InOut.FILTER, "filter()");
    }

    private QueryBuilder inout(InOut m, String call) {
        Draft d = need(call);
        if (d.given != null) {
            throw new QueryBuilderException(callName(call) + ": a term from expr(...) carries its own access modifier");
        }
        d.inout = m;
        return this;
    }

    // ------------------------------------------------------------------ elements

    /** Sets the current term's first element (component or relationship) and makes it current. */
    public QueryBuilder first(String e) {
        Draft d = element("first(\"" + e + "\")");
        d.first = keepFlags(d.first, Elements.parse(e, Elements.Place.FIRST, callName("first(\"" + e + "\")")));
        cursor = Elements.Place.FIRST;
        return this;
    }

    /** Makes the first element current (for {@link #var} or flags). */
    public QueryBuilder first() {
        element("first()");
        cursor = Elements.Place.FIRST;
        return this;
    }

    /** Sets the current term's second element (pair target) and makes it current. */
    public QueryBuilder second(String e) {
        Draft d = element("second(\"" + e + "\")");
        d.second = keepFlags(d.second, Elements.parse(e, Elements.Place.SECOND, callName("second(\"" + e + "\")")));
        cursor = Elements.Place.SECOND;
        return this;
    }

    /** Makes the second element current. */
    public QueryBuilder second() {
        element("second()");
        cursor = Elements.Place.SECOND;
        return this;
    }

    /** Sets the current term's source ({@code C(src)}, {@code R(src, T)}) and makes it current. */
    public QueryBuilder src(String e) {
        Draft d = element("src(\"" + e + "\")");
        d.source = keepFlags(d.source, Elements.parse(e, Elements.Place.SOURCE, callName("src(\"" + e + "\")")));
        cursor = Elements.Place.SOURCE;
        return this;
    }

    /** Sets the current term's source to an entity id. */
    public QueryBuilder src(long entity) {
        return src(Long.toUnsignedString(entity));
    }

    /** Makes the source current (for flags: {@code src().up()}). */
    public QueryBuilder src() {
        element("src()");
        cursor = Elements.Place.SOURCE;
        return this;
    }

    /** The current element is variable {@code $name} ({@code name} with or without '$'). */
    public QueryBuilder var(String name) {
        String what = callName("var(\"" + name + "\")");
        Draft d = element("var(\"" + name + "\")");
        String n = name != null && name.startsWith("$") ? name.substring(1) : name;
        TermRef v = Elements.variable(n, what);
        set(d, keepFlags(get(d), v));
        return this;
    }

    /**
     * {@code T(T)}: the current term's source is its component itself (Flecs' builder
     * {@code singleton()}; the text form {@code T($)} was removed in Flecs v4.1, NOTES K10).
     *
     * @throws QueryBuilderException when the term's id is not a named entity
     */
    public QueryBuilder singleton() {
        Draft d = element("singleton()");
        if (d.first == null || d.second != null || d.first.kind() != TermRef.Kind.ENTITY) {
            throw new QueryBuilderException("singleton(): the term's id must be one named component, such as with(\"Input\")");
        }
        d.source = keepFlags(d.source, new TermRef(TermRef.Kind.ENTITY, d.first.name(), null, Traversal.NONE, 0));
        cursor = Elements.Place.SOURCE;
        return this;
    }

    // ------------------------------------------------------------------ traversal flags

    /** {@code |self}: match on the current element itself (on a target: no transitive closure). */
    public QueryBuilder self() {
        return flags("self()", true, false, false, false, null);
    }

    /** {@code |up}: follow ChildOf up from the current element. */
    public QueryBuilder up() {
        return flags("up()", false, true, false, false, null);
    }

    /** {@code |up R}: follow {@code relationship} up (it must be Traversable). */
    public QueryBuilder up(String relationship) {
        return flags("up(\"" + relationship + "\")", false, true, false, false, relationship);
    }

    /** {@code |cascade}: up ChildOf, results ordered by depth (cached queries only, as in Flecs). */
    public QueryBuilder cascade() {
        return flags("cascade()", false, false, true, false, null);
    }

    /** {@code |cascade R}. */
    public QueryBuilder cascade(String relationship) {
        return flags("cascade(\"" + relationship + "\")", false, false, true, false, relationship);
    }

    /** {@code |desc}: with cascade, deepest first. */
    public QueryBuilder desc() {
        return flags("desc()", false, false, false, true, null);
    }

    /** {@code |up ChildOf} (the older {@code parent} spelling). */
    public QueryBuilder parent() {
        return flags("parent()", false, true, false, false, "ChildOf");
    }

    private QueryBuilder flags(String call, boolean self, boolean up, boolean cascade, boolean desc, String rel) {
        Draft d = element(call);
        TermRef r = get(d);
        if (r == null) {
            throw new QueryBuilderException(callName(call) + ": the term has no " + cursor.name().toLowerCase(java.util.Locale.ROOT)
                + " element yet");
        }
        TermRef relRef = null;
        if (rel != null) {
            relRef = Elements.parse(rel, Elements.Place.FIRST, callName(call));
            if (relRef.kind() != TermRef.Kind.ENTITY) {
                throw new QueryBuilderException(callName(call) + ": the relationship must be an entity, not '" + rel + "'");
            }
        }
        Traversal t = r.traversal();
        Traversal n = new Traversal(t.self() || self, t.up() || up, t.cascade() || cascade, t.desc() || desc,
            relRef != null ? relRef : t.relationship(), 0);
        set(d, r.withTraversal(n));
        return this;
    }

    // ------------------------------------------------------------------ result

    /**
     * The terms as the parser's AST; its text is the canonical text and the columns point into it.
     *
     * @throws QueryBuilderException on an incomplete query (see the class comment)
     * @throws UnsupportedQueryException when the query starts with a scope
     */
    public QueryAst ast() {
        if (!scopes.isEmpty()) {
            throw new QueryBuilderException("build: " + scopes.size() + " scope(s) not closed (call scopeClose())");
        }
        if (top.isEmpty()) {
            throw new QueryBuilderException("build: the query has no terms");
        }
        List<Term> terms = Columns.assign(finish(top, ""), 1);
        if (terms.get(0).isScope()) {
            throw new UnsupportedQueryException("query scope as the first term", "!{", 1);
        }
        return new QueryAst(new QueryAst("", terms).canonical(), terms);
    }

    /**
     * The query for a world: {@link Query#of(World, QueryAst)} of {@link #ast()}.
     *
     * @throws QueryBuilderException on an incomplete query
     * @throws dev.quiver.error.BadInputException the errors of {@link Query#parse(World, String)}
     *     for names, traits and unsupported constructs
     */
    public Query build(World world) {
        return Query.of(world, ast());
    }

    /** The canonical text of the terms built so far (for messages; see {@link #ast()}). */
    @Override
    public String toString() {
        try {
            return ast().text();
        } catch (RuntimeException e) {
            return "QueryBuilder[incomplete]";
        }
    }

    private List<Term> finish(List<Draft> drafts, String where) {
        List<Term> out = new ArrayList<>(drafts.size());
        for (int i = 0; i < drafts.size(); i++) {
            Draft d = drafts.get(i);
            String name = "term " + where + (i + 1);
            Term t;
            if (d.given != null) {
                t = d.given;
            } else if (d.scope != null) {
                t = new Term(Operator.NOT, d.inout, null, null, null, null, finish(d.scope, where + (i + 1) + "."), 0);
            } else if (d.predicate != null) {
                t = new Term(d.oper, d.inout, null, d.second, d.source, d.predicate, null, 0);
            } else {
                if (d.first == null) {
                    throw new QueryBuilderException("build: " + name + " has no id (call first(...) after term())");
                }
                t = new Term(d.oper, d.inout, d.first, d.second, d.source, null, null, 0);
            }
            Term prev = out.isEmpty() ? null : out.get(out.size() - 1);
            if (prev != null && prev.oper() == Operator.OR && (t.isScope() || (t.oper() != Operator.AND && t.oper() != Operator.OR))) {
                throw new QueryBuilderException("build: " + name + " follows or() but is a '"
                    + (t.isScope() ? "!{" : t.oper().prefix().trim()) + "' term; an Or chain holds plain terms only");
            }
            out.add(t);
        }
        if (!out.isEmpty() && out.get(out.size() - 1).oper() == Operator.OR) {
            throw new QueryBuilderException("build: term " + where + out.size() + " ends with or() but no term follows it");
        }
        return out;
    }

    private Draft newTerm() {
        Draft d = new Draft();
        if (scopes.isEmpty()) {
            top.add(d);
        } else {
            scopes.peek().scope.add(d);
        }
        current = d;
        return d;
    }

    private Draft need(String call) {
        if (current == null) {
            throw new QueryBuilderException(callName(call) + ": no current term (start one with with(...) or term())");
        }
        return current;
    }

    private Draft element(String call) {
        Draft d = need(call);
        if (d.given != null || d.scope != null) {
            throw new QueryBuilderException(callName(call) + ": the current term is "
                + (d.scope != null ? "a scope" : "from expr(...)") + " and has no elements to set");
        }
        if (d.predicate != null) {
            throw new QueryBuilderException(callName(call) + ": an equality term is complete as given");
        }
        return d;
    }

    private TermRef get(Draft d) {
        switch (cursor) {
            case FIRST: return d.first;
            case SECOND: return d.second;
            default: return d.source;
        }
    }

    private void set(Draft d, TermRef r) {
        switch (cursor) {
            case FIRST: d.first = r; break;
            case SECOND: d.second = r; break;
            default: d.source = r;
        }
    }

    /** {@code r}, keeping the flags already given to the element it replaces. */
    private static TermRef keepFlags(TermRef old, TermRef r) {
        return old == null || old.traversal().isNone() ? r : r.withTraversal(old.traversal());
    }

    /** "term N: call" for messages (N counts terms of the current list, 1-based). */
    private String callName(String call) {
        List<Draft> list = scopes.isEmpty() ? top : scopes.peek().scope;
        int n = current == null ? list.size() : list.indexOf(current) + 1;
        if (n <= 0) {
            n = list.size();
        }
        return (n == 0 ? "" : "term " + n + ": ") + call;
    }
}
