package dev.quiver.storage.format;

/**
 * One page to write: its family ({@link WorldFormat#MAP_NAMES} index), key and blob ({@code null}:
 * the page is removed).
 */
public record PageImage(int map, long key, byte[] blob) {}
