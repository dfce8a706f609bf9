/**
 * The Quiver query engine: the Flecs v4 Query Language over a {@link dev.quiver.storage.World}.
 *
 * <p>Entry point: {@link dev.quiver.query.Query#parse(dev.quiver.storage.World, String)}, then
 * {@link dev.quiver.query.Query#count()}, {@link dev.quiver.query.Query#forEach} or
 * {@link dev.quiver.query.Query#rows(int)}; each result is a {@link dev.quiver.query.QueryRow}
 * (immutable; {@link dev.quiver.query.Query#forEachReused} passes one row object set to each
 * result in turn instead, valid during its call, so that nothing is allocated per row).
 * Creation errors are {@link dev.quiver.query.QuerySyntaxException},
 * {@link dev.quiver.query.UnknownQueryNameException},
 * {@link dev.quiver.query.UnsupportedQueryException} and
 * {@link dev.quiver.query.QueryValidationException}, all {@link dev.quiver.error.QuiverException}s
 * that carry the offending token and its column ({@link dev.quiver.query.QueryError}).
 *
 * <p>The stages live in sub-packages, one per stage (STYLE.md, "one package per query stage"):
 * {@code parse} (text to an immutable AST), {@code plan} (name resolution, trait lookup, term
 * ordering and one operation per term: the compiled {@link dev.quiver.query.plan.Plan}) and
 * {@code engine} (the backtracking evaluator that runs a plan over tables and indices). Only
 * {@link dev.quiver.query.Query} calls the stages in order.
 */
package dev.quiver.query;
