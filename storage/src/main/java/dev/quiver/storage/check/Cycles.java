package dev.quiver.storage.check;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.format.WorldParts;
import dev.quiver.storage.rules.Paths;
import dev.quiver.storage.table.Types;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Cycles in user relationships, reported as warnings by {@code World.warnings()} and
 * {@code quiver check} (FEATURES TRT-04, issue 9: Quiver refuses cycles in ChildOf and IsA, and
 * accepts them in user relationships as Flecs does, so they are worth a warning but are not an
 * error). A relationship is a user relationship when its entity is not a builtin; Symmetric
 * relationships are left out, since every pair of theirs has its mirror and so would be a cycle of
 * two. Each strongly connected component of a relationship's graph (more than one entity, or an
 * entity targeting itself) gives one warning naming one of its cycles, the shortest through the
 * component's lowest entity index. Read-only; O(pairs).
 */
public final class Cycles {
    private final WorldParts p;
    private final Paths paths;
    private final dev.quiver.storage.rules.SparsePairs sparse;

    public Cycles(WorldParts parts, Paths paths, dev.quiver.storage.rules.SparsePairs sparse) {
        this.p = parts;
        this.paths = paths;
        this.sparse = sparse;
    }

    /** The warnings, at most {@code max}, ordered by relationship index, then by entity index. */
    public List<String> warnings(int max) {
        var graphs = new Int2ObjectOpenHashMap<Int2ObjectOpenHashMap<IntArrayList>>();
        p.tables().forEach(t -> {
            for (long id : t.type()) {
                if (!Ids.isPair(id) || Ids.first(id) < Builtin.FIRST_USER_INDEX || isSymmetric(Ids.first(id))) {
                    continue;
                }
                var g = graphs.computeIfAbsent(Ids.first(id), k -> new Int2ObjectOpenHashMap<>());
                for (int r = 0; r < t.count(); r++) {
                    int src = Ids.index(t.entity(r));
                    if (Types.isMarker(id)) { // sparse pairs: the targets are in the sparse store
                        for (int tgt : sparse.store().targets(Ids.first(id), src)) {
                            g.computeIfAbsent(src, k -> new IntArrayList()).add(tgt);
                        }
                    } else {
                        g.computeIfAbsent(src, k -> new IntArrayList()).add(Ids.second(id));
                    }
                }
            }
        });
        int[] rels = graphs.keySet().toIntArray();
        java.util.Arrays.sort(rels);
        var out = new ArrayList<String>();
        for (int rel : rels) {
            var g = graphs.get(rel);
            g.values().forEach(l -> l.sort(null));
            for (IntArrayList scc : components(g)) {
                if (out.size() >= max) {
                    return out;
                }
                int start = scc.getInt(0);
                var members = new IntOpenHashSet(scc);
                IntArrayList cycle = shortestCycle(g, start, members);
                if (cycle == null) {
                    continue; // a single entity without a self pair
                }
                var sb = new StringBuilder(paths.elementName(start));
                for (int i = 0; i < cycle.size(); i++) {
                    sb.append(" -> ").append(paths.elementName(cycle.getInt(i)));
                }
                out.add("cycle in " + paths.elementName(rel) + ": " + sb
                        + (scc.size() > cycle.size() ? " (" + scc.size() + " entities reach each other)" : ""));
            }
        }
        return out;
    }

    /**
     * Symmetric relationships cycle by definition; a toggle companion's pairs are disabled pairs,
     * which nothing traverses (rules.Toggles): neither is reported.
     */
    private boolean isSymmetric(int rel) {
        EntityIndex ei = p.entities();
        if (!ei.isAliveIndex(rel)) {
            return false;
        }
        Table t = p.tables().get(ei.table(rel));
        return t.hasId(Builtin.SYMMETRIC) || t.hasId(Builtin.DISABLED_RELATIONSHIP);
    }

    /**
     * The strongly connected components of {@code g} (iterative Tarjan), each sorted, in order of
     * their lowest entity index.
     */
    private static List<IntArrayList> components(Int2ObjectOpenHashMap<IntArrayList> g) {
        int[] nodes = g.keySet().toIntArray();
        java.util.Arrays.sort(nodes);
        var index = new Int2IntOpenHashMap();
        var low = new Int2IntOpenHashMap();
        var onStack = new IntOpenHashSet();
        var stack = new IntArrayList();
        var out = new ArrayList<IntArrayList>();
        int[] counter = {0};
        for (int root : nodes) {
            if (index.containsKey(root)) {
                continue;
            }
            // frames: node and the position in its edge list
            var frameNode = new IntArrayList();
            var framePos = new IntArrayList();
            visit(root, index, low, onStack, stack, counter);
            frameNode.add(root);
            framePos.add(0);
            while (!frameNode.isEmpty()) {
                int top = frameNode.size() - 1;
                int v = frameNode.getInt(top);
                IntArrayList edges = g.get(v);
                int pos = framePos.getInt(top);
                if (edges != null && pos < edges.size()) {
                    framePos.set(top, pos + 1);
                    int w = edges.getInt(pos);
                    if (!index.containsKey(w)) {
                        visit(w, index, low, onStack, stack, counter);
                        frameNode.add(w);
                        framePos.add(0);
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                frameNode.removeInt(top);
                framePos.removeInt(top);
                if (top > 0) {
                    int parent = frameNode.getInt(top - 1);
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v) == index.get(v)) {
                    var scc = new IntArrayList();
                    int w;
                    do {
                        w = stack.removeInt(stack.size() - 1);
                        onStack.remove(w);
                        scc.add(w);
                    } while (w != v);
                    scc.sort(null);
                    out.add(scc);
                }
            }
        }
        out.sort((a, b) -> Integer.compare(a.getInt(0), b.getInt(0)));
        return out;
    }

    private static void visit(int v, Int2IntOpenHashMap index, Int2IntOpenHashMap low, IntOpenHashSet onStack,
                              IntArrayList stack, int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]);
        counter[0]++;
        stack.add(v);
        onStack.add(v);
    }

    /**
     * The shortest path from {@code start} back to itself inside {@code members} (breadth first),
     * as the entities after {@code start} ending with {@code start}; null when there is none.
     */
    private static IntArrayList shortestCycle(Int2ObjectOpenHashMap<IntArrayList> g, int start, IntOpenHashSet members) {
        var parent = new Int2IntOpenHashMap();
        var queue = new IntArrayList();
        queue.add(start);
        for (int q = 0; q < queue.size(); q++) {
            int x = queue.getInt(q);
            IntArrayList edges = g.get(x);
            if (edges == null) {
                continue;
            }
            for (int i = 0; i < edges.size(); i++) {
                int y = edges.getInt(i);
                if (!members.contains(y)) {
                    continue;
                }
                if (y == start) {
                    var path = new IntArrayList();
                    path.add(start);
                    for (int z = x; z != start; z = parent.get(z)) {
                        path.add(0, z);
                    }
                    return path;
                }
                if (!parent.containsKey(y)) {
                    parent.put(y, x);
                    queue.add(y);
                }
            }
        }
        return null;
    }
}
