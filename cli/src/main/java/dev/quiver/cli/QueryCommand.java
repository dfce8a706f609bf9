package dev.quiver.cli;

import dev.quiver.error.BadInputException;
import dev.quiver.storage.World;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code quiver query WORLD QUERY}: runs Flecs-language queries. Its model is built by
 * {@link #spec} through picocli's programmatic API, not read from annotations (start-up; see
 * {@link Quiver}); the arguments are read from that model when the command runs.
 */
final class QueryCommand extends BaseCommand {
    Path world;
    String query;
    ResultFormat format;
    Integer limit;
    Path queriesFile;
    boolean explain;
    Map<String, String> vars;
    boolean cached;
    String groupBy;
    String orderBy;

    /** The arguments of the model, in the order of the fields above. */
    private PositionalParamSpec worldArg;
    private PositionalParamSpec queryArg;
    private OptionSpec formatOption;
    private OptionSpec limitOption;
    private OptionSpec queriesFileOption;
    private OptionSpec explainOption;
    private OptionSpec varOption;
    private OptionSpec cachedOption;
    private OptionSpec groupByOption;
    private OptionSpec orderByOption;

    private QueryCommand() {}

    /**
     * The model of {@code query}: its help texts, parameters and options, for a new command under
     * {@code root} (the {@code --verbose} option is inherited from {@code root} when this model is
     * added to it).
     */
    static CommandSpec spec(Quiver root) {
        QueryCommand c = new QueryCommand();
        c.root = root;
        CommandSpec s = CommandSpec.wrapWithoutInspection(c).name("query");
        c.spec = s;
        s.usageMessage().header("Run a query (Flecs query language).").description(
                "Runs QUERY, comma-separated terms such as (KindOf, dog_n_01), KindOf(dog_n_01, $x), "
                        + "!(R, T), ?T, over WORLD (opened read-only). Transitive relationships are followed.",
                "--queries-file runs every query of a file instead: one per line; blank lines and lines "
                        + "starting with # are skipped, and text after a TAB is ignored (so answers.tsv works; its "
                        + "header line is skipped).",
                "--format canonical prints the conformance block of each query (conformance/FORMAT.md: rows "
                        + "'<this> | <vars> | <fields>' sorted by bytes, then 'count: N'; 'error' for a query that fails "
                        + "to parse or validate); with --queries-file, lines are only stripped (no TAB rule, no header).",
                "Rows are printed as they are found (table by table); fields that carry data print their "
                        + "component value. --format csv and tsv print one line per result with a header.",
                "Example: quiver query w '(KindOf, dog_n_01)' --limit 5");
        s.addOption(helpOption());
        c.worldArg = PositionalParamSpec.builder().index("0").required(true).paramLabel("WORLD").type(Path.class)
                .description("The world directory (must exist).").build();
        c.queryArg = PositionalParamSpec.builder().index("1").arity("0..1").paramLabel("QUERY").type(String.class)
                .description("The query text.").build();
        c.formatOption = OptionSpec.builder("--format").paramLabel("FORMAT").type(ResultFormat.class).defaultValue("table")
                .description("Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). count prints the number "
                        + "of results alone; canonical the conformance blocks.").build();
        c.limitOption = OptionSpec.builder("--limit").paramLabel("N").type(Integer.class)
                .description("Print at most N results (count is still the total).").build();
        c.queriesFileOption = OptionSpec.builder("--queries-file").paramLabel("FILE").type(Path.class)
                .description("Run every query in FILE, one per line.").build();
        c.explainOption = OptionSpec.builder("--explain").type(boolean.class)
                .description("Print the compiled program, one instruction per line (nested "
                        + "steps indented), instead of evaluating the query.").build();
        c.varOption = ((OptionSpec.Builder) OptionSpec.builder("--var").paramLabel("NAME=ENTITY")
                .type(LinkedHashMap.class).auxiliaryTypes(String.class, String.class)
                .description("Set variable $NAME to ENTITY (a name, path or id) before evaluation, instead of pasting "
                        + "the name into the query text; repeatable. Not with --queries-file or --format canonical.")
                .mapFallbackValue("")).build();
        c.cachedOption = OptionSpec.builder("--cached").type(boolean.class)
                .description("Evaluate as a cached query (Flecs v4): allows cascade and "
                        + "cascade|desc, which order results by depth (refused on uncached queries, as in Flecs).").build();
        c.groupByOption = OptionSpec.builder("--group-by").paramLabel("R").type(String.class)
                .description("Group results by the target of relationship R "
                        + "on $this (groups in ascending id order, none first); implies --cached.").build();
        c.orderByOption = OptionSpec.builder("--order-by").paramLabel("KEY").type(String.class)
                .description("Sort results (inside groups) by 'id' or "
                        + "'Component.member' of $this, ascending, or descending with 'KEY desc'; implies --cached.").build();
        s.addPositional(c.worldArg).addPositional(c.queryArg);
        for (OptionSpec o : new OptionSpec[] {c.formatOption, c.limitOption, c.queriesFileOption, c.explainOption,
                c.varOption, c.cachedOption, c.groupByOption, c.orderByOption}) {
            s.addOption(o);
        }
        return s;
    }

