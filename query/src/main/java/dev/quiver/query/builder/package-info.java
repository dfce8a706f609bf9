/**
 * The Java query builder (FEATURES.md QL-24, OTH-01): the same terms as the Flecs v4 Query
 * Language, built by calls instead of text. {@link dev.quiver.query.builder.QueryBuilder} builds
 * the parser's AST ({@link dev.quiver.query.parse.QueryAst}) directly; the resulting
 * {@link dev.quiver.query.Query} has the canonical text, the plan and the results of the parsed
 * equivalent text.
 */
package dev.quiver.query.builder;
