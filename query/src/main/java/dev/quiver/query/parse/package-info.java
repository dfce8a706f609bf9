/**
 * Parser stage: Flecs v4 Query Language text to an immutable {@link dev.quiver.query.parse.QueryAst}
 * of {@link dev.quiver.query.parse.Term}s whose elements are unresolved
 * {@link dev.quiver.query.parse.TermRef}s. Syntax only; the grammar is in
 * {@link dev.quiver.query.parse.QueryParser}.
 */
package dev.quiver.query.parse;
