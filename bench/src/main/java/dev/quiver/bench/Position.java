package dev.quiver.bench;

/**
 * The RG-1 component: node i has {@code Position {x: i, y: depth(i)}}. Declared with
 * {@link dev.quiver.storage.World#component(Class)}, so its name is {@code Position}.
 *
 * @param x the node index, as a double
 * @param y the node's depth, as a double
 */
public record Position(double x, double y) {}
