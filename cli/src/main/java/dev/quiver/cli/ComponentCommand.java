package dev.quiver.cli;

import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.ValueException;
import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code quiver component WORLD NAME FIELD:TYPE[MIN..MAX][=DEFAULT]...}: declares a component schema. */
@Command(name = "component", header = "Declare a component with typed fields.",
        description = {"Declares NAME (created when missing) as a component whose values have the given "
                + "fields. Types: f32, f64, i32, i64, bool, string, entity. Declaring the same schema again "
                + "changes nothing; another schema (other fields or other defaults) is an error. A field may "
                + "carry a default (FIELD:TYPE=VALUE, Tecs defaults): a component or a pair carrying it that is "
                + "added without a value, or set with that field left out when new, takes the default. A number "
                + "field may carry an inclusive range (FIELD:TYPE[MIN..MAX], either end may be left out): a value "
                + "outside it is refused, by every set and in the default.",
            "Example: quiver component w Position x:f64 y:f64",
            "Example: quiver component w Follows delay:f64=0.5 maxDistance:f64=100",
            "Example: quiver component w Health value:i64[0..100]=100 regen:f64[0..]"})
final class ComponentCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "NAME", description = "The component's name or path.")
    String name;

    @Parameters(index = "2..*", arity = "1..*", paramLabel = "FIELD:TYPE[MIN..MAX][=DEFAULT]",
            description = "The fields, in order, each with an optional range (numbers only) and default (a component "
                + "added without a value takes it).")
    List<String> fields;

    @Override
    public Integer call() {
        Schema schema = parse(fields);
        try (World w = openWriter(world)) {
            w.component(name, schema);
            out().println("component " + name + " " + schema);
        }
        return ExitCodes.OK;
    }

    static Schema parse(List<String> specs) {
        List<Schema.Field> list = new ArrayList<>();
        java.util.Map<String, Object> defaults = new java.util.LinkedHashMap<>();
        java.util.Map<String, double[]> ranges = new java.util.LinkedHashMap<>();
        for (String spec : specs) {
            int colon = spec.indexOf(':');
            if (colon <= 0 || colon == spec.length() - 1) {
                throw new ValueException("malformed field '" + spec + "': expected NAME:TYPE, e.g. x:f64");
            }
            String rest = spec.substring(colon + 1);
            int eq = rest.indexOf('=');
            String fieldName = spec.substring(0, colon).trim();
            String typeText = (eq < 0 ? rest : rest.substring(0, eq)).trim();
            int bracket = typeText.indexOf('[');
            if (bracket >= 0) {
                ranges.put(fieldName, range(fieldName, typeText.substring(bracket)));
                typeText = typeText.substring(0, bracket).trim();
            }
            FieldType type = FieldType.parse(typeText);
            list.add(new Schema.Field(fieldName, type));
            if (eq >= 0) {
                defaults.put(fieldName, defaultValue(fieldName, type, rest.substring(eq + 1)));
            }
        }
        Schema schema = new Schema(list);
        for (var r : ranges.entrySet()) {
            schema = schema.withRange(r.getKey(), r.getValue()[0], r.getValue()[1]);
        }
        return schema.withDefaults(defaults);
    }

    /**
     * A range {@code [MIN..MAX]}; a left-out end is open (infinite).
     *
     * @throws ValueException when it is malformed
     */
    private static double[] range(String field, String text) {
        int dots = text.indexOf("..");
        if (!text.endsWith("]") || dots < 0) {
            throw new ValueException("field '" + field + "': malformed range '" + text + "', expected [MIN..MAX], e.g. [0..100]");
        }
        String lo = text.substring(1, dots).trim(), hi = text.substring(dots + 2, text.length() - 1).trim();
        try {
            return new double[] {lo.isEmpty() ? Double.NEGATIVE_INFINITY : Double.parseDouble(lo),
                hi.isEmpty() ? Double.POSITIVE_INFINITY : Double.parseDouble(hi)};
        } catch (NumberFormatException e) {
            throw new ValueException("field '" + field + "': malformed range '" + text + "': an end is not a number");
        }
    }

    /**
     * A default given on the command line, as its field's type reads it: a number, true or false,
     * or the text itself for a string.
     *
     * @throws ValueException when the text does not fit the type
     */
    private static Object defaultValue(String field, FieldType type, String text) {
        try {
            switch (type) {
                case STRING: return text;
                case BOOL:
                    if (text.equals("true") || text.equals("false")) {
                        return Boolean.parseBoolean(text);
                    }
                    throw new ValueException("field '" + field + "' is bool: its default must be true or false, got '" + text + "'");
                case F32:
                case F64: return Double.parseDouble(text.trim());
                case I32:
                case I64: return Long.parseLong(text.trim());
                default:
                    throw new ValueException("field '" + field + "' is " + type.spelling() + ": it takes no default from the command line");
            }
        } catch (NumberFormatException e) {
            throw new ValueException("field '" + field + "' is " + type.spelling() + ": '" + text + "' is not a number");
        }
    }
}
