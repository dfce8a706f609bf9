package dev.quiver.snapshots.export;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Parquet's Snappy page codec on snappy-java directly. parquet-java's own {@code CodecFactory}
 * reaches Snappy through Hadoop's {@code CompressionCodec} interface, which would put Hadoop on
 * the export's class path; the page bytes are the same (raw Snappy blocks, as the Parquet format
 * specifies for SNAPPY).
 */
final class SnappyCodecs implements CompressionCodecFactory {

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        require(codec);
        return new BytesInputCompressor() {
            @Override
            public BytesInput compress(BytesInput bytes) throws IOException {
                return BytesInput.from(Snappy.compress(bytes.toByteArray()));
            }

            @Override
            public CompressionCodecName getCodecName() {
                return CompressionCodecName.SNAPPY;
            }

            @Override
            public void release() {
            }
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        require(codec);
        return new BytesInputDecompressor() {
            @Override
            public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
                byte[] out = new byte[uncompressedSize];
                int n = Snappy.uncompress(bytes.toByteArray(), 0, (int) bytes.size(), out, 0);
                if (n != uncompressedSize) {
                    throw new IOException("snappy page: " + n + " bytes, expected " + uncompressedSize);
                }
                return BytesInput.from(out);
            }

            @Override
            public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                    throws IOException {
                byte[] in = new byte[compressedSize];
                input.get(in);
                byte[] out = new byte[uncompressedSize];
                Snappy.uncompress(in, 0, compressedSize, out, 0);
                output.put(out);
            }

            @Override
            public void release() {
            }
        };
    }

    @Override
    public void release() {
    }

    private static void require(CompressionCodecName codec) {
        if (codec != CompressionCodecName.SNAPPY) {
            throw new IllegalArgumentException("only SNAPPY is provided here, not " + codec);
        }
    }
}
