package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;

import java.util.ArrayList;

/** Codec of a {@code schemas} page: one component's fields, types by stable code. */
final class SchemaPage {
    private SchemaPage() {}

    static void write(Schema s, Bytes.Writer w) {
        w.varint(s.size());
        for (Schema.Field f : s.fields()) {
            w.vstr(f.name());
            w.u8(f.type().code());
        }
    }

    static Schema read(byte[] b) {
        Bytes.Reader r = new Bytes.Reader(b);
        int n = r.vcount(2);
        var fields = new ArrayList<Schema.Field>(n);
        for (int i = 0; i < n; i++) {
            String name = r.vstr();
            int code = r.u8();
            FieldType t = FieldType.ofCode(code);
            if (t == null) {
                throw new CorruptionException("schema page holds unknown field type code " + code);
            }
            fields.add(new Schema.Field(name, t));
        }
        if (r.remaining() != 0) {
            throw new CorruptionException("schema page holds " + r.remaining() + " bytes past its fields");
        }
        return new Schema(fields);
    }
}
