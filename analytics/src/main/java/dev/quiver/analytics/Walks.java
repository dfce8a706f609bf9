package dev.quiver.analytics;

import java.util.Arrays;

/** Breadth-first walks from one node: shortest paths and k-hop neighbourhoods. */
final class Walks {
    private Walks() {}

    /** The entity ids of a shortest path, or an empty array when {@code to} is unreachable. */
    static long[] shortestPath(Graph g, int from, int to, Direction dir) {
        if (from == to) {
            return new long[] {g.entity(from)};
        }
        int n = g.nodeCount();
        int[] parent = new int[n];
        Arrays.fill(parent, -1);
        parent[from] = from;
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        queue[tail++] = from;
        while (head < tail) {
            int v = queue[head++];
            if (dir != Direction.IN) {
                tail = visit(g.outStart(), g.outTargets(), v, parent, queue, tail);
            }
            if (dir != Direction.OUT) {
                tail = visit(g.inStart(), g.inSources(), v, parent, queue, tail);
            }
            if (parent[to] >= 0) {
                break;
            }
        }
        if (parent[to] < 0) {
            return new long[0];
        }
        int len = 1;
        for (int v = to; v != from; v = parent[v]) {
            len++;
        }
        long[] path = new long[len];
        int i = len - 1;
        for (int v = to; ; v = parent[v]) {
            path[i--] = g.entity(v);
            if (v == from) {
                break;
            }
        }
        return path;
    }

    private static int visit(int[] start, int[] adj, int v, int[] parent, int[] queue, int tail) {
        for (int e = start[v]; e < start[v + 1]; e++) {
            int w = adj[e];
            if (parent[w] < 0) {
                parent[w] = v;
                queue[tail++] = w;
            }
        }
        return tail;
    }

    static Neighbourhood neighbourhood(Graph g, int center, int k, Direction dir) {
        int n = g.nodeCount();
        int[] dist = new int[n];
        Arrays.fill(dist, -1);
        dist[center] = 0;
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        queue[tail++] = center;
        while (head < tail) {
            int v = queue[head++];
            if (dist[v] == k) {
                continue;
            }
            if (dir != Direction.IN) {
                tail = step(g.outStart(), g.outTargets(), v, dist, queue, tail);
            }
            if (dir != Direction.OUT) {
                tail = step(g.inStart(), g.inSources(), v, dist, queue, tail);
            }
        }
        // the queue holds the center then nodes by distance; sort each distance band by node
        int[] nodes = Arrays.copyOfRange(queue, 1, tail);
        int[] d = new int[nodes.length];
        int i = 0;
        while (i < nodes.length) {
            int j = i;
            while (j < nodes.length && dist[nodes[j]] == dist[nodes[i]]) {
                j++;
            }
            Arrays.sort(nodes, i, j);
            for (int x = i; x < j; x++) {
                d[x] = dist[nodes[x]];
            }
            i = j;
        }
        return new Neighbourhood(nodes, d);
    }

    private static int step(int[] start, int[] adj, int v, int[] dist, int[] queue, int tail) {
        for (int e = start[v]; e < start[v + 1]; e++) {
            int w = adj[e];
            if (dist[w] < 0) {
                dist[w] = dist[v] + 1;
                queue[tail++] = w;
            }
        }
        return tail;
    }
}
