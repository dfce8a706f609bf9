package dev.quiver.storage.file;

import java.util.List;

/**
 * How a page changed by deltas reads: the page format's side of a WAL entry that is a delta rather
 * than an after-image ({@link Journal.Entry#delta()}). The file layer keeps a page's deltas in
 * order and asks this to apply them to the page's stored blob when the page is read or a
 * checkpoint seals it; it never reads a blob itself.
 */
@FunctionalInterface
public interface PageDeltas {
    /**
     * The blob of page {@code key} of {@code family} once {@code deltas} (oldest first) are applied
     * to {@code base} (null: no page); null when the page ends empty.
     *
     * @throws dev.quiver.error.CorruptionException when the family takes no deltas or a blob is malformed
     */
    byte[] apply(int family, long key, byte[] base, List<byte[]> deltas);
}
