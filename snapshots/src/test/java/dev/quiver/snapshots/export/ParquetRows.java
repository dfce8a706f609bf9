package dev.quiver.snapshots.export;

import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a Parquet file back with parquet-java's own reader (no Hadoop): every row as a map of
 * column name to value, empty columns left out. Also gives the file's schema.
 */
final class ParquetRows {
    final MessageType schema;
    final List<Map<String, Object>> rows = new ArrayList<>();

    ParquetRows(Path file) throws IOException {
        ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withCodecFactory(new SnappyCodecs()).build();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file), options)) {
            schema = reader.getFooter().getFileMetaData().getSchema();
            PageReadStore pages;
            while ((pages = reader.readNextRowGroup()) != null) {
                RecordReader<Group> records = new ColumnIOFactory().getColumnIO(schema)
                        .getRecordReader(pages, new GroupRecordConverter(schema));
                for (long i = 0; i < pages.getRowCount(); i++) {
                    rows.add(row(records.read()));
                }
            }
        }
    }

    List<String> columnNames() {
        List<String> names = new ArrayList<>();
        schema.getFields().forEach(f -> names.add(f.getName()));
        return names;
    }

    private Map<String, Object> row(Group g) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < schema.getFieldCount(); i++) {
            if (g.getFieldRepetitionCount(i) == 0) {
                continue;
            }
            PrimitiveType t = schema.getType(i).asPrimitiveType();
            Object v;
            switch (t.getPrimitiveTypeName()) {
                case INT32: v = g.getInteger(i, 0); break;
                case INT64: v = g.getLong(i, 0); break;
                case FLOAT: v = g.getFloat(i, 0); break;
                case DOUBLE: v = g.getDouble(i, 0); break;
                case BOOLEAN: v = g.getBoolean(i, 0); break;
                case BINARY: v = g.getString(i, 0); break;
                default: throw new IllegalStateException(t.toString());
            }
            m.put(schema.getFieldName(i), v);
        }
        return m;
    }
}
