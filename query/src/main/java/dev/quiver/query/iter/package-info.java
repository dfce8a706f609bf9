/**
 * Table-at-a-time iteration of query results (Flecs v4 iterators): {@link dev.quiver.query.iter.TableResult}
 * is one step of an iteration (a table's row range, or a single row, with the fields' ids and
 * sources and the variables), {@link dev.quiver.query.iter.FieldColumn} and
 * {@link dev.quiver.query.iter.MemberColumn} read a field's component data straight from the
 * table's columns, and {@link dev.quiver.query.iter.QueryIterator} hands results out on demand.
 * {@link dev.quiver.query.Query} builds its per-row {@code each}, {@code rows} and {@code stream}
 * on these.
 *
 * <p>Changing the world during an iteration: a callback iteration
 * ({@link dev.quiver.query.Query#forEachTable}, {@code each}, {@code forEach}) makes the world
 * refuse writes ({@link dev.quiver.storage.WorldIteratingException}); a pull iteration
 * ({@link dev.quiver.query.iter.QueryIterator}, {@code stream}) lets writes happen between steps
 * and then fails fast with {@link dev.quiver.query.iter.WorldChangedException} instead of reading
 * moved rows.
 */
package dev.quiver.query.iter;
