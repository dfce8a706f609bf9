/**
 * Cached queries (FEATURES.md QK-01..QK-06, QK-14, QK-17..QK-19, QS-44): a
 * {@link dev.quiver.query.cache.CachedQuery} keeps the tables its {@code $this} terms match, stays
 * matched as tables appear and disappear (the world's table events), and adds what Flecs v4 allows
 * only on cached queries: {@code cascade}/{@code desc} depth order, {@code groupBy} and
 * {@code orderBy}. Caching never changes the results.
 */
package dev.quiver.query.cache;
