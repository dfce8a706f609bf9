package dev.quiver.query.builder;

import dev.quiver.query.parse.InOut;
import dev.quiver.query.parse.Operator;
import dev.quiver.query.parse.QueryAst;
import dev.quiver.query.parse.Term;
import dev.quiver.query.parse.TermRef;
import dev.quiver.query.parse.Traversal;

import java.util.ArrayList;
import java.util.List;

/**
 * Gives built terms the columns they have in the query's canonical text
 * ({@link QueryAst#canonical()}), so that errors raised when the query is planned ("... at column
 * N") point into the text {@link dev.quiver.query.Query#text()} shows. Follows the layout of
 * {@link Term#toString()}: {@code [inout] }, the operator prefix, then {@code (first,second)},
 * {@code first}, {@code first(source,second)}, {@code source op second} or {@code {scope}}; an
 * element's flags follow it after {@code |}. An implicit source keeps column 0, as the parser
 * gives it.
 */
final class Columns {
    private Columns() {}

    /** The terms with columns assigned, the first one starting at column {@code start}. */
    static List<Term> assign(List<Term> terms, int start) {
        List<Term> out = new ArrayList<>(terms.size());
        int col = start;
        for (int i = 0; i < terms.size(); i++) {
            Term t = terms.get(i);
            out.add(term(t, col));
            col += t.toString().length();
            if (i + 1 < terms.size()) {
                col += t.oper() == Operator.OR ? 4 : 2; // " || " or ", "
            }
        }
        return out;
    }

    private static Term term(Term t, int col) {
        int c = col;
        if (t.inout() != InOut.DEFAULT) {
            c += t.inout().keyword().length() + 3; // "[kw] "
        }
        if (t.oper() != Operator.OR && t.oper() != Operator.AND) {
            c += t.oper().prefix().length();
        }
        if (t.isScope()) {
            return new Term(t.oper(), t.inout(), null, null, null, null, assign(t.scope(), c + 1), col);
        }
        if (t.isEquality()) {
            TermRef src = ref(t.source(), c);
            TermRef second = ref(t.second(), c + t.source().toString().length() + t.predicate().symbol().length() + 2);
            return new Term(t.oper(), t.inout(), null, second, src, t.predicate(), null, col);
        }
        TermRef src = t.source();
        boolean implicit = src.kind() == TermRef.Kind.DEFAULT && src.traversal().isNone();
        TermRef first;
        TermRef second = null;
        if (implicit) {
            if (t.second() != null) {
                first = ref(t.first(), c + 1);
                second = ref(t.second(), c + 2 + t.first().toString().length());
            } else {
                first = ref(t.first(), c);
            }
        } else {
            first = ref(t.first(), c);
            int s = c + t.first().toString().length() + 1;
            src = ref(src, s);
            if (t.second() != null) {
                second = ref(t.second(), s + t.source().toString().length() + 1);
            }
        }
        return new Term(t.oper(), t.inout(), first, second, src, null, null, col);
    }

    /** The element at {@code col}, its flags after its text and a '|'. */
    private static TermRef ref(TermRef r, int col) {
        Traversal tr = r.traversal();
        if (!tr.isNone()) {
            String base = r.withTraversal(Traversal.NONE).toString();
            int tc = col + base.length() + 1;
            TermRef rel = tr.relationship();
            if (rel != null) {
                String flags = new Traversal(tr.self(), tr.up(), tr.cascade(), false, null, 0).toString();
                rel = new TermRef(rel.kind(), rel.name(), rel.lookup(), rel.traversal(), tc + flags.length() + 1);
            }
            tr = new Traversal(tr.self(), tr.up(), tr.cascade(), tr.desc(), rel, tc);
        }
        int own = r.kind() == TermRef.Kind.DEFAULT ? 0 : col;
        return new TermRef(r.kind(), r.name(), r.lookup(), tr, own);
    }
}
