package dev.quiver.query.parse;

import dev.quiver.query.QuerySyntaxException;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits query text into {@link Token}s. Whitespace (spaces, tabs, newlines) separates tokens and
 * is otherwise ignored (QL-01). A name starts with {@code [A-Za-z0-9_]} and continues with those
 * and {@code -} (the characters storage allows in names); names are joined into paths by
 * {@code .} or the older {@code ::} (normalised to {@code .}, FEATURES.md 0.3).
 */
final class Lexer {
    private final String text;
    private int pos;

    private Lexer(String text) {
        this.text = text;
    }

    /** Tokenizes the whole text; the list always ends with an {@link TokenKind#EOF} token. */
    static List<Token> tokenize(String text) {
        Lexer lx = new Lexer(text);
        List<Token> out = new ArrayList<>();
        Token t;
        do {
            t = lx.next();
            out.add(t);
        } while (t.kind() != TokenKind.EOF);
        return out;
    }

    static boolean isNameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    /** Characters allowed after the first one of a name: storage also allows '-' in names. */
    static boolean isNamePart(char c) {
        return isNameChar(c) || c == '-';
    }

    private Token next() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
        int col = pos + 1;
        if (pos >= text.length()) {
            return new Token(TokenKind.EOF, "", col);
        }
        char c = text.charAt(pos);
        char n = pos + 1 < text.length() ? text.charAt(pos + 1) : '\0';
        switch (c) {
            case '(': pos++; return new Token(TokenKind.LPAREN, "(", col);
            case ')': pos++; return new Token(TokenKind.RPAREN, ")", col);
            case ',': pos++; return new Token(TokenKind.COMMA, ",", col);
            case '[': pos++; return new Token(TokenKind.LBRACKET, "[", col);
            case ']': pos++; return new Token(TokenKind.RBRACKET, "]", col);
            case '{': pos++; return new Token(TokenKind.LBRACE, "{", col);
            case '}': pos++; return new Token(TokenKind.RBRACE, "}", col);
            case '*': pos++; return new Token(TokenKind.STAR, "*", col);
            case '?': pos++; return new Token(TokenKind.OPTIONAL, "?", col);
            case '|':
                if (n == '|') {
                    pos += 2;
                    return new Token(TokenKind.OROR, "||", col);
                }
                pos++;
                return new Token(TokenKind.PIPE, "|", col);
            case '!':
                if (n == '=') {
                    pos += 2;
                    return new Token(TokenKind.NEQ, "!=", col);
                }
                pos++;
                return new Token(TokenKind.NOT, "!", col);
            case '=':
                if (n == '=') {
                    pos += 2;
                    return new Token(TokenKind.EQ, "==", col);
                }
                throw unexpected("=", col);
            case '~':
                if (n == '=') {
                    pos += 2;
                    return new Token(TokenKind.MATCH, "~=", col);
                }
                throw unexpected("~", col);
            case '"':
                return string(col);
            case '$':
                pos++;
                if (pos < text.length() && isNameChar(text.charAt(pos))) {
                    return new Token(TokenKind.VARIABLE, path(col), col);
                }
                return new Token(TokenKind.DOLLAR, "$", col);
            default:
                if (isNameChar(c)) {
                    return new Token(TokenKind.IDENT, path(col), col);
                }
                throw unexpected(String.valueOf(c), col);
        }
    }

    /** Reads a name with '.' / '::' separators; each separator must be followed by a name char. */
    private String path(int col) {
        StringBuilder sb = new StringBuilder();
        while (true) {
            int start = pos;
            while (pos < text.length() && (pos == start ? isNameChar(text.charAt(pos)) : isNamePart(text.charAt(pos)))) {
                pos++;
            }
            sb.append(text, start, pos);
            if (pos < text.length() && text.charAt(pos) == '.') {
                if (pos + 1 < text.length() && isNameChar(text.charAt(pos + 1))) {
                    sb.append('.');
                    pos++;
                    continue;
                }
                throw unexpected(".", pos + 1);
            }
            if (pos + 1 < text.length() && text.charAt(pos) == ':' && text.charAt(pos + 1) == ':') {
                if (pos + 2 < text.length() && isNameChar(text.charAt(pos + 2))) {
                    sb.append('.');
                    pos += 2;
                    continue;
                }
                throw unexpected("::", pos + 1);
            }
            return sb.toString();
        }
    }

    private Token string(int col) {
        StringBuilder sb = new StringBuilder();
        pos++;
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return new Token(TokenKind.STRING, sb.toString(), col);
            }
            if (c == '\\' && pos < text.length()) {
                c = text.charAt(pos++);
            }
            sb.append(c);
        }
        throw new QuerySyntaxException("unterminated string at column " + col, "\"", col);
    }

    private static QuerySyntaxException unexpected(String tok, int col) {
        return new QuerySyntaxException("unexpected '" + tok + "' at column " + col, tok, col);
    }
}
