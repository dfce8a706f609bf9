package dev.quiver.query.parse;

import dev.quiver.query.QuerySyntaxException;
import dev.quiver.query.UnsupportedQueryException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parser for the Flecs v4 Query Language (FEATURES.md section 8), text to an immutable
 * {@link QueryAst}. It only checks syntax; names are resolved later by the planner.
 *
 * <pre>
 * query    := chain ( ',' chain )* [ ',' ]              -- a trailing ',' is accepted, as in Flecs
 * chain    := term ( '||' term )*                        -- Or chain, one field
 * term     := [ '[' inout ']' ] ( '!' '{' query '}'      -- Not scope (QL-14)
 *                               | ( 'and' | 'or' | 'not' ) '|' element     -- *From (QL-13)
 *                               | [ '!' | '?' ] atom )
 * atom     := '(' element ',' element ')'                -- pair on $this: (R, T)
 *           | $var ( '==' | '!=' | '~=' ) ( element | "string" )          -- equality (QL-12)
 *           | element [ '(' source [ ',' element ] ')' ] -- C, C(src), R(src, T)
 * source   := element | flags | '$'                      -- '$': singleton (QL-06)
 * element  := ( name | number | $var | '*' | '_' ) [ '|' flags ]
 * flags    := flag ( '|' flag )*                         -- self, up [R], cascade [R], desc,
 *                                                         -- aliases up(R), parent, super, superset
 * </pre>
 *
 * <p>Whitespace is free everywhere (QL-01). Every error is a {@link QuerySyntaxException} (or an
 * {@link UnsupportedQueryException} for constructs the spec refuses) naming the offending token
 * and its 1-based column.
 */
public final class QueryParser {
    private final String text;
    private final List<Token> tokens;
    private int pos;

    private enum Position { FIRST, SECOND, SOURCE }

    /**
     * Deepest nesting of query scopes accepted: deeper text is refused with a syntax error rather
     * than recursing until the stack overflows (found by QueryFuzzTest with 20,000 nested scopes).
     */
    public static final int MAX_SCOPE_DEPTH = 256;
    /**
     * Most terms a query may hold, scopes and Or chains included (Flecs v4 allows 32 by default,
     * FLECS_TERM_COUNT_MAX). The engine backtracks by recursion, one level per term, so the bound
     * keeps any query far inside a thread's stack.
     */
    public static final int MAX_TERMS = 256;
    private int scopeDepth;
    private int termCount;

    private QueryParser(String text) {
        this.text = text;
        this.tokens = Lexer.tokenize(text);
    }

    /**
     * Parses query text.
     *
     * @param text the query, for example {@code Position, (LocatedIn, *|self)}
     * @return the terms in written order
     * @throws QuerySyntaxException on a syntax error (message: token and column)
     * @throws UnsupportedQueryException on a construct the spec refuses
     */
    public static QueryAst parse(String text) {
        if (text == null) {
            throw new QuerySyntaxException("empty query at column 1", "", 1);
        }
        QueryParser p = new QueryParser(text);
        if (p.peek().kind() == TokenKind.EOF) {
            throw new QuerySyntaxException("empty query at column 1", "", 1);
        }
        List<Term> terms = p.list(TokenKind.EOF);
        p.expect(TokenKind.EOF);
        if (terms.get(0).isScope()) {
            throw new UnsupportedQueryException("query scope as the first term", "!{", terms.get(0).column());
        }
        return new QueryAst(text, terms);
    }

    // ---------------------------------------------------------------- structure

    private List<Term> list(TokenKind end) {
        List<Term> terms = new ArrayList<>();
        while (true) {
            chain(terms);
            Token t = peek();
            if (t.kind() == TokenKind.COMMA) {
                pos++;
                if (peek().kind() == end) {
                    return terms; // trailing comma
                }
                continue;
            }
            if (t.kind() == end) {
                return terms;
            }
            throw unexpected(t);
        }
    }

    private void chain(List<Term> out) {
        Term t = term();
        while (peek().kind() == TokenKind.OROR) {
            Token or = next();
            if (t.oper() != Operator.AND || t.isScope()) {
                throw new QuerySyntaxException("'||' cannot follow a '" + t.oper().prefix().trim()
                    + "' term at column " + or.column(), "||", or.column());
            }
            out.add(t.withOper(Operator.OR));
            t = term();
            if (t.oper() != Operator.AND || t.isScope()) {
                throw new QuerySyntaxException("operator '" + t.oper().prefix().trim()
                    + "' inside an '||' chain at column " + t.column(), t.oper().prefix().trim(), t.column());
            }
        }
        out.add(t);
    }

