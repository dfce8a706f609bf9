package dev.quiver.query.parse;

import java.util.List;

/**
 * One term of a parsed query (Flecs v4 ecs_term_t, unresolved). Three shapes:
 *
 * <ul>
 *   <li>An <b>id term</b> ({@link #predicate()} and {@link #scope()} null): {@code first}
 *       alone ({@code Position}, {@code $C}, {@code *}) or a pair {@code (first, second)},
 *       matched on {@code source} ({@code Position($this)}, {@code R(src, T)}).</li>
 *   <li>An <b>equality term</b> ({@link #predicate()} set): {@code source} is the variable on the
 *       left, {@code second} the entity or string on the right, {@code first} is null.</li>
 *   <li>A <b>scope</b> ({@link #scope()} non-null): {@code !{ t1, t2 }}; only {@code first},
 *       {@code second} and {@code source} are null.</li>
 * </ul>
 *
 * @param oper the operator (Or chains: every term but the last has {@link Operator#OR})
 * @param inout the access modifier
 * @param first component or relationship; null for equality terms and scopes
 * @param second pair target, or the right side of an equality; null for plain ids
 * @param source the source; {@link TermRef.Kind#DEFAULT} when not written
 * @param predicate the equality operator, or null
 * @param scope the terms of a {@code !{...}} scope, or null
 * @param column 1-based column where the term starts (its operator prefix included)
 */
public record Term(Operator oper, InOut inout, TermRef first, TermRef second, TermRef source,
                   Predicate predicate, List<Term> scope, int column) {

    public Term {
        scope = scope == null ? null : List.copyOf(scope);
    }

    /** True for {@code (R, T)} shaped terms. */
    public boolean isPair() {
        return second != null && predicate == null;
    }

    /** True for equality terms. */
    public boolean isEquality() {
        return predicate != null;
    }

    /** True for {@code !{...}} scopes. */
    public boolean isScope() {
        return scope != null;
    }

    /** Copy with another operator. */
    public Term withOper(Operator o) {
        return new Term(o, inout, first, second, source, predicate, scope, column);
    }

    /** Canonical text of the term, without the Or chain joiner. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (inout != InOut.DEFAULT) {
            sb.append('[').append(inout.keyword()).append("] ");
        }
        if (oper != Operator.OR && oper != Operator.AND) {
            sb.append(oper.prefix());
        }
        if (scope != null) {
            sb.append('{');
            sb.append(QueryAst.join(scope));
            sb.append('}');
            return sb.toString();
        }
        if (predicate != null) {
            return sb.append(source).append(' ').append(predicate.symbol()).append(' ').append(second).toString();
        }
        boolean implicit = source.kind() == TermRef.Kind.DEFAULT && source.traversal().isNone();
        if (implicit) {
            if (second != null) {
                sb.append('(').append(first).append(',').append(second).append(')');
            } else {
                sb.append(first);
            }
        } else {
            sb.append(first).append('(').append(source);
            if (second != null) {
                sb.append(',').append(second);
            }
            sb.append(')');
        }
        return sb.toString();
    }
}
