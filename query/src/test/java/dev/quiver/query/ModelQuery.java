package dev.quiver.query;

import dev.quiver.storage.Builtin;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Random queries for {@link WholeLanguageModelTest}: a small syntax tree, written out as Flecs
 * query text for the engine and read directly by {@link BruteForce}.
 *
 * <p>The generator keeps to queries Flecs accepts: a variable is first written in an And term
 * (or bound by {@code ==}, or local to an optional term or a scope) before a Not term or a
 * predicate reads it; the right side of a predicate is bound by an earlier term (conformance
 * NOTES K9); {@code R($x, $x)} is never written for a transitive R (K13); {@code up R} only
 * names Traversable relationships, and {@code up IsA} only the Inherit tag {@code C0}.
 */
final class ModelQuery {
    enum ElKind { CONST, VAR, WILD, ANY }

    /** An element of a term: first or second of a pair, or a plain id. {@code self} is {@code |self}. */
    record El(ElKind kind, long entity, String var, boolean self) {
        static El c(long e) {
            return new El(ElKind.CONST, e, null, false);
        }

        static El v(String name) {
            return new El(ElKind.VAR, 0, name, false);
        }

        static final El WILD = new El(ElKind.WILD, 0, null, false);
        static final El ANY = new El(ElKind.ANY, 0, null, false);
    }

    enum SrcKind { THIS, CONST, VAR, ANY, LOOKUP }

    /** A term's source; {@code THIS} is written implicitly unless {@code explicit}. */
    record Src(SrcKind kind, long entity, String var) {
        static final Src THIS = new Src(SrcKind.THIS, 0, "this");
    }

    enum Trav { NONE, SELF, UP, SELF_UP }

    enum Op { AND, NOT, OPT }

    /** One item of the query: a term, an Or chain, a predicate or a Not scope. */
    interface Item {}

    /**
     * A term; {@code member} names the entity member of a member-value term
     * {@code first.member(src, second)} (first is the component), null for other terms.
     */
    record Term(Op op, El first, El second, Src src, Trav trav, long travRel, String member) implements Item {
        Term(Op op, El first, El second, Src src, Trav trav, long travRel) {
            this(op, first, second, src, trav, travRel, null);
        }
    }

    /** {@code and | E}, {@code or | E} ({@code op} OPT stands for or) and {@code not | E}. */
    record From(Op op, long e) implements Item {
        String word() {
            return op == Op.AND ? "and" : op == Op.NOT ? "not" : "or";
        }
    }

    record Or(List<Term> alts) implements Item {}

    /** {@code $left == right}, {@code $left != right} or {@code $left ~= "text"}. */
    record Pred(String kind, String left, El right, String text) implements Item {}

    record Scope(List<Term> terms) implements Item {}

    final List<Item> items = new ArrayList<>();
    private final ModelWorld mw;

    ModelQuery(ModelWorld mw) {
        this.mw = mw;
    }

    // ------------------------------------------------------------------ text

