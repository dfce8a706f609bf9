package dev.quiver.analytics;

/** Which way walks follow the edges (an edge points from the pair's source to its target). */
public enum Direction {
    /** From source to target: a package to its dependencies, a synset to its hypernyms. */
    OUT,
    /** From target to source: a package to the packages that depend on it. */
    IN,
    /** Both ways (the graph read as undirected). */
    BOTH
}
