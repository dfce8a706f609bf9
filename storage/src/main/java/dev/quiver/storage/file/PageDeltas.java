package dev.quiver.storage.file;

import java.util.List;

/**
 * How a page changed by deltas reads: the page format's side of a WAL entry that is a delta rather
 * than an after-image ({@link Journal.Entry#delta()}). A delta is of one page, or (key
 * {@link Journal#FAMILY_DELTA}) a family delta: one blob holding a commit's changes to many pages
 * of its family. The file layer keeps a page's deltas, and a family's family deltas, in order,
 * and asks this to apply them to the page's stored blob when the page is read or a checkpoint
 * seals it; it never reads a blob itself.
 */
public interface PageDeltas {
    /**
     * The blob of page {@code key} of {@code family} once {@code deltas} (oldest first) are applied
     * to {@code base} (null: no page); null when the page ends empty. The deltas are the page's own
     * ({@code familyDeltas} false) or family deltas of its family, of which only the page's part
     * applies; when no family delta changes the page, the result is {@code base} itself (the same
     * array).
     *
     * @throws dev.quiver.error.CorruptionException when the family takes no deltas (or not of that kind) or a blob is malformed
     */
    byte[] apply(int family, long key, byte[] base, List<byte[]> deltas, boolean familyDeltas);

    /**
     * The keys of the pages family delta {@code delta} of {@code family} changes, ascending.
     *
     * @throws dev.quiver.error.CorruptionException when the family takes no family deltas or the blob is malformed
     */
    default long[] pagesOf(int family, byte[] delta) {
        throw new dev.quiver.error.CorruptionException("a family delta of family " + family + ": this family takes none");
    }
}
