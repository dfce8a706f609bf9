package dev.quiver.query.plan;

/**
 * A resolved term element: a constant entity, a variable slot, {@code *}, {@code _}, or a lookup
 * variable ({@code $this.cockpit}: the child named by {@link #lookup()} of the entity in
 * {@link #slot()}).
 *
 * @param kind what the element is
 * @param entity the entity id for {@link Kind#CONST}, else 0
 * @param slot the variable slot for {@link Kind#VAR} and {@link Kind#LOOKUP}, else -1
 * @param lookup the child path for {@link Kind#LOOKUP}, else null
 * @param text the element as written (for plans and messages)
 * @param selfOnly {@code |self} was written on this element (no transitive closure on a target)
 */
public record Operand(Kind kind, long entity, int slot, String lookup, String text, boolean selfOnly) {

    /** Element kinds after resolution. */
    public enum Kind {
        /** A fixed entity. */
        CONST,
        /** A variable slot ({@code $this} is slot 0). */
        VAR,
        /** {@code *}: every match. */
        WILDCARD,
        /** {@code _}: at most one match. */
        ANY,
        /** A lookup variable {@code $v.child} (sources only). */
        LOOKUP
    }

    static Operand constant(long e, String text, boolean selfOnly) {
        return new Operand(Kind.CONST, e, -1, null, text, selfOnly);
    }

    static Operand var(int slot, String text, boolean selfOnly) {
        return new Operand(Kind.VAR, 0, slot, null, text, selfOnly);
    }

    /** True for {@link Kind#VAR}. */
    public boolean isVar() {
        return kind == Kind.VAR;
    }

    /** True for {@code *} and {@code _}. */
    public boolean isWildcard() {
        return kind == Kind.WILDCARD || kind == Kind.ANY;
    }

    @Override
    public String toString() {
        return text + (selfOnly ? "|self" : "");
    }
}
