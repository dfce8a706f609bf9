package dev.quiver.storage;

/**
 * What a world opened in place has decoded of its pages since it was opened (a page forgotten
 * and read again counts again): counts that do not depend on the machine's load, for measuring a
 * first query after an open.
 *
 * @param entityPages            entity pages (blocks of 1024 entities) decoded
 * @param reversePages           reverse-index pages (blocks of 1024 targets) decoded
 * @param reverseLookupsSkipped  lookups of one relationship's sources answered by the reverse
 *                               blocks' summaries without decoding the target's block
 * @param reverseSummaryPages    reverse summary pages (1024 blocks each) read
 * @param namePages              name-index pages (buckets) decoded
 * @param rowPages               row pages decoded
 * @param entityNameSections     names sections of entity pages decoded (format 11: an entity
 *                               page's names are decoded on the first use of one of them)
 * @param sparsePages            sparse pages (one relationship's pairs of 1024 sources, page
 *                               format 13) decoded
 */
public record PageReads(long entityPages, long reversePages, long reverseLookupsSkipped, long reverseSummaryPages,
                        long namePages, long rowPages, long entityNameSections, long sparsePages) {
}