    String text() {
        StringBuilder sb = new StringBuilder();
        for (Item it : items) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            if (it instanceof Term t) {
                sb.append(term(t));
            } else if (it instanceof Or o) {
                for (int i = 0; i < o.alts().size(); i++) {
                    sb.append(i == 0 ? "" : " || ").append(term(o.alts().get(i)));
                }
            } else if (it instanceof Pred p) {
                sb.append('$').append(p.left()).append(' ').append(p.kind()).append(' ');
                sb.append(p.text() != null ? "\"" + p.text() + "\"" : el(p.right()));
            } else if (it instanceof From f) {
                sb.append(f.word()).append(" | ").append(mw.path(f.e()));
            } else if (it instanceof Scope s) {
                sb.append("!{ ");
                for (int i = 0; i < s.terms().size(); i++) {
                    sb.append(i == 0 ? "" : ", ").append(term(s.terms().get(i)));
                }
                sb.append(" }");
            }
        }
        return sb.toString();
    }

    private String term(Term t) {
        String prefix = t.op() == Op.NOT ? "!" : t.op() == Op.OPT ? "?" : "";
        if (t.member() != null) {
            String src = t.src().kind() == SrcKind.THIS ? "$this" : t.src().kind() == SrcKind.CONST ? mw.path(t.src().entity())
                : t.src().kind() == SrcKind.VAR ? "$" + t.src().var() : "$this.c";
            return prefix + mw.path(t.first().entity()) + "." + t.member() + "(" + src + ", " + el(t.second()) + ")";
        }
        boolean plainThis = t.src().kind() == SrcKind.THIS && t.trav() == Trav.NONE;
        if (plainThis) {
            return prefix + (t.second() == null ? el(t.first()) : "(" + el(t.first()) + ", " + el(t.second()) + ")");
        }
        String src;
        switch (t.src().kind()) {
            case THIS: src = t.trav() == Trav.NONE ? "$this" : ""; break;
            case CONST: src = mw.path(t.src().entity()); break;
            case VAR: src = "$" + t.src().var(); break;
            case ANY: src = "_"; break;
            default: src = "$this.c"; break;
        }
        String rel = t.trav() != Trav.UP && t.trav() != Trav.SELF_UP || t.travRel() == Builtin.CHILD_OF ? "" : " " + mw.path(t.travRel());
        switch (t.trav()) {
            case SELF: src = src.isEmpty() ? "self" : src + "|self"; break;
            case UP: src = src.isEmpty() ? "up" + rel : src + "|up" + rel; break;
            case SELF_UP: src = src.isEmpty() ? "self|up" + rel : src + "|self|up" + rel; break;
            default: break;
        }
        return prefix + el(t.first()) + "(" + src + (t.second() == null ? "" : ", " + el(t.second())) + ")";
    }

    private String el(El e) {
        String s;
        switch (e.kind()) {
            case CONST: s = mw.path(e.entity()); break;
            case VAR: s = "$" + e.var(); break;
            case WILD: s = "*"; break;
            default: s = "_"; break;
        }
        return e.self() ? s + "|self" : s;
    }

    // ------------------------------------------------------------------ generation

    /** A random query; {@code bound} tracks the variables an earlier And term or {@code ==} binds. */
    static ModelQuery random(ModelWorld mw, Random rnd) {
        ModelQuery q = new ModelQuery(mw);
        Set<String> bound = new HashSet<>();
        int n = 1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 5 : 3);
        for (int i = 0; i < n; i++) {
            int k = rnd.nextInt(20);
            Item it;
            if (rnd.nextInt(9) == 0) { // *From: and | E, or | E, not | E
                long e = rnd.nextInt(3) > 0 ? q.pick(mw.kits, rnd) : q.anyEntity(rnd);
                it = new From(new Op[] {Op.AND, Op.OPT, Op.NOT}[rnd.nextInt(3)], e);
            } else if (rnd.nextInt(25) == 0) { // a mention of Prefab or Disabled makes those entities matchable (K8, QS-47)
                long tag = rnd.nextBoolean() ? Builtin.PREFAB : Builtin.DISABLED;
                Op op = new Op[] {Op.AND, Op.NOT, Op.OPT}[rnd.nextInt(3)];
                it = new Term(op, El.c(tag), null, Src.THIS, Trav.NONE, 0);
            } else if (i == 0 && k < 14 || k < 8) {
                it = q.term(rnd, Op.AND, bound, false);
            } else if (k < 11) {
                it = q.term(rnd, Op.NOT, bound, false);
            } else if (k < 14) {
                it = q.term(rnd, Op.OPT, bound, false);
            } else if (k < 16) {
                List<Term> alts = new ArrayList<>();
                int m = 2 + rnd.nextInt(2);
                for (int j = 0; j < m; j++) {
                    alts.add(q.orAlternative(rnd, bound));
                }
                it = new Or(alts);
            } else if (k < 18) {
                it = q.pred(rnd, bound);
                if (it == null) {
                    it = q.term(rnd, Op.AND, bound, false);
                }
            } else {
                List<Term> inner = new ArrayList<>();
                Set<String> local = new HashSet<>(bound);
                local.add("this");
                int m = 1 + rnd.nextInt(2);
                for (int j = 0; j < m; j++) {
                    inner.add(q.term(rnd, j == 0 || rnd.nextBoolean() ? Op.AND : Op.NOT, local, true));
                }
                it = new Scope(inner);
            }
            q.items.add(it);
            if (it instanceof Term t && t.op() == Op.AND) {
                q.bindAll(t, bound);
            } else if (it instanceof Or o) {
                bound.add("this");
            } else if (it instanceof From f && f.op() != Op.NOT && !mw.fromIds(f.e()).isEmpty()) {
                bound.add("this"); // an E without ids is an empty list of terms: it binds nothing
            } else if (it instanceof Pred p && p.kind().equals("==")) {
                bound.add(p.left());
            }
        }
        return q;
    }

    private void bindAll(Term t, Set<String> bound) {
        for (El e : new El[] {t.first(), t.second()}) {
            if (e != null && e.kind() == ElKind.VAR) {
                bound.add(e.var());
            }
        }
        boolean singleton = t.second() == null && t.trav() == Trav.NONE && t.first().kind() == ElKind.CONST
            && t.first().entity() == mw.singleton;
        if (t.src().kind() == SrcKind.THIS && !singleton) {
            bound.add("this");
        } else if (t.src().kind() == SrcKind.VAR) {
            bound.add(t.src().var());
        }
    }

    private long pick(List<Long> l, Random rnd) {
        return l.get(rnd.nextInt(l.size()));
    }

    private long anyEntity(Random rnd) {
        return pick(mw.ents, rnd);
    }

    /** Every variable name written so far: a new variable never reuses one (no accidental sharing). */
    private final Set<String> seen = new HashSet<>();

    /** A variable for a new position: a bound one, or (when allowed) a name not written yet. */
    private String var(Random rnd, Set<String> bound, boolean mayBeNew) {
        List<String> b = new ArrayList<>(bound);
        b.remove("this");
        b.sort(null);
        if (!b.isEmpty() && (!mayBeNew || rnd.nextBoolean())) {
            return b.get(rnd.nextInt(b.size()));
        }
        if (!mayBeNew) {
            return null;
        }
        for (String v : new String[] {"x", "y", "z", "w"}) {
            if (!seen.contains(v)) {
                seen.add(v);
                return v;
            }
        }
        return b.isEmpty() ? null : b.get(rnd.nextInt(b.size()));
    }

    private Term orAlternative(Random rnd, Set<String> bound) {
        int k = rnd.nextInt(4);
        if (k == 0) {
            return new Term(Op.AND, El.c(pick(mw.tags, rnd)), null, Src.THIS, Trav.NONE, 0);
        } else if (k == 1) {
            return new Term(Op.AND, El.c(pick(mw.inheritTags, rnd)), null, Src.THIS, Trav.NONE, 0);
        } else if (k == 2) {
            return new Term(Op.AND, El.c(pick(mw.taxonomy, rnd)), null, Src.THIS, Trav.NONE, 0);
        }
        ModelWorld.Rel r = mw.rels.get(rnd.nextInt(mw.rels.size()));
        El second = rnd.nextInt(3) == 0 ? El.WILD : El.c(anyEntity(rnd));
        return new Term(Op.AND, El.c(r.id()), second, Src.THIS, Trav.NONE, 0);
    }

    private Pred pred(Random rnd, Set<String> bound) {
        List<String> vars = new ArrayList<>(bound);
        vars.sort(null);
        int k = rnd.nextInt(6);
        if (vars.isEmpty() || k == 0) {
            String v = vars.isEmpty() || rnd.nextBoolean() ? (rnd.nextBoolean() && !seen.contains("this") ? "this" : var(rnd, Set.of(), true))
                : vars.get(rnd.nextInt(vars.size()));
            if (v == null) {
                return null;
            }
            seen.add(v);
            return new Pred("==", v, El.c(anyEntity(rnd)), null);
        }
        String left = vars.get(rnd.nextInt(vars.size()));
        if (k == 1) {
            String sub = rnd.nextInt(4) == 0 ? "!" : "";
            sub += new String[] {"e1", "E", "c", "0", "U", "t"}[rnd.nextInt(6)];
            return new Pred("~=", left, null, sub);
        }
        El right = rnd.nextBoolean() || vars.size() < 2 ? El.c(anyEntity(rnd)) : El.v(vars.get(rnd.nextInt(vars.size())));
        return new Pred(k < 4 ? "!=" : "==", left, right, null);
    }

    /** A random source: $this mostly, else a fixed entity, a variable or (for pairs) {@code _}. */
    private Src source(Random rnd, Set<String> bound, Op op, boolean allowAny) {
        int k = rnd.nextInt(12);
        if (k < 7) {
            return Src.THIS;
        } else if (k < 9) {
            return new Src(SrcKind.CONST, anyEntity(rnd), null);
        } else if (k < 11) {
            String v = var(rnd, bound, op == Op.AND);
            return v == null ? Src.THIS : new Src(SrcKind.VAR, 0, v);
        } else if (allowAny && op == Op.AND) {
            return new Src(SrcKind.ANY, 0, null);
        } else if (op != Op.OPT && bound.contains("this")) {
            return new Src(SrcKind.LOOKUP, 0, null);
        }
        return Src.THIS;
    }

    /** A pair element: a constant, a variable (new ones only in And or optional terms), * or _. */
    private El element(Random rnd, Set<String> bound, Op op, boolean target) {
        int k = rnd.nextInt(10);
        if (k < 4) {
            return El.c(anyEntity(rnd));
        } else if (k < 7) {
            String v = var(rnd, bound, op != Op.NOT || rnd.nextInt(3) == 0);
            return v == null ? El.WILD : El.v(v);
        } else if (k < 9) {
            return El.WILD;
        }
        return El.ANY;
    }

    Term term(Random rnd, Op op, Set<String> bound, boolean inScope) {
        if (rnd.nextInt(8) == 0) { // a member-value term M.v(src, value)
            Src src = source(rnd, bound, op, false);
            int c = rnd.nextInt(8);
            El value;
            if (c < 3) {
                value = El.c(anyEntity(rnd));
            } else if (c < 5) {
                String v = var(rnd, bound, op != Op.NOT || rnd.nextInt(3) == 0);
                value = v == null || src.kind() == SrcKind.VAR && v.equals(src.var()) ? El.WILD : El.v(v);
            } else if (c < 7) {
                value = El.WILD;
            } else {
                value = El.ANY;
            }
            return new Term(op, El.c(mw.member), value, src, Trav.NONE, 0, "v");
        }
        int k = rnd.nextInt(20);
        if (k < 5) { // plain tag, maybe with a source, self, up
            long tag = pick(rnd.nextBoolean() ? mw.tags : mw.inheritTags, rnd);
            Src src = source(rnd, bound, op, false);
            int t = rnd.nextInt(8);
            if (t < 2 && src.kind() != SrcKind.LOOKUP) {
                List<ModelWorld.Rel> trav = new ArrayList<>();
                for (ModelWorld.Rel r : mw.rels) {
                    if (r.traversable()) {
                        trav.add(r);
                    }
                }
                long rel = Builtin.CHILD_OF;
                int c = rnd.nextInt(trav.size() + 2);
                if (c < trav.size()) {
                    rel = trav.get(c).id();
                } else if (c == trav.size() && tag == mw.inheritTags.get(0)) {
                    rel = Builtin.IS_A;
                }
                return new Term(op, El.c(tag), null, src, t == 0 ? Trav.UP : Trav.SELF_UP, rel);
            }
            Trav tr = t == 2 && src.kind() == SrcKind.THIS ? Trav.SELF : Trav.NONE;
            return new Term(op, El.c(tag), null, src, tr, 0);
        } else if (k < 8) { // taxonomy (component inheritance), maybe |self
            El first = El.c(pick(mw.taxonomy, rnd));
            if (rnd.nextInt(4) == 0) {
                first = new El(ElKind.CONST, first.entity(), null, true);
            }
            Src src = source(rnd, bound, op, false);
            if (mw.policy(first.entity()).equals("Inherit") && src.kind() != SrcKind.LOOKUP && rnd.nextInt(4) == 0) {
                return new Term(op, first, null, src, rnd.nextBoolean() ? Trav.UP : Trav.SELF_UP, Builtin.IS_A);
            }
            return new Term(op, first, null, src, rnd.nextInt(5) == 0 && src.kind() == SrcKind.THIS ? Trav.SELF : Trav.NONE, 0);
        } else if (k < 9 && op == Op.AND && !inScope) { // the Singleton, or a variable / wildcard id
            int c = rnd.nextInt(3);
            if (c == 0) {
                return new Term(op, El.c(mw.singleton), null, Src.THIS, Trav.NONE, 0);
            }
            String v = c == 1 ? null : var(rnd, bound, true);
            return new Term(op, v == null ? El.WILD : El.v(v), null, source(rnd, bound, op, false), Trav.NONE, 0);
        }
        // pairs
        El first;
        long rel;
        int r = rnd.nextInt(12);
        if (r < 8) {
            rel = mw.rels.get(r % mw.rels.size()).id();
            first = El.c(rel);
        } else if (r < 9) {
            rel = Builtin.IS_A;
            first = El.c(rel);
        } else if (r < 10) {
            rel = Builtin.CHILD_OF;
            first = El.c(rel);
        } else if (r < 11) {
            rel = 0;
            first = El.WILD;
        } else {
            rel = 0;
            String v = var(rnd, bound, op != Op.NOT);
            first = v == null ? El.WILD : El.v(v);
        }
        if (rel != 0 && rel != Builtin.IS_A && rel != Builtin.CHILD_OF && rnd.nextInt(6) == 0) {
            first = new El(ElKind.CONST, rel, null, true); // R|self: no pair substitution
        }
        Src src = source(rnd, bound, op, true);
        El second = element(rnd, bound, op, true);
        if (second.kind() == ElKind.CONST && rel == Builtin.IS_A && rnd.nextBoolean()) {
            second = El.c(pick(rnd.nextBoolean() ? mw.taxonomy : mw.ents, rnd));
        }
        if ((second.kind() == ElKind.CONST || second.kind() == ElKind.WILD) && rnd.nextInt(5) == 0) {
            second = new El(second.kind(), second.entity(), null, true); // |self: no transitivity (QS-30, QS-31)
        }
        if (src.kind() == SrcKind.VAR && op != Op.OPT && rnd.nextInt(6) == 0) {
            second = El.v("this"); // $this as a pair element: R($x, $this)
        }
        if (second.kind() == ElKind.VAR && src.kind() == SrcKind.VAR && second.var().equals(src.var())) {
            second = El.WILD; // R($x, $x) is refused for an acyclic R (K13); keep clear of it
        }
        if (first.kind() == ElKind.VAR && (second.kind() == ElKind.VAR && second.var().equals(first.var())
                || src.kind() == SrcKind.VAR && src.var().equals(first.var()))) {
            first = El.WILD;
        }
        return new Term(op, first, second, src, Trav.NONE, 0);
    }

    /** True when the query mentions the entity anywhere (Prefab and Disabled make those matchable). */
    boolean mentions(long e) {
        for (Item it : items) {
            List<Term> ts = it instanceof Term t ? List.of(t) : it instanceof Or o ? o.alts()
                : it instanceof Scope s ? s.terms() : List.of();
            for (Term t : ts) {
                if (t.first().entity() == e || (t.second() != null && t.second().entity() == e) || t.src().entity() == e) {
                    return true;
                }
            }
            if (it instanceof Pred p && p.right() != null && p.right().entity() == e) {
                return true;
            }
            if (it instanceof From f && f.e() == e) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ builder

    /** The same query through {@link dev.quiver.query.builder.QueryBuilder} calls, item by item. */
    dev.quiver.query.builder.QueryBuilder builder() {
        var b = new dev.quiver.query.builder.QueryBuilder();
        for (Item it : items) {
            if (it instanceof Term t) {
                build(b, t);
            } else if (it instanceof Or o) {
                for (int i = 0; i < o.alts().size(); i++) {
                    build(b, o.alts().get(i));
                    if (i + 1 < o.alts().size()) {
                        b.or();
                    }
                }
            } else if (it instanceof Pred p) {
                String left = "$" + p.left();
                if (p.kind().equals("~=")) {
                    b.matchName(left, p.text());
                } else if (p.kind().equals("==")) {
                    b.eq(left, el(p.right()));
                } else {
                    b.neq(left, el(p.right()));
                }
            } else if (it instanceof Scope sc) {
                b.scopeOpen();
                for (Term t : sc.terms()) {
                    build(b, t);
                }
                b.scopeClose();
            } else if (it instanceof From f) {
                String e = mw.path(f.e());
                if (f.op() == Op.AND) {
                    b.andFrom(e);
                } else if (f.op() == Op.NOT) {
                    b.notFrom(e);
                } else {
                    b.orFrom(e);
                }
            }
        }
        return b;
    }

    private void build(dev.quiver.query.builder.QueryBuilder b, Term t) {
        String first = t.member() != null ? mw.path(t.first().entity()) + "." + t.member() : plainEl(t.first());
        b.term().first(first);
        if (t.first().self()) {
            b.self();
        }
        if (t.second() != null) {
            b.second(plainEl(t.second()));
            if (t.second().self()) {
                b.self();
            }
        }
        switch (t.src().kind()) {
            case THIS -> {
                if (t.trav() != Trav.NONE || t.member() != null) {
                    b.src("$this"); // else left implicit: a Singleton written without a source stays one
                }
            }
            case CONST -> b.src(mw.path(t.src().entity()));
            case VAR -> b.src("$" + t.src().var());
            case ANY -> b.src("_");
            default -> b.src("$this.c");
        }
        boolean childOf = t.travRel() == Builtin.CHILD_OF;
        switch (t.trav()) {
            case SELF -> b.self();
            case UP -> {
                if (childOf) {
                    b.up();
                } else {
                    b.up(mw.path(t.travRel()));
                }
            }
            case SELF_UP -> {
                b.self();
                if (childOf) {
                    b.up();
                } else {
                    b.up(mw.path(t.travRel()));
                }
            }
            default -> { }
        }
        if (t.op() == Op.NOT) {
            b.not();
        } else if (t.op() == Op.OPT) {
            b.optional();
        }
    }

    private String plainEl(El e) {
        return el(new El(e.kind(), e.entity(), e.var(), false));
    }
}
