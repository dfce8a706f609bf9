/**
 * The exceptions every Quiver module throws, in three kinds that callers (and the CLI's exit
 * codes) tell apart:
 * <ul>
 *   <li>{@link dev.quiver.error.BadInputException}: the caller asked for something wrong (an unknown
 *       name, a malformed query or value, a constraint violation, a locked or missing world, a
 *       corrupt input file). Nothing changed. CLI exit code 2.</li>
 *   <li>{@link dev.quiver.error.StorageIOException}: the operating system refused an I/O operation
 *       (disk full, permission denied, failed fsync). A transaction that failed this way is not
 *       committed; the world stays as it was before it. CLI exit code 1.</li>
 *   <li>{@link dev.quiver.error.CorruptionException}: a world file does not hold what Quiver wrote
 *       (a checksum mismatch, a truncated page, a damaged map header). The file and the page are
 *       named. CLI exit code 1.</li>
 * </ul>
 * The package is neutral: it sits in the lowest module so that every module can throw these, and
 * it depends on nothing.
 */
package dev.quiver.error;
