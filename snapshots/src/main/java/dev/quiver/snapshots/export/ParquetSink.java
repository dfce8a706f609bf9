package dev.quiver.snapshots.export;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes one table as one Parquet file with parquet-java's own writer, through its Hadoop-free
 * paths ({@link LocalOutputFile}, {@link PlainParquetConfiguration}): no Hadoop class is loaded.
 *
 * <p>Layout: a flat message of one primitive column per {@link ExportColumn} (required or
 * optional), strings as BINARY annotated STRING; Parquet format 2 data pages with its encodings
 * (dictionary, else DELTA_BINARY_PACKED for integers and DELTA_BYTE_ARRAY for strings: sequential
 * ids and paths such as {@code n1234} shrink to a few bits each, a quarter of the v1 size on
 * RG-1), Snappy compression ({@link SnappyCodecs}), row groups of {@link #ROW_GROUP_BYTES}.
 * DuckDB, pyarrow (pandas) and Spark read these encodings; the spark module's test reads the
 * files with Spark.
 */
final class ParquetSink implements TableSink {
    /** Columns with a distinct value in every row. */
    private static final String[] UNIQUE_COLUMNS = {"id", "name", "path"};

    /** Row group size: the writer keeps one row group's encoded pages in memory. */
    static final long ROW_GROUP_BYTES = 32L << 20;

    private final ParquetWriter<RowBuffer> writer;

    ParquetSink(Path file, String tableName, List<ExportColumn> columns) throws IOException {
        MessageType schema = schema(tableName, columns);
        Builder b = new Builder(new LocalOutputFile(file), schema, columns)
                .withConf(new PlainParquetConfiguration())
                .withWriteMode(ParquetFileWriter.Mode.CREATE)
                .withCodecFactory(new SnappyCodecs())
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_2_0)
                .withRowGroupSize(ROW_GROUP_BYTES)
                .withDictionaryEncoding(true);
        for (String unique : UNIQUE_COLUMNS) {
            if (schema.containsField(unique)) {
                // one value per row: a dictionary would only be built to be dropped
                b = b.withDictionaryEncoding(unique, false);
            }
        }
        for (String text : new String[] {"name", "path"}) {
            if (schema.containsField(text)) {
                // min/max of unsorted names filter nothing, and comparing strings is costly
                b = b.withStatisticsEnabled(text, false);
            }
        }
        writer = b.build();
    }

    /** The Parquet schema of a table: one primitive field per column, in order. */
    static MessageType schema(String tableName, List<ExportColumn> columns) {
        Types.MessageTypeBuilder b = Types.buildMessage();
        for (ExportColumn c : columns) {
            Type.Repetition rep = c.required() ? Type.Repetition.REQUIRED : Type.Repetition.OPTIONAL;
            switch (c.kind()) {
                case INT32: b.primitive(PrimitiveTypeName.INT32, rep).named(c.name()); break;
                case INT64: b.primitive(PrimitiveTypeName.INT64, rep).named(c.name()); break;
                case FLOAT: b.primitive(PrimitiveTypeName.FLOAT, rep).named(c.name()); break;
                case DOUBLE: b.primitive(PrimitiveTypeName.DOUBLE, rep).named(c.name()); break;
                case BOOLEAN: b.primitive(PrimitiveTypeName.BOOLEAN, rep).named(c.name()); break;
                case STRING: b.primitive(PrimitiveTypeName.BINARY, rep).as(LogicalTypeAnnotation.stringType()).named(c.name()); break;
                default: throw new IllegalArgumentException(c.toString());
            }
        }
        return b.named(tableName);
    }

    @Override
    public void write(RowBuffer row) throws IOException {
        writer.write(row);
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    private static final class Builder extends ParquetWriter.Builder<RowBuffer, Builder> {
        private final MessageType schema;
        private final List<ExportColumn> columns;

        Builder(OutputFile file, MessageType schema, List<ExportColumn> columns) {
            super(file);
            this.schema = schema;
            this.columns = columns;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<RowBuffer> getWriteSupport(ParquetConfiguration conf) {
            return new RowWriteSupport(schema, columns);
        }

        /** Never called: the writer is built with a {@link ParquetConfiguration}. */
        @Override
        protected WriteSupport<RowBuffer> getWriteSupport(Configuration conf) {
            return new RowWriteSupport(schema, columns);
        }
    }

    /** Turns a {@link RowBuffer} into Parquet record events, empty columns left out. */
    private static final class RowWriteSupport extends WriteSupport<RowBuffer> {
        private final MessageType schema;
        private final ExportColumn.Kind[] kinds;
        private final String[] names;
        private RecordConsumer consumer;

        RowWriteSupport(MessageType schema, List<ExportColumn> columns) {
            this.schema = schema;
            kinds = new ExportColumn.Kind[columns.size()];
            names = new String[columns.size()];
            for (int i = 0; i < kinds.length; i++) {
                kinds[i] = columns.get(i).kind();
                names[i] = columns.get(i).name();
            }
        }

        @Override
        public WriteContext init(ParquetConfiguration conf) {
            return new WriteContext(schema, Map.of());
        }

        /** Never called: the writer is built with a {@link ParquetConfiguration}. */
        @Override
        public WriteContext init(Configuration conf) {
            return new WriteContext(schema, Map.of());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            consumer = recordConsumer;
        }

        @Override
        public void write(RowBuffer row) {
            RecordConsumer rc = consumer;
            rc.startMessage();
            for (int i = 0; i < kinds.length; i++) {
                if (!row.set[i]) {
                    continue;
                }
                rc.startField(names[i], i);
                long w = row.words[i];
                switch (kinds[i]) {
                    case INT32: rc.addInteger((int) w); break;
                    case INT64: rc.addLong(w); break;
                    case FLOAT: rc.addFloat(Float.intBitsToFloat((int) w)); break;
                    case DOUBLE: rc.addDouble(Double.longBitsToDouble(w)); break;
                    case BOOLEAN: rc.addBoolean(w != 0); break;
                    case STRING: rc.addBinary(Binary.fromString(row.strings[i])); break;
                    default: throw new IllegalStateException();
                }
                rc.endField(names[i], i);
            }
            rc.endMessage();
        }
    }
}
