package dev.quiver.query;

/**
 * Position information common to every error raised while creating a query: the offending token
 * (or name) and its 1-based column in the query text. Implemented by {@link QuerySyntaxException},
 * {@link UnknownQueryNameException}, {@link UnsupportedQueryException} and
 * {@link QueryValidationException}.
 */
public interface QueryError {
    /** The offending token or name as written in the query text; "end of query" at the end. */
    String token();

    /** 1-based column of the token in the query text (characters, counting newlines as one). */
    int column();
}