    private Term term() {
        Token start = peek();
        int col = start.column();
        if (++termCount > MAX_TERMS) {
            throw new QuerySyntaxException("query has more than " + MAX_TERMS + " terms (the next starts at column "
                + col + ")", start.raw(), col);
        }
        InOut inout = InOut.DEFAULT;
        if (start.kind() == TokenKind.LBRACKET) {
            pos++;
            Token m = next();
            inout = inout(m);
            expect(TokenKind.RBRACKET);
        }
        Operator oper = Operator.AND;
        Token t = peek();
        if (t.kind() == TokenKind.NOT) {
            pos++;
            oper = Operator.NOT;
            if (peek().kind() == TokenKind.LBRACE) {
                Token brace = next();
                if (peek().kind() == TokenKind.RBRACE) {
                    throw unexpected(peek());
                }
                if (++scopeDepth > MAX_SCOPE_DEPTH) {
                    throw new QuerySyntaxException("query scopes nested deeper than " + MAX_SCOPE_DEPTH + " at column "
                        + brace.column(), "{", brace.column());
                }
                List<Term> inner = list(TokenKind.RBRACE);
                expect(TokenKind.RBRACE);
                scopeDepth--;
                return new Term(Operator.NOT, inout, null, null, null, null, inner, col);
            }
        } else if (t.kind() == TokenKind.OPTIONAL) {
            pos++;
            oper = Operator.OPTIONAL;
        } else if (t.kind() == TokenKind.IDENT && peek(1).kind() == TokenKind.PIPE && fromOperator(t.text()) != null) {
            pos += 2;
            TermRef e = element(Position.FIRST);
            return new Term(fromOperator(t.text()), inout, e, null, TermRef.implicitThis(Traversal.NONE), null, null, col);
        }
        if (peek().kind() == TokenKind.LBRACE) {
            Token b = peek();
            throw new UnsupportedQueryException("query scope without '!'", "{", b.column());
        }
        return atom(oper, inout, col);
    }

    private Term atom(Operator oper, InOut inout, int col) {
        Token t = peek();
        if (t.kind() == TokenKind.LPAREN) {
            pos++;
            TermRef first = element(Position.FIRST);
            expect(TokenKind.COMMA);
            TermRef second = element(Position.SECOND);
            expect(TokenKind.RPAREN);
            return new Term(oper, inout, first, second, TermRef.implicitThis(Traversal.NONE), null, null, col);
        }
        if (t.kind() == TokenKind.VARIABLE && isPredicate(peek(1).kind())) {
            TermRef left = element(Position.SOURCE);
            Token op = next();
            Predicate pred = op.kind() == TokenKind.EQ ? Predicate.EQ
                : op.kind() == TokenKind.NEQ ? Predicate.NEQ : Predicate.MATCH;
            TermRef right;
            Token r = peek();
            if (r.kind() == TokenKind.STRING) {
                pos++;
                right = new TermRef(TermRef.Kind.STRING, r.text(), null, Traversal.NONE, r.column());
            } else if (pred == Predicate.MATCH) {
                throw new QuerySyntaxException("expected a string after '~=' at column " + r.column()
                    + ", found " + r.display(), r.raw(), r.column());
            } else {
                right = element(Position.SECOND);
                if (right.kind() == TermRef.Kind.WILDCARD || right.kind() == TermRef.Kind.ANY) {
                    throw unexpectedAt(right.name(), right.column());
                }
            }
            return new Term(oper, inout, null, right, left, pred, null, col);
        }
        TermRef first = element(Position.FIRST);
        if (isPredicate(peek().kind())) {
            Token op = peek();
            throw new QuerySyntaxException("left side of '" + op.text() + "' must be a variable, found '"
                + first.name() + "' at column " + first.column(), first.name(), first.column());
        }
        if (peek().kind() != TokenKind.LPAREN) {
            return new Term(oper, inout, first, null, TermRef.implicitThis(Traversal.NONE), null, null, col);
        }
        Token lp = next();
        if (peek().kind() == TokenKind.RPAREN) {
            throw new UnsupportedQueryException("term without a source '()'", "()", lp.column());
        }
        TermRef source = element(Position.SOURCE);
        TermRef second = null;
        if (peek().kind() == TokenKind.COMMA) {
            pos++;
            second = element(Position.SECOND);
        }
        expect(TokenKind.RPAREN);
        return new Term(oper, inout, first, second, source, null, null, col);
    }

    // ---------------------------------------------------------------- elements

    private TermRef element(Position where) {
        Token t = peek();
        TermRef ref;
        switch (t.kind()) {
            case IDENT:
                if (where == Position.SOURCE && isFlag(t.text())) {
                    return TermRef.implicitThis(flags());
                }
                pos++;
                ref = "_".equals(t.text())
                    ? new TermRef(TermRef.Kind.ANY, "_", null, Traversal.NONE, t.column())
                    : new TermRef(TermRef.Kind.ENTITY, t.text(), null, Traversal.NONE, t.column());
                break;
            case VARIABLE: {
                pos++;
                String name = t.text();
                String lookup = null;
                int dot = name.indexOf('.');
                if (dot >= 0) {
                    lookup = name.substring(dot + 1);
                    name = name.substring(0, dot);
                }
                if ("This".equals(name)) {
                    name = TermRef.THIS;
                }
                ref = new TermRef(TermRef.Kind.VARIABLE, name, lookup, Traversal.NONE, t.column());
                break;
            }
            case STAR:
                pos++;
                ref = new TermRef(TermRef.Kind.WILDCARD, "*", null, Traversal.NONE, t.column());
                break;
            case DOLLAR:
                if (where != Position.SOURCE) {
                    throw unexpected(t);
                }
                // Flecs v4.1 removed the '$' source (conformance NOTES K10), which FEATURES QL-06
                // still lists; the conformance answers of real Flecs decide: an error
                throw new QuerySyntaxException("the '$' source at column " + t.column() + " was removed in Flecs v4.1:"
                        + " give the component the Singleton trait and write the term without a source, or name its"
                        + " entity as the source, e.g. Input(Input)", "$", t.column());
            default:
                throw unexpected(t);
        }
        if (peek().kind() == TokenKind.PIPE) {
            pos++;
            ref = ref.withTraversal(flags());
        }
        return ref;
    }

