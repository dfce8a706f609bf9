package dev.quiver.query.engine;

import dev.quiver.query.plan.Step;

/**
 * The *From operations {@code and | E}, {@code or | E}, {@code not | E} (FEATURES.md QS-24): the
 * planner compiled E's ids into ordinary steps, so these only run them and report the field,
 * which never has data: id E and the term's source for And and Or, unset for Not.
 */
final class FromOps {
    private final Evaluator ev;

    FromOps(Evaluator ev) {
        this.ev = ev;
    }

    /** Wires the continuations of a *From step's nested steps. */
    void link(Step s) {
        switch (s.kind()) {
            case AND_FROM:
                ev.link(s.scope(), () -> report(s));
                break;
            case OR_FROM:
                ev.linkChildren(s.inner());
                ev.next[s.inner().id()] = () -> report(s);
                break;
            default: // NOT_FROM
                ev.linkChildren(s.inner());
                ev.next[s.inner().id()] = Evaluator.FOUND;
                break;
        }
    }

    /** {@code and | E}: the chain of E's ids; with no ids, continues at once. */
    boolean and(Step s) {
        return s.scope().isEmpty() ? report(s) : ev.exec(s.scope().get(0));
    }

    /** {@code or | E}: the Or over E's ids (with no ids, nothing matches). */
    boolean or(Step s) {
        return ev.exec(s.inner());
    }

    /** {@code not | E}: continues once when the Or over E's ids has no match. */
    boolean not(Step s) {
        if (!ev.exec(s.inner())) {
            return true;
        }
        ev.unsetField(s.field());
        return ev.next[s.id()].go();
    }

    private boolean report(Step s) {
        ev.setField(s.field(), s.term().first().entity(), ev.sourceValue(s.term().source()));
        return ev.next[s.id()].go();
    }
}
