package dev.quiver.snapshots.script;

import dev.quiver.error.BadInputException;
import dev.quiver.index.Ids;
import dev.quiver.snapshots.SnapshotException;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Loads a Flecs Script file (the subset of {@code conformance/SUBSET.md}, Flecs v4.1.6) into a
 * world as one {@link World#transaction}: entities, children, tags, pairs, struct components with
 * values, pairs that carry values, entity kinds, prefabs, IsA bases ({@code e : B}), singleton
 * blocks ({@code $ { }}) and traits. Statements run in file order, so names must be declared
 * before use, as in Flecs.
 *
 * <p>Name resolution follows Flecs Script: a name in a tag, pair, component, kind or base position
 * is looked up from the innermost enclosing entity scope outward to the root; builtins resolve by
 * their plain name; the target of a relationship with the {@code OneOf} trait is looked up by its
 * short name in the OneOf scope. A declaration {@code Name { }} inside a scope always declares a
 * child of the scoped entity.
 *
 * <p>The world applies the trait rules (Exclusive, Symmetric, With, OneOf, Final, structural traits
 * in use); the loader adds the script rule that a {@code Singleton} component lives on its own
 * entity only. Instantiating a prefab's children under an instance ({@code e : P} with P a prefab)
 * and copying the base's components are the world's IsA rules (issue 9), not the loader's: the
 * loader adds {@code (IsA, B)} and nothing more.
 *
 * <p>Any error throws {@link FlecsScriptException} with {@code file:line:column}, and nothing of
 * the file is loaded.
 */
public final class FlecsScriptLoader {
    /**
     * The outcome of loading one script.
     *
     * @param file       the script
     * @param statements statements run (struct members, values and scope braces not counted)
     * @param entities   entities the world has after the load, builtins excluded
     * @param millis     wall time of the load, commit included, in milliseconds
     */
    public record Result(Path file, long statements, int entities, long millis) {}

    private final World world;

    /** @param world an open writable world */
    public FlecsScriptLoader(World world) {
        this.world = world;
    }

    /**
     * Loads one script file as one transaction.
     *
     * @throws FlecsScriptException at the first error (nothing of the file is loaded)
     * @throws SnapshotException    when the file cannot be read or is not UTF-8 (nothing is loaded)
     */
    public Result load(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new SnapshotException("file " + file + " does not exist");
        } catch (IOException e) {
            throw new SnapshotException("cannot read " + file + ": " + e.getMessage(), e);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new SnapshotException(file + " is not UTF-8 text");
        }
        return load(file, text);
    }

    /**
     * Loads script text as one transaction.
     *
     * @param file the name used in error messages
     * @throws FlecsScriptException at the first error (nothing of the text is loaded)
     */
    public Result load(Path file, String text) {
        long start = System.nanoTime();
        List<ScriptToken> tokens = ScriptLexer.tokens(file, text);
        long statements = world.transactionResult(w -> new Run(file, tokens).script());
        return new Result(file, statements, world.entityCount(), (System.nanoTime() - start) / 1_000_000);
    }

    /** One pass over the tokens of one file: a recursive descent parser that applies each statement. */
    private final class Run {
        private final Path file;
        private final List<ScriptToken> tokens;
        private int at;
        private boolean usingMeta;
        private long statements;
        /** The enclosing entity scopes, innermost first. */
        private final Deque<Long> scopes = new ArrayDeque<>();

        Run(Path file, List<ScriptToken> tokens) {
            this.file = file;
            this.tokens = tokens;
        }

        long script() {
            while (true) {
                skipEnds();
                if (peek().kind() == ScriptToken.Kind.EOF) {
                    return statements;
                }
                topStatement();
            }
        }

        // ------------------------------------------------------------ statements

        private void topStatement() {
            ScriptToken t = peek();
            if (t.isWord("using")) {
                next();
                ScriptToken what = expectPath("a module name after 'using'");
                if (!what.text().equals("flecs.meta")) {
                    throw error(what, "only 'using flecs.meta' is supported, got 'using " + what.text() + "'");
                }
                usingMeta = true;
                statements++;
                endStatement();
            } else if (t.isWord("struct")) {
                struct();
            } else if (t.is('$')) {
                singletons();
            } else if (t.kind() == ScriptToken.Kind.PATH) {
                entityStatement(true);
            } else {
                throw error(t, "expected a statement, got " + t.describe());
            }
        }

        /** {@code struct Name {} NL member = type NL ... }}: declares a component with members in order. */
        private void struct() {
            ScriptToken kw = next();
            if (!usingMeta) {
                throw error(kw, "'struct' needs 'using flecs.meta' before it");
            }
            ScriptToken name = expectPath("a struct name");
            if (name.text().indexOf('.') >= 0) {
                throw error(name, "a struct name is one identifier, got '" + name.text() + "'");
            }
            expectPunct('{', "'{' after the struct name");
            if (peek().kind() != ScriptToken.Kind.END || !peek().text().equals("\n")) {
                throw error(peek(), "a struct member goes on its own line after '{' (one-line structs are not Flecs Script)");
            }
            List<Schema.Field> fields = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            while (true) {
                skipEnds();
                if (peek().is('}')) {
                    next();
                    break;
                }
                ScriptToken member = expectPath("a member name or '}'");
                if (member.text().indexOf('.') >= 0) {
                    throw error(member, "a member name is one identifier, got '" + member.text() + "'");
                }
                expectPunct('=', "'=' after member '" + member.text() + "'");
                ScriptToken type = expectPath("a member type (f32, f64, i32, i64, bool, string)");
                FieldType ft = memberType(type);
                ScriptToken end = peek();
                if (end.kind() != ScriptToken.Kind.END || !end.text().equals("\n")) {
                    throw error(end, "expected a line end after member '" + member.text() + "', got " + end.describe());
                }
                if (!seen.add(member.text())) {
                    throw error(member, "struct " + name.text() + " has member '" + member.text() + "' twice");
                }
                fields.add(new Schema.Field(member.text(), ft));
            }
            if (fields.isEmpty()) {
                throw error(name, "struct " + name.text() + " has no members");
            }
            apply(name, () -> world.component(name.text(), new Schema(fields)));
            statements++;
            endStatement();
        }

        private FieldType memberType(ScriptToken type) {
            switch (type.text()) {
                case "f32": return FieldType.F32;
                case "f64": return FieldType.F64;
                case "i32": return FieldType.I32;
                case "i64": return FieldType.I64;
                case "bool": return FieldType.BOOL;
                case "string": return FieldType.STRING;
                default:
                    throw error(type, "unknown member type '" + type.text() + "' (the subset has f32, f64, i32, i64, bool, string)");
            }
        }

        /** {@code $ { P: {..} ... }}: each component goes on its own entity. */
        private void singletons() {
            next();
            expectPunct('{', "'{' after '$'");
            statements++;
            while (true) {
                skipEnds();
                ScriptToken t = peek();
                if (t.is('}')) {
                    next();
                    break;
                }
                if (t.kind() != ScriptToken.Kind.PATH) {
                    throw error(t, "a singleton block holds components ('P' or 'P: {..}'), got " + t.describe());
                }
                next();
                long c = resolve(t);
                if (peek().is(':')) {
                    next();
                    setValue(t, c, c, t.text());
                } else {
                    apply(t, () -> world.add(c, c));
                }
                statements++;
                endStatement();
            }
            endStatement();
        }

        /**
         * An entity statement: {@code [kind | prefab] PATH [: BASE] [{ ... }]}. At the top level a
         * scope or a kind is required.
         */
        private void entityStatement(boolean top) {
            ScriptToken first = next();
            ScriptToken kind = null;
            ScriptToken name;
            boolean prefab = false;
            if (peek().kind() == ScriptToken.Kind.PATH) {
                if (first.isWord("prefab")) {
                    prefab = true;
                } else {
                    kind = first;
                }
                name = next();
            } else {
                name = first;
            }
            ScriptToken base = null;
            if (peek().is(':')) {
                next();
                base = expectPath("a base entity after ':'");
            }
            boolean scoped = peek().is('{');
            if (top && !scoped && kind == null && !prefab) {
                throw error(name, "a top-level entity statement needs a scope '{ }' or a kind ('" + name.text()
                        + "' alone is not a statement)");
            }
            long kindId = kind == null ? 0 : resolve(kind);
            if (kind != null && world.schema(kindId) != null) {
                throw error(kind, "kind '" + kind.text() + "' is a component; a kind must be a tag");
            }
            long baseId = base == null ? 0 : resolve(base);
            long e = declare(name);
            if (prefab) {
                apply(first, () -> world.add(e, Builtin.PREFAB));
            }
            if (kind != null) {
                addId(kind, e, kindId);
            }
            if (base != null) {
                ScriptToken b = base;
                apply(b, () -> world.add(e, world.pair(Builtin.IS_A, baseId)));
            }
            statements++;
            if (scoped) {
                next();
                scopes.push(e);
                try {
                    scopeBody();
                } finally {
                    scopes.pop();
                }
            }
            endStatement();
        }

        /** Statements up to and including the closing '}' of an entity scope. */
        private void scopeBody() {
            long e = scopes.peek();
            while (true) {
                skipEnds();
                ScriptToken t = peek();
                if (t.is('}')) {
                    next();
                    return;
                }
                if (t.is('(')) {
                    pair(e);
                } else if (t.kind() == ScriptToken.Kind.PATH) {
                    ScriptToken after = peek(1);
                    if (after.is('{') || after.kind() == ScriptToken.Kind.PATH
                            || (after.is(':') && peek(2).kind() == ScriptToken.Kind.PATH)) {
                        entityStatement(false);
                        continue;
                    }
                    next();
                    long id = resolve(t);
                    if (after.is(':')) {
                        next();
                        setValue(t, e, id, t.text());
                    } else {
                        addId(t, e, id);
                    }
                    statements++;
                    endStatement();
                } else if (t.kind() == ScriptToken.Kind.EOF) {
                    throw error(t, "missing '}' at the end of the file");
                } else {
                    throw error(t, "expected a statement or '}', got " + t.describe());
                }
            }
        }

        /** {@code (R, t)} or {@code (R, t): {..}} added to {@code e}. */
        private void pair(long e) {
            ScriptToken open = next();
            ScriptToken first = expectPath("a relationship after '('");
            expectPunct(',', "',' in the pair");
            ScriptToken second = expectPath("a target in the pair");
            expectPunct(')', "')' closing the pair");
            long rel = resolve(first);
            long tgt = target(rel, first, second);
            long id = world.pair(rel, tgt);
            String text = "(" + first.text() + ", " + second.text() + ")";
            if (peek().is(':')) {
                next();
                setValue(open, e, id, text);
            } else {
                addId(open, e, id);
            }
            statements++;
            endStatement();
        }

        // ------------------------------------------------------------ values

        /** Parses {@code {..}} and sets it as the value of {@code id} on {@code e}. */
        private void setValue(ScriptToken at, long e, long id, String idText) {
            checkSingleton(at, e, id);
            Schema schema = world.schema(id);
            ScriptToken open = peek();
            if (schema == null) {
                throw error(at, idText + " is a tag and carries no value");
            }
            Map<String, Object> value = value(schema, idText);
            apply(open, () -> world.set(e, id, value));
        }

        /** {@code { [name:] literal, ... }}: named members or positional in member order. */
        private Map<String, Object> value(Schema schema, String idText) {
            expectPunct('{', "'{' starting the value of " + idText);
            Map<String, Object> out = new LinkedHashMap<>();
            int position = 0;
            skipEnds();
            if (peek().is('}')) {
                next();
                return out;
            }
            while (true) {
                skipEnds();
                ScriptToken t = peek();
                int member;
                if (t.kind() == ScriptToken.Kind.PATH && peek(1).is(':')) {
                    next();
                    next();
                    member = schema.indexOf(t.text());
                    if (member < 0) {
                        throw error(t, idText + " has no member '" + t.text() + "' (members: " + memberNames(schema) + ")");
                    }
                } else {
                    member = position;
                    if (member >= schema.size()) {
                        throw error(t, "too many values for " + idText + " (" + schema.size() + " member"
                                + (schema.size() == 1 ? "" : "s") + ")");
                    }
                }
                ScriptToken lit = next();
                Object v = literal(lit);
                String mname = schema.field(member).name();
                if (out.containsKey(mname)) {
                    throw error(lit, "member '" + mname + "' of " + idText + " is given twice");
                }
                out.put(mname, v);
                position = member + 1;
                skipEnds();
                ScriptToken sep = next();
                if (sep.is('}')) {
                    return out;
                }
                if (!sep.is(',')) {
                    throw error(sep, "expected ',' or '}' in the value of " + idText + ", got " + sep.describe());
                }
            }
        }

        private String memberNames(Schema schema) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < schema.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(schema.field(i).name());
            }
            return sb.toString();
        }

        private Object literal(ScriptToken t) {
            switch (t.kind()) {
                case NUMBER: {
                    String s = t.text();
                    if (s.indexOf('.') < 0 && s.indexOf('e') < 0 && s.indexOf('E') < 0) {
                        try {
                            return Long.parseLong(s);
                        } catch (NumberFormatException e) {
                            throw error(t, "integer " + s + " does not fit 64 bits");
                        }
                    }
                    return Double.parseDouble(s);
                }
                case STRING:
                    return t.text();
                case PATH:
                    if (t.text().equals("true")) {
                        return Boolean.TRUE;
                    }
                    if (t.text().equals("false")) {
                        return Boolean.FALSE;
                    }
                    throw error(t, "expected a value (number, string, true or false), got " + t.describe()
                            + " (expressions and variables are outside the subset)");
                default:
                    throw error(t, "expected a value (number, string, true or false), got " + t.describe());
            }
        }

        // ------------------------------------------------------------ names and world calls

        /** Creates (or reopens) the entity {@code name} in the current scope. */
        private long declare(ScriptToken name) {
            Long scope = scopes.peek();
            String path = scope == null ? name.text() : world.path(scope) + "." + name.text();
            long[] e = new long[1];
            apply(name, () -> e[0] = world.entity(path));
            if (Builtin.isBuiltin(e[0])) {
                throw error(name, "'" + name.text() + "' names a builtin and cannot be declared");
            }
            return e[0];
        }

        /** Looks up a path from the innermost scope outward to the root. */
        private long resolve(ScriptToken name) {
            for (long scope : scopes) {
                long e = world.lookup(world.path(scope) + "." + name.text());
                if (e != 0) {
                    return e;
                }
            }
            long e = world.lookup(name.text());
            if (e == 0) {
                throw error(name, "unresolved identifier '" + name.text() + "'");
            }
            return e;
        }

        /** The target of {@code (rel, name)}: looked up in the OneOf scope when {@code rel} has one. */
        private long target(long rel, ScriptToken first, ScriptToken name) {
            long scope = 0;
            if (world.has(rel, Builtin.ONE_OF)) {
                scope = rel;
            } else {
                long[] t = world.targets(rel, Builtin.ONE_OF);
                if (t.length > 0) {
                    scope = t[0];
                }
            }
            if (scope == 0) {
                return resolve(name);
            }
            long e = world.lookup(world.path(scope) + "." + name.text());
            if (e == 0) {
                throw error(name, "target '" + name.text() + "' not found in '" + world.path(scope) + "' (" + first.text()
                        + " is OneOf: write the target's short name)");
            }
            return e;
        }

        private void addId(ScriptToken at, long e, long id) {
            checkSingleton(at, e, id);
            apply(at, () -> world.add(e, id));
        }

        /** Script rule 6: a Singleton component lives on its own entity only (Flecs aborts otherwise). */
        private void checkSingleton(ScriptToken at, long e, long id) {
            if (id != e && !Ids.isPair(id) && world.has(id, Builtin.SINGLETON)) {
                throw error(at, "'" + world.path(id) + "' is a Singleton: it can only be added to itself (in '$ { }')");
            }
        }

        /** Runs a world call, turning a refusal into an error at {@code at}. */
        private void apply(ScriptToken at, Runnable call) {
            try {
                call.run();
            } catch (FlecsScriptException e) {
                throw e;
            } catch (BadInputException e) {
                throw new FlecsScriptException(file, at.line(), at.column(), e.getMessage(), e);
            }
        }

        // ------------------------------------------------------------ tokens

        private ScriptToken peek() {
            return tokens.get(at);
        }

        private ScriptToken peek(int ahead) {
            return tokens.get(Math.min(at + ahead, tokens.size() - 1));
        }

        private ScriptToken next() {
            ScriptToken t = tokens.get(at);
            if (t.kind() != ScriptToken.Kind.EOF) {
                at++;
            }
            return t;
        }

        private void skipEnds() {
            while (peek().kind() == ScriptToken.Kind.END) {
                at++;
            }
        }

        /** A statement ends at a line end, ';', a closing '}' (not consumed) or the end of the file. */
        private void endStatement() {
            ScriptToken t = peek();
            if (t.kind() == ScriptToken.Kind.END) {
                at++;
            } else if (!t.is('}') && t.kind() != ScriptToken.Kind.EOF) {
                throw error(t, "expected the end of the statement (a line end or ';'), got " + t.describe());
            }
        }

        private ScriptToken expectPath(String what) {
            ScriptToken t = next();
            if (t.kind() != ScriptToken.Kind.PATH) {
                throw error(t, "expected " + what + ", got " + t.describe());
            }
            return t;
        }

        private void expectPunct(char p, String what) {
            ScriptToken t = next();
            if (!t.is(p)) {
                throw error(t, "expected " + what + ", got " + t.describe());
            }
        }

        private FlecsScriptException error(ScriptToken t, String detail) {
            return new FlecsScriptException(file, t.line(), t.column(), detail, null);
        }
    }
}
