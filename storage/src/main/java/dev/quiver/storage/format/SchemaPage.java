package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;

import java.util.ArrayList;

/** Codec of a {@code schemas} page: one component's fields, types by stable code. */
final class SchemaPage {
    private SchemaPage() {}

    static void write(Schema s, Bytes.Writer w) {
        w.i32(s.size());
        for (Schema.Field f : s.fields()) {
            w.str(f.name());
            w.u8(f.type().code());
        }
    }

    static Schema read(byte[] b) {
        Bytes.Reader r = new Bytes.Reader(b);
        int n = r.i32();
        if (n < 0 || n > b.length) {
            throw new CorruptionException("schema page holds " + n + " fields");
        }
        var fields = new ArrayList<Schema.Field>(n);
        for (int i = 0; i < n; i++) {
            String name = r.str();
            int code = r.u8();
            FieldType t = FieldType.ofCode(code);
            if (t == null) {
                throw new CorruptionException("schema page holds unknown field type code " + code);
            }
            fields.add(new Schema.Field(name, t));
        }
        return new Schema(fields);
    }
}
