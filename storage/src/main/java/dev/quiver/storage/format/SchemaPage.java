package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;

import java.util.ArrayList;

/**
 * Codec of a {@code schemas} page: one component's fields, types by stable code, then its defaults
 * (since format 4): a count, then per default its field index and value (a varint raw word, or a
 * string); then its ranges (since format 7): a count, then per range its field index and the two
 * ends as IEEE 754 doubles (8 bytes each, big-endian raw bits; infinite for an open end).
 */
final class SchemaPage {
    private SchemaPage() {}

    static void write(Schema s, Bytes.Writer w) {
        w.varint(s.size());
        for (Schema.Field f : s.fields()) {
            w.vstr(f.name());
            w.u8(f.type().code());
        }
        int n = 0;
        for (int i = 0; i < s.size(); i++) {
            n += s.defaultRaw(i) == null ? 0 : 1;
        }
        w.varint(n);
        for (int i = 0; i < s.size(); i++) {
            Object d = s.defaultRaw(i);
            if (d != null) {
                w.varint(i);
                if (d instanceof String) {
                    w.vstr((String) d);
                } else {
                    w.varint((Long) d);
                }
            }
        }
        int m = 0;
        for (int i = 0; i < s.size(); i++) {
            m += s.range(i) == null ? 0 : 1;
        }
        w.varint(m);
        for (int i = 0; i < s.size(); i++) {
            Schema.Range g = s.range(i);
            if (g != null) {
                w.varint(i);
                w.i64(Double.doubleToRawLongBits(g.min()));
                w.i64(Double.doubleToRawLongBits(g.max()));
            }
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
        Object[] defaults = new Object[n];
        int d = r.vcount(2);
        int last = -1;
        for (int k = 0; k < d; k++) {
            int f = r.varint(n - 1);
            if (f <= last) {
                throw new CorruptionException("schema page lists the default of field " + f + " out of order");
            }
            last = f;
            defaults[f] = fields.get(f).type() == FieldType.STRING ? r.vstr() : (Object) r.varint();
        }
        Schema.Range[] ranges = new Schema.Range[n];
        int g = r.vcount(17);
        last = -1;
        for (int k = 0; k < g; k++) {
            int f = r.varint(n - 1);
            if (f <= last) {
                throw new CorruptionException("schema page lists the range of field " + f + " out of order");
            }
            last = f;
            double min = Double.longBitsToDouble(r.i64()), max = Double.longBitsToDouble(r.i64());
            try {
                ranges[f] = new Schema.Range(min, max);
            } catch (dev.quiver.storage.ValueException e) {
                throw new CorruptionException("schema page: field " + f + ": " + e.getMessage(), e);
            }
        }
        if (r.remaining() != 0) {
            throw new CorruptionException("schema page holds " + r.remaining() + " bytes past its fields");
        }
        try {
            return Schema.ofRaw(fields, defaults, ranges);
        } catch (dev.quiver.storage.ValueException e) {
            throw new CorruptionException("schema page: " + e.getMessage(), e);
        }
    }
}
