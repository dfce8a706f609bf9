package dev.quiver.query.parse;

import java.util.List;

/**
 * A parsed query: its text and its terms in written order. Immutable.
 *
 * @param text the query text as given
 * @param terms the terms; Or chains are consecutive terms, all but the last with
 *     {@link Operator#OR}
 */
public record QueryAst(String text, List<Term> terms) {

    public QueryAst {
        terms = List.copyOf(terms);
    }

    /** Canonical query text: terms joined by ", ", Or chains by " || " (QL-24). */
    public String canonical() {
        return join(terms);
    }

    static String join(List<Term> terms) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < terms.size(); i++) {
            Term t = terms.get(i);
            sb.append(t);
            if (i + 1 < terms.size()) {
                sb.append(t.oper() == Operator.OR ? " || " : ", ");
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return canonical();
    }
}