    private Traversal flags() {
        boolean self = false, up = false, cascade = false, desc = false;
        TermRef rel = null;
        int col = peek().column();
        while (true) {
            Token f = next();
            if (f.kind() != TokenKind.IDENT) {
                throw new QuerySyntaxException("expected a traversal flag (self, up, cascade, desc) at column "
                    + f.column() + ", found " + f.display(), f.raw(), f.column());
            }
            String k = f.text();
            switch (k) {
                case "self":
                    self = true;
                    break;
                case "up":
                case "super":
                case "superset":
                case "cascade": {
                    if (k.equals("cascade")) {
                        cascade = true;
                    } else {
                        up = true;
                    }
                    TermRef r = traversalRelationship();
                    if (r != null) {
                        rel = r;
                    }
                    break;
                }
                case "parent":
                    up = true;
                    rel = new TermRef(TermRef.Kind.ENTITY, "ChildOf", null, Traversal.NONE, f.column());
                    break;
                case "desc":
                    desc = true;
                    break;
                case "subset":
                case "sub":
                case "all":
                case "down":
                    throw new UnsupportedQueryException("traversal '" + k + "'", k, f.column());
                default:
                    throw new QuerySyntaxException("unknown traversal flag '" + k + "' at column " + f.column(),
                        k, f.column());
            }
            if (peek().kind() != TokenKind.PIPE) {
                return new Traversal(self, up, cascade, desc, rel, col);
            }
            pos++;
        }
    }

    /** The relationship after {@code up}/{@code cascade}: {@code up R} or the older {@code up(R)}. */
    private TermRef traversalRelationship() {
        Token t = peek();
        if (t.kind() == TokenKind.IDENT && !isFlag(t.text())) {
            pos++;
            return new TermRef(TermRef.Kind.ENTITY, t.text(), null, Traversal.NONE, t.column());
        }
        if (t.kind() == TokenKind.LPAREN && peek(1).kind() == TokenKind.IDENT && peek(2).kind() == TokenKind.RPAREN) {
            Token r = peek(1);
            pos += 3;
            return new TermRef(TermRef.Kind.ENTITY, r.text(), null, Traversal.NONE, r.column());
        }
        return null;
    }

    // ---------------------------------------------------------------- helpers

    private static boolean isFlag(String s) {
        switch (s) {
            case "self": case "up": case "cascade": case "desc": case "parent": case "super": case "superset":
            case "subset": case "sub": case "all": case "down":
                return true;
            default:
                return false;
        }
    }

    private static Operator fromOperator(String s) {
        switch (s.toLowerCase(Locale.ROOT)) {
            case "and": return Operator.AND_FROM;
            case "or": return Operator.OR_FROM;
            case "not": return Operator.NOT_FROM;
            default: return null;
        }
    }

    private static boolean isPredicate(TokenKind k) {
        return k == TokenKind.EQ || k == TokenKind.NEQ || k == TokenKind.MATCH;
    }

    private static InOut inout(Token m) {
        if (m.kind() == TokenKind.IDENT) {
            switch (m.text()) {
                case "in": return InOut.IN;
                case "out": return InOut.OUT;
                case "inout": return InOut.INOUT;
                case "none": return InOut.NONE;
                case "filter": return InOut.FILTER;
                default:
                    throw new QuerySyntaxException("unknown access modifier '" + m.text() + "' at column "
                        + m.column(), m.text(), m.column());
            }
        }
        throw new QuerySyntaxException("expected an access modifier (in, out, inout, none, filter) at column "
            + m.column() + ", found " + m.display(), m.raw(), m.column());
    }

    private Token peek() {
        return tokens.get(pos);
    }

    private Token peek(int ahead) {
        int i = Math.min(pos + ahead, tokens.size() - 1);
        return tokens.get(i);
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (t.kind() != TokenKind.EOF) {
            pos++;
        }
        return t;
    }

    private void expect(TokenKind k) {
        Token t = peek();
        if (t.kind() != k) {
            throw unexpected(t);
        }
        next();
    }

    private static QuerySyntaxException unexpected(Token t) {
        return new QuerySyntaxException("unexpected " + t.display() + " at column " + t.column(), t.raw(), t.column());
    }

    private static QuerySyntaxException unexpectedAt(String tok, int col) {
        return new QuerySyntaxException("unexpected '" + tok + "' at column " + col, tok, col);
    }

    @Override
    public String toString() {
        return "QueryParser[" + text + "]";
    }
}