    /** Reads the parsed arguments from the model into the fields. */
    private void readArguments() {
        world = worldArg.getValue();
        query = queryArg.getValue();
        format = formatOption.getValue();
        limit = limitOption.getValue();
        queriesFile = queriesFileOption.getValue();
        explain = Boolean.TRUE.equals(explainOption.getValue());
        Map<String, String> v = varOption.getValue();
        vars = v == null ? new LinkedHashMap<>() : v;
        cached = Boolean.TRUE.equals(cachedOption.getValue());
        groupBy = groupByOption.getValue();
        orderBy = orderByOption.getValue();
    }

    @Override
    public Integer call() {
        Trace.mark("picocli");
        readArguments();
        if ((query == null) == (queriesFile == null)) {
            throw new CliInputException(query == null ? "give a QUERY or --queries-file" : "give a QUERY or --queries-file, not both");
        }
        if (limit != null && limit < 0) {
            throw new CliInputException("--limit must be 0 or more, got " + limit);
        }
        if (!vars.isEmpty() && (queriesFile != null || format == ResultFormat.canonical)) {
            throw new CliInputException("--var applies to a single QUERY, not to --queries-file or --format canonical");
        }
        for (var v : vars.entrySet()) {
            if (v.getValue().isEmpty() || !v.getKey().matches("\\$?[A-Za-z][A-Za-z0-9_]*")) {
                throw new CliInputException("--var takes NAME=ENTITY, got '" + v.getKey()
                        + (v.getValue().isEmpty() ? "" : "=" + v.getValue()) + "'");
            }
        }
        if (cached || groupBy != null || orderBy != null) {
            return cachedQuery();
        }
        if (explain) {
            if (queriesFile != null) {
                throw new CliInputException("--explain applies to a single QUERY, not to --queries-file");
            }
            try (World w = openReader(world)) {
                out().print(Answer.parse(w, query, vars).plan());
            }
            return ExitCodes.OK;
        }
        if (format == ResultFormat.canonical) {
            return canonical();
        }
        List<String[]> queries = queriesFile == null ? null : readQueries(queriesFile);
        try (World w = openReader(world)) {
            Trace.mark("open");
            if (format == ResultFormat.count) {
                if (queries == null) {
                    out().println(Answer.evaluate(w, query, vars, limit, true).count);
                }
                for (String[] q : queries == null ? List.<String[]>of() : queries) {
                    out().println(q[1] + "\t" + inFile(q, () -> Answer.evaluate(w, q[1], limit, true)).count);
                    out().flush();
                }
                return ExitCodes.OK;
            }
            ResultFormat.Printer printer = format.printer(out(), queries != null);
            boolean countFirst = format.countFirst(queries != null);
            if (queries == null) {
                Answer.stream(w, query, vars, limit, countFirst, printer);
            }
            for (String[] q : queries == null ? List.<String[]>of() : queries) {
                inFile(q, () -> {
                    Answer.stream(w, q[1], java.util.Map.of(), limit, countFirst, printer);
                    return null;
                });
                out().flush();
            }
            printer.close();
        }
        return ExitCodes.OK;
    }

