package dev.quiver.query.parse;

/**
 * One lexical token of the query text.
 *
 * @param kind what the token is
 * @param text the token's text as written (for {@link TokenKind#STRING} the unquoted content,
 *     for {@link TokenKind#VARIABLE} the name without '$'); "" at the end
 * @param column 1-based column of its first character
 */
record Token(TokenKind kind, String text, int column) {

    /** The token as it should appear in an error message. */
    String display() {
        switch (kind) {
            case EOF: return "end of query";
            case VARIABLE: return "'$" + text + "'";
            case STRING: return "'\"" + text + "\"'";
            default: return "'" + text + "'";
        }
    }

    /** The token's raw spelling (for exceptions' token()). */
    String raw() {
        switch (kind) {
            case EOF: return "";
            case VARIABLE: return "$" + text;
            case STRING: return "\"" + text + "\"";
            default: return text;
        }
    }
}
