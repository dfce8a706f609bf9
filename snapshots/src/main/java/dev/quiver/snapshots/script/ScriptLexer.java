package dev.quiver.snapshots.script;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a Flecs Script file into {@link ScriptToken}s (lexical rules of
 * {@code conformance/SUBSET.md}): paths {@code [A-Za-z_][A-Za-z0-9_]*} joined by {@code .},
 * numbers ({@code -3}, {@code 1.5}, {@code 5000000000}, an exponent allowed), double-quoted strings
 * with {@code \"}, {@code \\}, {@code \n} and {@code \t} escapes, the punctuation
 * {@code { } ( ) , : = $}, and statement ends (a line end or {@code ;}). Comments {@code // ...} and
 * {@code /* ... *}{@code /} are skipped; a block comment's line ends are not statement ends. CR is
 * ignored, so CRLF files read like LF files.
 */
final class ScriptLexer {
    private final Path file;
    private final String src;
    private int pos;
    private int line = 1;
    private int lineStart;

    private ScriptLexer(Path file, String src) {
        this.file = file;
        this.src = src;
    }

    /**
     * The tokens of a script, ending with one {@link ScriptToken.Kind#EOF}.
     *
     * @throws FlecsScriptException for a character outside the subset, an unterminated string or
     *     comment, or a malformed number
     */
    static List<ScriptToken> tokens(Path file, String src) {
        return new ScriptLexer(file, src).run();
    }

    private List<ScriptToken> run() {
        List<ScriptToken> out = new ArrayList<>();
        while (true) {
            skipBlanksAndComments();
            int col = pos - lineStart + 1;
            if (pos >= src.length()) {
                out.add(new ScriptToken(ScriptToken.Kind.EOF, "", line, col));
                return out;
            }
            char c = src.charAt(pos);
            if (c == '\n' || c == ';') {
                out.add(new ScriptToken(ScriptToken.Kind.END, c == ';' ? ";" : "\n", line, col));
                pos++;
                if (c == '\n') {
                    newLine();
                }
            } else if (isIdentStart(c)) {
                out.add(new ScriptToken(ScriptToken.Kind.PATH, path(col), line, col));
            } else if (isDigit(c) || (c == '-' && pos + 1 < src.length() && isDigit(src.charAt(pos + 1)))) {
                out.add(new ScriptToken(ScriptToken.Kind.NUMBER, number(col), line, col));
            } else if (c == '"') {
                int startLine = line;
                out.add(new ScriptToken(ScriptToken.Kind.STRING, string(col), startLine, col));
            } else if ("{}(),:=$".indexOf(c) >= 0) {
                out.add(new ScriptToken(ScriptToken.Kind.PUNCT, String.valueOf(c), line, col));
                pos++;
            } else {
                throw error(col, "unexpected character '" + c + "'");
            }
        }
    }

    private void newLine() {
        line++;
        lineStart = pos;
    }

    private void skipBlanksAndComments() {
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
                pos++;
            } else if (c == '/' && pos + 1 < src.length() && src.charAt(pos + 1) == '/') {
                while (pos < src.length() && src.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (c == '/' && pos + 1 < src.length() && src.charAt(pos + 1) == '*') {
                int col = pos - lineStart + 1;
                int startLine = line;
                pos += 2;
                while (true) {
                    if (pos >= src.length()) {
                        throw new FlecsScriptException(file, startLine, col, "unterminated comment", null);
                    }
                    if (src.charAt(pos) == '*' && pos + 1 < src.length() && src.charAt(pos + 1) == '/') {
                        pos += 2;
                        break;
                    }
                    if (src.charAt(pos++) == '\n') {
                        newLine();
                    }
                }
            } else {
                return;
            }
        }
    }

    private String path(int col) {
        int start = pos;
        while (true) {
            while (pos < src.length() && isIdentPart(src.charAt(pos))) {
                pos++;
            }
            if (pos + 1 < src.length() && src.charAt(pos) == '.' && isIdentStart(src.charAt(pos + 1))) {
                pos++;
                continue;
            }
            if (pos < src.length() && src.charAt(pos) == '.') {
                throw error(pos - lineStart + 1, "expected an identifier after '.' in '" + src.substring(start, pos + 1) + "'");
            }
            return src.substring(start, pos);
        }
    }

    private String number(int col) {
        int start = pos;
        if (src.charAt(pos) == '-') {
            pos++;
        }
        digits();
        if (pos < src.length() && src.charAt(pos) == '.') {
            pos++;
            if (pos >= src.length() || !isDigit(src.charAt(pos))) {
                throw error(col, "malformed number '" + src.substring(start, pos) + "'");
            }
            digits();
        }
        if (pos < src.length() && (src.charAt(pos) == 'e' || src.charAt(pos) == 'E')) {
            pos++;
            if (pos < src.length() && (src.charAt(pos) == '+' || src.charAt(pos) == '-')) {
                pos++;
            }
            if (pos >= src.length() || !isDigit(src.charAt(pos))) {
                throw error(col, "malformed number '" + src.substring(start, pos) + "'");
            }
            digits();
        }
        if (pos < src.length() && isIdentPart(src.charAt(pos))) {
            throw error(col, "malformed number '" + src.substring(start, pos + 1) + "'");
        }
        return src.substring(start, pos);
    }

    private void digits() {
        while (pos < src.length() && isDigit(src.charAt(pos))) {
            pos++;
        }
    }

    private String string(int col) {
        StringBuilder sb = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= src.length() || src.charAt(pos) == '\n') {
                throw error(col, "unterminated string");
            }
            char c = src.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c == '\\') {
                if (pos >= src.length()) {
                    throw error(col, "unterminated string");
                }
                char e = src.charAt(pos++);
                switch (e) {
                    case '"': sb.append('"'); break;
                    case '\\': sb.append('\\'); break;
                    case 'n': sb.append('\n'); break;
                    case 't': sb.append('\t'); break;
                    default: throw error(pos - lineStart - 1, "unknown escape '\\" + e + "' in string");
                }
            } else {
                sb.append(c);
            }
        }
    }

    private FlecsScriptException error(int col, String detail) {
        return new FlecsScriptException(file, line, col, detail, null);
    }

    private static boolean isIdentStart(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    }

    private static boolean isIdentPart(char c) {
        return isIdentStart(c) || isDigit(c);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
