package dev.quiver.storage.format;

/**
 * One page change to write: its family ({@link WorldFormat#MAP_NAMES} index), key and blob. A full
 * image ({@code delta} false) replaces the page ({@code null} blob: the page is removed); a delta
 * ({@code delta} true, only for {@code names} and {@code reverse} pages) is applied on top of the page by
 * {@link WorldFormat#applyDelta}.
 */
public record PageImage(int map, long key, byte[] blob, boolean delta) {
    /** A full image. */
    public PageImage(int map, long key, byte[] blob) {
        this(map, key, blob, false);
    }
}