    /** Runs the evaluation of a query of --queries-file, naming the file and line in its error. */
    private <T> T inFile(String[] q, java.util.function.Supplier<T> evaluation) {
        try {
            return evaluation.get();
        } catch (BadInputException e) {
            throw new CliInputException(queriesFile + ":" + q[0] + ": " + e.getMessage(), e);
        }
    }

    /** {@code --cached}, {@code --group-by}, {@code --order-by}: one QUERY through a cached query. */
    private int cachedQuery() {
        if (queriesFile != null || explain || format == ResultFormat.canonical) {
            throw new CliInputException("--cached, --group-by and --order-by apply to a single QUERY, not to "
                    + "--queries-file, --explain or --format canonical");
        }
        String key = null;
        boolean descending = false;
        if (orderBy != null) {
            String[] parts = orderBy.strip().split("\\s+");
            if (parts.length > 2 || (parts.length == 2 && !parts[1].equals("desc") && !parts[1].equals("asc"))) {
                throw new CliInputException("--order-by takes KEY or 'KEY desc', got '" + orderBy + "'");
            }
            key = parts[0];
            descending = parts.length == 2 && parts[1].equals("desc");
        }
        try (World w = openReader(world)) {
            if (format == ResultFormat.count) {
                out().println(Answer.streamCached(w, query, vars, groupBy, key, descending, limit, false, null));
                return ExitCodes.OK;
            }
            ResultFormat.Printer printer = format.printer(out(), false);
            Answer.streamCached(w, query, vars, groupBy, key, descending, limit, format.countFirst(false), printer);
            printer.close();
        }
        return ExitCodes.OK;
    }

    /** {@code --format canonical}: one block per query, each printed as soon as it is evaluated. */
    private int canonical() {
        if (limit != null) {
            throw new CliInputException("--limit does not apply to --format canonical (it prints every row)");
        }
        List<String> queries = queriesFile == null ? List.of(query.strip()) : readCanonicalQueries(queriesFile);
        try (World w = openReader(world)) {
            for (String q : queries) {
                CanonicalBlock.print(w, q, out());
                out().flush();
            }
        }
        return ExitCodes.OK;
    }

    /**
     * The queries of a file the way the conformance format reads them (FORMAT.md): each line is
     * stripped of spaces, tabs and CR; empty lines and lines starting with {@code #} are skipped.
     */
    static List<String> readCanonicalQueries(Path file) {
        List<String> out = new ArrayList<>();
        for (String line : readLines(file)) {
            String q = strip(line);
            if (!q.isEmpty() && !q.startsWith("#")) {
                out.add(q);
            }
        }
        return out;
    }

    private static String strip(String s) {
        int b = 0, e = s.length();
        while (b < e && " \t\r".indexOf(s.charAt(b)) >= 0) {
            b++;
        }
        while (e > b && " \t\r".indexOf(s.charAt(e - 1)) >= 0) {
            e--;
        }
        return s.substring(b, e);
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CliInputException("cannot read " + file + ": " + (Files.exists(file) ? e.getMessage() : "no such file"), e);
        }
    }

    /** The queries of a file as {line number, query text}. */
    static List<String[]> readQueries(Path file) {
        List<String> lines = readLines(file);
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int tab = line.indexOf('\t');
            if (i == 0 && line.startsWith("query\t")) {
                continue;
            }
            String q = (tab >= 0 ? line.substring(0, tab) : line).strip();
            if (!q.isEmpty() && !q.startsWith("#")) {
                out.add(new String[] {Integer.toString(i + 1), q});
            }
        }
        return out;
    }
}
