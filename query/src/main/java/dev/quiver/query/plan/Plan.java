package dev.quiver.query.plan;

import dev.quiver.query.parse.InOut;
import dev.quiver.storage.World;

import java.util.List;

/**
 * A compiled query: the steps in evaluation order, the variable slots and the field count.
 * Immutable; one plan serves any number of evaluations (per-run state lives in the evaluator).
 *
 * <p>Slot 0 is always {@code $this} (whether or not the query uses it). Named variables follow in
 * first-appearance order, then scope-local, anonymous ({@code $_x}) and hidden slots (a {@code *}
 * source).
 *
 * @param text the query text
 * @param steps top-level steps in evaluation order
 * @param stepCount number of steps including nested ones (ids are 0..stepCount-1)
 * @param slotNames name of each slot ("this" for slot 0)
 * @param variableNames the reported variables: named, not {@code $this}, not anonymous, not
 *     scope-local; in first-appearance order
 * @param variableSlots the slot of each reported variable
 * @param hasThis the query uses {@code $this} outside of scopes
 * @param fieldCount number of fields (terms, with an Or chain counting once and scopes not at all)
 * @param matchPrefab the query mentions Prefab, so prefab tables are not skipped (QS-47)
 * @param matchDisabled the query mentions Disabled or DisabledRelationship, so disabled and toggle
 *     companion tables are not skipped
 * @param presetSlots the slots of the variables set before evaluation
 * @param fieldAccess the access of each field (never {@link InOut#DEFAULT}; {@link FieldAccess})
 * @param fromLists the ids each *From term read from its E, in written order ({@link FromTerms})
 * @param subsetLists the IsA subsets the plan was widened with, per id ({@link InheritedTerms}):
 *     they depend on the data, not only on the traits, so a plan is re-made when they change
 */
public record Plan(String text, List<Step> steps, int stepCount, List<String> slotNames,
                   List<String> variableNames, int[] variableSlots, boolean hasThis, int fieldCount,
                   boolean matchPrefab, boolean matchDisabled, int[] presetSlots, InOut[] fieldAccess,
                   List<FromList> fromLists, List<SubsetList> subsetLists) {

    /**
     * The ids a plan's *From term read from its E.
     *
     * @param entity E
     * @param ids E's own ids without its DontInherit ones, in type order, when the plan was made
     */
    public record FromList(long entity, long[] ids) {}

    /**
     * The transitive IsA subsets of an id that the plan read: component inheritance matches the
     * subsets in use ({@code inUse}), pair substitution every alive subset.
     *
     * @param id    the term's id (a component, tag or relationship)
     * @param inUse only the subsets some table holds were read
     * @param ids   the subsets read, in id order
     */
    public record SubsetList(long id, boolean inUse, long[] ids) {}

    public Plan {
        subsetLists = List.copyOf(subsetLists);
        steps = List.copyOf(steps);
        slotNames = List.copyOf(slotNames);
        variableNames = List.copyOf(variableNames);
        fromLists = List.copyOf(fromLists);
    }

    /**
     * True when every *From term's E still has the ids the plan read (or was deleted): the plan is
     * current. When false, plan the query again to follow E (FEATURES.md QS-24).
     */
    public boolean fromListsCurrent(World world) {
        return FromTerms.current(world, fromLists);
    }

    /**
     * True when the data the plan was made from still holds: every *From term's ids
     * ({@link #fromListsCurrent}) and every id's IsA subsets ({@link #subsetLists}: a component
     * whose subset comes into use, a relationship that gets a new subset). When false, plan the
     * query again; a plan kept across writes (a held {@link dev.quiver.query.Query}, a cached
     * query) would otherwise miss the new subsets' rows.
     */
    public boolean current(World world) {
        return fromListsCurrent(world) && InheritedTerms.current(world, subsetLists);
    }

    /** Number of variable slots. */
    public int slotCount() {
        return slotNames.size();
    }

    /** "$name" of a slot. */
    public String slotName(int slot) {
        return "$" + slotNames.get(slot);
    }

    /**
     * The plan as text, one step per line with its index, nested steps indented:
     * <pre>
     * 0: SELECT (Lexname,noun_animal)($this) field=0 binds=$this per-table
     * 1: NOT field=1
     *      TRANS_TEST (KindOf,animal_n_01)($this)
     * 2: WITH Position($this) field=2 access=inout
     * </pre>
     * A top-level step that writes a field carrying data shows the field's access ({@code in},
     * {@code out}, {@code inout}, or {@code filter}); fields without data ({@code none}: tags, Not,
     * *From, equality terms) show none.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < steps.size(); i++) {
            print(sb, steps.get(i), i + ": ", "", true);
        }
        return sb.toString();
    }

    private void print(StringBuilder sb, Step s, String label, String indent, boolean top) {
        sb.append(indent).append(label).append(s.describe(this, top && s.field() >= 0 ? fieldAccess[s.field()] : null))
            .append('\n');
        String in = indent + " ".repeat(label.length()) + "  ";
        if (s.inner() != null) {
            print(sb, s.inner(), "", in, false);
        }
        for (Step a : s.alternatives()) {
            print(sb, a, "| ", in, false);
        }
        for (Step c : s.checks()) {
            print(sb, c, "? ", in, false);
        }
        for (int i = 0; i < s.scope().size(); i++) {
            print(sb, s.scope().get(i), i + ": ", in, false);
        }
    }
}
