package dev.quiver.snapshots.script;

/**
 * One token of a Flecs Script file.
 *
 * @param kind   what the token is
 * @param text   the token as written (for {@link Kind#STRING} the content without quotes, escapes
 *               resolved; for {@link Kind#PATH} the identifiers joined by {@code .})
 * @param line   1-based line where the token starts
 * @param column 1-based column where the token starts
 */
record ScriptToken(Kind kind, String text, int line, int column) {

    /** Token kinds of the subset. */
    enum Kind {
        /** An identifier or identifiers joined by {@code .}: {@code house.kitchen.lamp}. */
        PATH,
        /** An integer or decimal literal, optionally negative. */
        NUMBER,
        /** A double-quoted string. */
        STRING,
        /** One of {@code { } ( ) , : = $}. */
        PUNCT,
        /** A statement separator: a line end or {@code ;}. */
        END,
        /** The end of the file. */
        EOF
    }

    /** True for punctuation {@code p}. */
    boolean is(char p) {
        return kind == Kind.PUNCT && text.length() == 1 && text.charAt(0) == p;
    }

    /** True for the identifier {@code word} (a one-element path). */
    boolean isWord(String word) {
        return kind == Kind.PATH && text.equals(word);
    }

    /** The token for messages: {@code 'x'}, "end of line", "end of file". */
    String describe() {
        switch (kind) {
            case END: return text.equals(";") ? "';'" : "end of line";
            case EOF: return "end of file";
            case STRING: return "string \"" + text + "\"";
            default: return "'" + text + "'";
        }
    }
}
