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

/** {@code quiver component WORLD NAME FIELD:TYPE...}: declares a component schema. */
@Command(name = "component", header = "Declare a component with typed fields.",
        description = {"Declares NAME (created when missing) as a component whose values have the given "
                + "fields. Types: f32, f64, i32, i64, bool, string, entity. Declaring the same schema again "
                + "changes nothing; another schema is an error.",
            "Example: quiver component w Position x:f64 y:f64"})
final class ComponentCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "NAME", description = "The component's name or path.")
    String name;

    @Parameters(index = "2..*", arity = "1..*", paramLabel = "FIELD:TYPE", description = "The fields, in order.")
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
        for (String spec : specs) {
            int colon = spec.indexOf(':');
            if (colon <= 0 || colon == spec.length() - 1) {
                throw new ValueException("malformed field '" + spec + "': expected NAME:TYPE, e.g. x:f64");
            }
            list.add(new Schema.Field(spec.substring(0, colon).trim(), FieldType.parse(spec.substring(colon + 1).trim())));
        }
        return new Schema(list);
    }
}
