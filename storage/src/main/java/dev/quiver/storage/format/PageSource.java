package dev.quiver.storage.format;

/** Where committed pages are read from (the file layer's page maps). */
public interface PageSource {
    /** The blob of a page, or null when absent. */
    byte[] get(int map, long key);

    /** Calls {@code visitor} with every page of a family, in ascending key order (the file layer's order). */
    void forEach(int map, PageVisitor visitor);

    /** Receives pages. */
    @FunctionalInterface
    interface PageVisitor {
        void visit(long key, byte[] blob);
    }
}
