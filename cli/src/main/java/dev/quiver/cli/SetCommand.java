package dev.quiver.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.ValueException;
import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code quiver set WORLD ENTITY COMPONENT JSON}: sets a component value. */
@Command(name = "set", header = "Set a component value on an entity.",
        description = {"Sets COMPONENT (a component declared with 'quiver component', or a pair whose "
                + "relationship or target is one) on ENTITY, adding it when missing. JSON is an object of "
                + "field values (fields left out keep their value) or an array of values in field order. "
                + "Entity fields take names. ENTITY is created when missing.",
            "Example: quiver set w ship Position '{\"x\": 1.5, \"y\": 2}'"})
final class SetCommand extends BaseCommand {
    @Mixin
    ScopeOption scope = new ScopeOption();

    /**
     * Deepest JSON nesting accepted: a value is an object or array of scalars (depth 1); a little
     * deeper still parses, so that a nested value is refused by name instead of by depth.
     */
    static final int MAX_DEPTH = 32;

    /**
     * Strict reader: text after the value is refused, floating-point numbers keep their decimal
     * text ({@link java.math.BigDecimal}) so their range is checked against the field's type, and
     * nesting stops at {@link #MAX_DEPTH}.
     */
    private static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "ENTITY", description = "The entity's name or path.")
    String entity;

    @Parameters(index = "2", paramLabel = "COMPONENT", description = "The component: a name or a pair \"(R, T)\".")
    String component;

    @Parameters(index = "3", paramLabel = "JSON", description = "The value: a JSON object or array.")
    String json;

    @Override
    public Integer call() {
        JsonNode node = parse(json);
        try (World w = openWriter(world)) {
            scope.apply(w);
            w.transaction(tx -> {
                long id = tx.id(component);
                Schema schema = tx.schema(id);
                if (schema == null) {
                    throw new ValueException(tx.idToString(id) + " is a tag: it carries no value "
                            + "(declare it with 'quiver component')");
                }
                long e = tx.entity(entity);
                tx.set(e, id, value(tx, schema, node));
            });
            out().println(entity + ": set " + component + " " + node);
        }
        return ExitCodes.OK;
    }

    private static JsonNode parse(String text) {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (StreamConstraintsException e) {
            throw new CliInputException("malformed JSON value: nesting depth over " + MAX_DEPTH
                    + " (a value is an object or array of field values)", e);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new CliInputException("malformed JSON value: " + e.getOriginalMessage()
                    + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"), e);
        }
        if (node == null || !(node.isObject() || node.isArray())) {
            throw new CliInputException("the value must be a JSON object or array, got: " + text);
        }
        return node;
    }

    /** The JSON value as a field map (object) or positional values (array), entity names resolved. */
    private static Object value(World w, Schema schema, JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            var it = node.fields();
            while (it.hasNext()) {
                var en = it.next();
                int f = schema.indexOf(en.getKey());
                FieldType type = f < 0 ? null : schema.field(f).type();
                map.put(en.getKey(), scalar(w, type, en.getKey(), en.getValue()));
            }
            return map;
        }
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            FieldType type = i < schema.size() ? schema.field(i).type() : null;
            String name = i < schema.size() ? schema.field(i).name() : "#" + i;
            list.add(scalar(w, type, name, node.get(i)));
        }
        return list.toArray();
    }

    private static Object scalar(World w, FieldType type, String field, JsonNode v) {
        if (type == FieldType.ENTITY && v.isTextual()) {
            return w.resolve(v.textValue());
        }
        if (v.isContainerNode()) {
            throw new ValueException("field '" + field + "': nested values are not supported, got " + v);
        }
        if (v.isNull()) {
            return null;
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isNumber()) {
            return number(type, field, v);
        }
        return v.doubleValue();
    }

    /**
     * A JSON number as the field's type needs it: a Double for f32 and f64, a Long for i32, i64 and
     * entity, refused when it does not fit (an f64 or f32 overflowing to infinity, an integer out of
     * range). Other types get the number as parsed and World refuses it by name.
     */
    private static Object number(FieldType type, String field, JsonNode v) {
        if (type == FieldType.F32 || type == FieldType.F64) {
            double d = v.doubleValue();
            if (Double.isInfinite(d) || (type == FieldType.F32 && Float.isInfinite((float) d))) {
                throw new ValueException("field '" + field + "': " + v.asText() + " does not fit " + type.spelling());
            }
            return d;
        }
        if (type == FieldType.I32 || type == FieldType.I64 || type == FieldType.ENTITY) {
            BigDecimal exact = v.decimalValue();
            if (exact.signum() != 0 && exact.stripTrailingZeros().scale() > 0) {
                throw new ValueException("field '" + field + "' is an integer, got " + v.asText());
            }
            FieldType range = type == FieldType.ENTITY ? FieldType.I64 : type;
            long l;
            try {
                l = exact.longValueExact();
            } catch (ArithmeticException e) {
                throw new ValueException("field '" + field + "': " + v.asText() + " does not fit " + range.spelling());
            }
            if (type == FieldType.I32 && (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE)) {
                throw new ValueException("field '" + field + "': " + v.asText() + " does not fit i32");
            }
            return l;
        }
        return v.isIntegralNumber() && v.canConvertToLong() ? (Object) v.longValue() : v.doubleValue();
    }
}
