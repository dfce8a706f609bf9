package dev.quiver.query.plan;

import dev.quiver.index.Ids;
import dev.quiver.query.QueryValidationException;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.query.parse.Term;
import dev.quiver.query.parse.TermRef;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.OnInstantiate;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;

/**
 * Member-value terms {@code Comp.member(src, T)} (FEATURES.md QL-19, QS-23, CMP-07, CMP-08; Flecs v4
 * Queries manual, "Member value queries"): the term holds when the entity-typed member of the
 * source's own {@code Comp} equals T; with {@code *} it holds for any entity the member holds and
 * the field reports it; with {@code $v} it binds (or, when bound, compares) the variable.
 *
 * <p><b>Reading the name.</b> {@code .} separates both path segments and members, so the first
 * element {@code a.b.c} has two readings: the entity at that path, and member {@code c} of the
 * component {@code a.b} (or member {@code b.c} of {@code a}). The member reading takes the longest
 * prefix that names a component whose schema has a member of that name. When both readings
 * resolve the term is ambiguous and refused ({@link QueryValidationException}); when only the
 * path resolves the term is an ordinary one.
 *
 * <p><b>Rules.</b> Quiver members are schema fields ({@link Schema}), not entities, so the field of
 * a member term reports the pair {@code (Comp, value)} where Flecs reports
 * {@code (Comp.member, value)}; its source is the source. A member holding 0 or a deleted entity (a
 * member may dangle: cleanup never touches it, CMP-08) holds no entity: it matches no T, no
 * {@code *} and no {@code $v}. Every instance is read from the table columns; there is no index.
 * Refused, as not evaluated ({@link UnsupportedQueryException}): members of another type than
 * {@link FieldType#ENTITY} (scalar comparisons are out of scope, QS-23), traversal flags on the
 * source, the {@code _} source, and a component that IsA inheritance would widen (an
 * {@code (OnInstantiate, Inherit)} component, or one with IsA subsets in use). A member term
 * needs a value: {@code Comp.member} alone, or with a source only, is refused
 * ({@link QueryValidationException}).
 */
final class MemberTerms {
    private MemberTerms() {}

    /**
     * The member reading of a term's first element, or null when it has none (no {@code .}, not
     * a name, or no prefix names a component with such a member).
     *
     * @throws QueryValidationException when the path reading resolves too (ambiguous)
     */
    static ResolvedTerm.Member read(World world, Term t) {
        TermRef f = t.first();
        if (f == null || f.kind() != TermRef.Kind.ENTITY || f.name().indexOf('.') < 0) {
            return null;
        }
        String name = f.name();
        ResolvedTerm.Member found = null;
        for (int dot = name.lastIndexOf('.'); dot > 0 && found == null; dot = name.lastIndexOf('.', dot - 1)) {
            long c = world.lookup(name.substring(0, dot));
            if (c == 0 || Ids.isPair(c)) {
                continue;
            }
            Schema s = world.schema(c);
            String member = name.substring(dot + 1);
            int index = s == null ? -1 : s.indexOf(member);
            if (index >= 0) {
                found = new ResolvedTerm.Member(c, index, member);
            }
        }
        if (found != null && world.lookup(name) != 0) {
            String comp = name.substring(0, name.length() - found.name().length() - 1);
            throw new QueryValidationException("ambiguous name '" + name + "' in '" + t + "': it is both the entity '"
                + name + "' and member '" + found.name() + "' of component '" + comp + "' at column " + f.column(),
                name, f.column());
        }
        return found;
    }

    /**
     * Checks what a member term may be, once read.
     *
     * @throws QueryValidationException when the term has no value element
     * @throws UnsupportedQueryException for the constructs the class comment lists
     */
    static void check(World world, Term t, ResolvedTerm.Member m) {
        TermRef f = t.first();
        Schema s = world.schema(m.component());
        FieldType type = s.field(m.index()).type();
        if (t.second() == null) {
            throw new QueryValidationException("member-value term '" + t + "' needs a value to compare with, as in "
                + f.name() + "($this, T), " + f.name() + "($this, *) or " + f.name() + "($this, $v), at column "
                + f.column(), f.name(), f.column());
        }
        if (type != FieldType.ENTITY) {
            throw new UnsupportedQueryException("member-value term on member '" + m.name() + "' of type "
                + type.spelling() + " in '" + t + "' (only entity members are compared)", f.name(), f.column());
        }
        TermRef src = t.source();
        if (!src.traversal().isNone() && !src.traversal().selfOnly()) {
            throw new UnsupportedQueryException("traversal '" + src.traversal() + "' on member-value term '" + t + "'",
                src.traversal().toString(), src.traversal().column());
        }
        if (src.kind() == TermRef.Kind.ANY) {
            throw new UnsupportedQueryException("source '_' on member-value term '" + t + "'", "_", src.column());
        }
        if (world.onInstantiate(m.component()) == OnInstantiate.INHERIT
            || InheritedTerms.derived(world, m.component()).length > 0) {
            throw new UnsupportedQueryException("IsA inheritance of component '" + world.idToString(m.component())
                + "' in member-value term '" + t + "'", f.name(), f.column());
        }
    }
}
