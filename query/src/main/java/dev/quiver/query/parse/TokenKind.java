package dev.quiver.query.parse;

/** Token kinds of the Flecs v4 Query Language. */
enum TokenKind {
    /** Name or dotted path ({@code a.b.c}, {@code a::b}), keyword, or numeric id ({@code 100}). */
    IDENT,
    /** {@code $name}, {@code $this}, {@code $this.child}; text is the part after '$'. */
    VARIABLE,
    /** {@code $} alone: the singleton source. */
    DOLLAR,
    /** A double-quoted string; text is the content without quotes. */
    STRING,
    LPAREN, RPAREN, COMMA, LBRACKET, RBRACKET, LBRACE, RBRACE,
    /** {@code ||}. */
    OROR,
    /** {@code |}: separates traversal flags, and the *From operators. */
    PIPE,
    /** {@code !}. */
    NOT,
    /** {@code ?}. */
    OPTIONAL,
    /** {@code *}. */
    STAR,
    /** {@code ==}. */
    EQ,
    /** {@code !=}. */
    NEQ,
    /** {@code ~=}. */
    MATCH,
    EOF
}
