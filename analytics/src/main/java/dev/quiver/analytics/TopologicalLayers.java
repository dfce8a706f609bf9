package dev.quiver.analytics;

/**
 * The topological order and the generations (layers) of the condensation. The order is the
 * component numbering of {@link StrongComponents} (every edge goes forward). Generations follow
 * NetworkX's {@code topological_generations}: generation 0 holds the components no edge enters;
 * a component's generation is one more than the highest generation among its predecessors (the
 * longest path, in condensation edges, from a source component). Cycles are not an error: each
 * cycle group is one node of the condensation, listed by {@link #cycles()}.
 */
public final class TopologicalLayers {
    private final StrongComponents strong;
    private final int[] generation;
    private final int generations;

    private TopologicalLayers(StrongComponents strong, int[] generation, int generations) {
        this.strong = strong;
        this.generation = generation;
        this.generations = generations;
    }

    static TopologicalLayers of(StrongComponents s) {
        int nc = s.count();
        int[] start = s.condensationStart();
        int[] dag = s.condensationTargets();
        int[] gen = new int[nc];
        int max = -1;
        for (int c = 0; c < nc; c++) {
            int next = gen[c] + 1;
            for (int e = start[c]; e < start[c + 1]; e++) {
                if (gen[dag[e]] < next) {
                    gen[dag[e]] = next;
                }
            }
            max = Math.max(max, gen[c]);
        }
        return new TopologicalLayers(s, gen, max + 1);
    }

    /** The strong components whose condensation this orders. */
    public StrongComponents strongComponents() {
        return strong;
    }

    /** Number of generations (0 for an empty graph). */
    public int generationCount() {
        return generations;
    }

    /** The generation of a component. */
    public int generation(int component) {
        return generation[component];
    }

    /** The generation of a node's component. */
    public int nodeGeneration(int node) {
        return generation[strong.component(node)];
    }

    /** The position of a node's component in the topological order. */
    public int nodeOrder(int node) {
        return strong.component(node);
    }

    /** Number of components in each generation: {@code result[g]}. */
    public int[] generationSizes() {
        int[] out = new int[generations];
        for (int g : generation) {
            out[g]++;
        }
        return out;
    }

    /** The cycle groups (cyclic components), in topological order. */
    public int[] cycles() {
        return strong.cyclicComponents();
    }
}
