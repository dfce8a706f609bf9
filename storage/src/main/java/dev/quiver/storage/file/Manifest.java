package dev.quiver.storage.file;

import dev.quiver.error.CorruptionException;
import dev.quiver.error.StorageIOException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * One committed shape of a world's files: the generations to read, base first
 * ({@link Generation}), and the write-ahead log whose records apply on top of them.
 *
 * <p>File {@code MANIFEST-<n>} (text, UTF-8): {@code quiver manifest <n>}, then one line
 * {@code gen <number>} per generation, base first, then {@code wal <n>}, then {@code crc <hex>}, the
 * CRC32C of every byte before that line. A manifest is written once (temporary file, forced,
 * renamed) and never changed; the file {@code CURRENT} names the live one ({@code MANIFEST-<n>}) and
 * is replaced the same way, which is the instant a checkpoint takes effect. The WAL of manifest n is
 * {@code wal-<n>}.
 */
record Manifest(long number, List<Long> generations) {
    static final String CURRENT = "CURRENT";

    static String fileName(long number) {
        return numbered("MANIFEST-", number, "");
    }

    static String walName(long number) {
        return numbered("wal-", number, "");
    }

    /**
     * {@code prefix}, {@code number} in at least six digits with leading zeros, {@code suffix}: what
     * {@code String.format(prefix + "%06d" + suffix, number)} gives for a number of 0 or more,
     * without the Formatter, whose first use in a process costs a short command several
     * milliseconds (its pattern and the locale's number symbols).
     */
    static String numbered(String prefix, long number, String suffix) {
        if (number < 0) {
            return String.format(java.util.Locale.ROOT, "%s%06d%s", prefix, number, suffix);
        }
        String digits = Long.toString(number);
        StringBuilder b = new StringBuilder(prefix.length() + Math.max(6, digits.length()) + suffix.length()).append(prefix);
        for (int i = digits.length(); i < 6; i++) {
            b.append('0');
        }
        return b.append(digits).append(suffix).toString();
    }

    byte[] encode() {
        var sb = new StringBuilder();
        sb.append("quiver manifest ").append(number).append('\n');
        for (long g : generations) {
            sb.append("gen ").append(g).append('\n');
        }
        sb.append("wal ").append(number).append('\n');
        byte[] body = sb.toString().getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C();
        crc.update(body);
        return (sb + "crc " + Long.toHexString(crc.getValue()) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Writes {@code MANIFEST-<n>} in {@code dir} atomically (it must not be named by CURRENT yet). */
    void write(Path dir) throws IOException {
        Fsync.replace(dir.resolve(fileName(number)), encode());
    }

    /**
     * Reads and checks {@code MANIFEST-<number>}.
     *
     * @throws NoSuchFileException  when it does not exist (a checkpoint may have just retired it)
     * @throws CorruptionException  when it is damaged
     */
    static Manifest read(Path dir, long number) throws IOException {
        Path f = dir.resolve(fileName(number));
        return parse(f, number, ProcessFiles.read(f)); // never a second descriptor of a pinned file
    }

    /**
     * Checks and parses the bytes of manifest file {@code f}.
     *
     * @throws CorruptionException when they are damaged
     */
    static Manifest parse(Path f, long number, byte[] all) {
        String text = new String(all, StandardCharsets.UTF_8);
        int crcAt = text.lastIndexOf("crc ");
        if (crcAt < 0 || !text.endsWith("\n")) {
            throw new CorruptionException("manifest " + f + " is damaged (no checksum line)");
        }
        CRC32C crc = new CRC32C();
        byte[] body = text.substring(0, crcAt).getBytes(StandardCharsets.UTF_8);
        crc.update(body);
        String stored = text.substring(crcAt + 4, text.length() - 1);
        if (!stored.equals(Long.toHexString(crc.getValue()))) {
            throw new CorruptionException("manifest " + f + " fails its checksum");
        }
        String[] lines = text.substring(0, crcAt).split("\n");
        if (lines.length < 3 || !lines[0].equals("quiver manifest " + number)
                || !lines[lines.length - 1].equals("wal " + number)) {
            throw new CorruptionException("manifest " + f + " is damaged (bad header or wal line)");
        }
        var gens = new ArrayList<Long>();
        for (int i = 1; i < lines.length - 1; i++) {
            if (!lines[i].startsWith("gen ")) {
                throw new CorruptionException("manifest " + f + " line " + (i + 1) + " is not a generation");
            }
            try {
                gens.add(Long.parseLong(lines[i].substring(4)));
            } catch (NumberFormatException e) {
                throw new CorruptionException("manifest " + f + " line " + (i + 1) + " is not a generation", e);
            }
        }
        return new Manifest(number, List.copyOf(gens));
    }

    /**
     * The number of the manifest {@code CURRENT} names.
     *
     * @throws CorruptionException when CURRENT is missing or damaged
     * @throws StorageIOException  when it cannot be read
     */
    static long current(Path dir) {
        Path f = dir.resolve(CURRENT);
        String s;
        try {
            s = Files.readString(f, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new CorruptionException("world " + dir + " has no " + CURRENT + " file naming its manifest", e);
        } catch (IOException e) {
            throw new StorageIOException("cannot read " + f + ": " + e.getMessage(), e);
        }
        String prefix = "MANIFEST-";
        if (!s.startsWith(prefix) || !s.endsWith("\n")) {
            throw new CorruptionException("world " + dir + ": " + CURRENT + " is damaged");
        }
        try {
            long n = Long.parseLong(s.substring(prefix.length(), s.length() - 1));
            if (n < 1 || !fileName(n).equals(s.substring(0, s.length() - 1))) {
                throw new NumberFormatException(s);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new CorruptionException("world " + dir + ": " + CURRENT + " is damaged", e);
        }
    }

    /** Points CURRENT at this manifest, atomically: the instant the checkpoint takes effect. */
    void makeCurrent(Path dir) throws IOException {
        Fsync.replace(dir.resolve(CURRENT), (fileName(number) + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
