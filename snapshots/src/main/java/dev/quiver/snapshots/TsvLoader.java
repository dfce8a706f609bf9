package dev.quiver.snapshots;

import dev.quiver.error.QuiverException;
import dev.quiver.storage.World;

import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * Loads TSV pair files ({@code subject<TAB>relationship<TAB>target}, one pair per line) into a
 * world. Each line adds the pair {@code (relationship, target)} to {@code subject}; names (or
 * {@code .}-separated paths) are created when missing.
 *
 * <p>A file is read as a stream, plain or gzip (recognised by its magic bytes, whatever its name),
 * UTF-8, with LF or CRLF line ends. A first line {@code subject<TAB>relationship<TAB>target} is a
 * header and skipped. Each file loads inside one {@link World#transaction}: a malformed line
 * throws {@link TsvFormatException} naming {@code file:line}, and nothing of that file is loaded.
 *
 * <p>Names hold {@code A-Z a-z 0-9 _ -}. A name made of digits only (the Debian package
 * {@code 2048}) cannot name an entity, because digits denote entity ids in paths and queries
 * (FEATURES ID-11); the loader gives it the name {@code _2048} instead and reports the renaming
 * in {@link Result#renamed()}. A file that uses both {@code 2048} and {@code _2048} is refused.
 *
 * <p>Speed: names are resolved once per load through a {@code HashMap}, so the world sees one
 * lookup-or-create per distinct name, and one {@code add} per line.
 */
public final class TsvLoader {
    /** The optional header line. */
    public static final String HEADER = "subject\trelationship\ttarget";

    /** The prefix that turns a digits-only name into an entity name. */
    public static final String DIGITS_PREFIX = "_";

    /** How often, in lines, the progress listener is called. */
    private static final int PROGRESS_EVERY = 8192;

    /**
     * Receives progress while a file loads, from the loading thread.
     */
    @FunctionalInterface
    public interface Progress {
        /**
         * @param bytesRead  bytes of the file consumed so far (compressed bytes for gzip)
         * @param totalBytes the file size
         * @param lines      lines read so far
         */
        void update(long bytesRead, long totalBytes, long lines);
    }

    /**
     * The outcome of loading one file.
     *
     * @param file    the file
     * @param lines   pair lines read (header excluded)
     * @param names   distinct names the file mentions
     * @param renamed digits-only names and the entity names they were given, in first-seen order
     * @param millis  wall time of the load, transaction commit included, in milliseconds
     */
    public record Result(Path file, long lines, long names, Map<String, String> renamed, long millis) {}

    private final World world;
    private Progress progress = (read, total, lines) -> { };

    /** @param world an open writable world */
    public TsvLoader(World world) {
        this.world = world;
    }

    /**
     * Sets the progress listener (none by default).
     *
     * @return this loader
     */
    public TsvLoader progress(Progress listener) {
        this.progress = listener;
        return this;
    }

    /**
     * Loads one file as one transaction.
     *
     * @throws TsvFormatException for a malformed or rejected line (nothing of the file is loaded)
     * @throws SnapshotException  when the file cannot be read (nothing is loaded)
     */
    public Result load(Path file) {
        long start = System.nanoTime();
        long total;
        try {
            total = Files.size(file);
        } catch (NoSuchFileException e) {
            throw new SnapshotException("file " + file + " does not exist");
        } catch (IOException e) {
            throw new SnapshotException("cannot read " + file + ": " + e.getMessage(), e);
        }
        FileLoad load;
        try {
            load = loadOnce(file, total, true);
        } catch (BatchRefused e) {
            // a batch of one subject's pairs was refused and the file rolled back: load it again
            // pair by pair, which fails at the exact line
            load = loadOnce(file, total, false);
        }
        return new Result(file, load.lines, load.entities.size(), Collections.unmodifiableMap(load.renamed),
                (System.nanoTime() - start) / 1_000_000);
    }

    private FileLoad loadOnce(Path file, long total, boolean batched) {
        FileLoad load = new FileLoad(file, total, batched);
        try (CountingInputStream raw = new CountingInputStream(Files.newInputStream(file))) {
            BufferedReader reader = reader(raw);
            world.transaction(w -> {
                try {
                    load.run(w, reader, raw);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            IOException io = e instanceof UncheckedIOException ? ((UncheckedIOException) e).getCause() : (IOException) e;
            if (io instanceof CharacterCodingException) {
                throw new TsvFormatException(file, load.lineNo + 1, "not UTF-8 text", io);
            }
            throw new SnapshotException("cannot read " + file + ": " + io, io);
        }
        return load;
    }

    /** A batched add was refused by the world; the file is loaded again pair by pair. */
    private static final class BatchRefused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BatchRefused(QuiverException cause) {
            super(cause);
        }
    }

    /**
     * The first pair line of a file (header skipped) as {@code {subject, relationship, target}}
     * with the entity names the loader gives them, or null when the file holds no pair line or its
     * first one is malformed. Since a file loads as one transaction, a world holds that pair
     * exactly when the whole file was loaded into it (unless the pair was there before).
     *
     * @throws SnapshotException when the file cannot be read
     */
    public static String[] firstPair(Path file) {
        try (CountingInputStream raw = new CountingInputStream(Files.newInputStream(file))) {
            BufferedReader reader = reader(raw);
            String line = reader.readLine();
            if (line != null && !line.isEmpty() && line.charAt(0) == '\uFEFF') {
                line = line.substring(1);
            }
            if (line != null && stripCr(line).equals(HEADER)) {
                line = reader.readLine();
            }
            if (line == null) {
                return null;
            }
            String[] f = stripCr(line).split("\t", -1);
            if (f.length != 3) {
                return null;
            }
            for (int i = 0; i < 3; i++) {
                if (nameProblem(f[i], 1) != null) {
                    return null;
                }
                f[i] = entityName(f[i]);
            }
            return f;
        } catch (NoSuchFileException e) {
            throw new SnapshotException("file " + file + " does not exist");
        } catch (IOException e) {
            throw new SnapshotException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static BufferedReader reader(CountingInputStream raw) throws IOException {
        BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        InputStream text = b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        return new BufferedReader(new InputStreamReader(text, decoder), 1 << 16);
    }

    /** The state of loading one file: the name cache, the renamings, the line counts. */
    private final class FileLoad {
        final Path file;
        final long total;
        final Map<String, Long> entities = new HashMap<>(1 << 16);
        final Map<String, String> renamed = new LinkedHashMap<>();
        /** Names of the form _digits seen literally, to refuse a clash with a renamed name. */
        final Set<String> literalPrefixed = new HashSet<>();
        /**
         * Consecutive lines of one subject are added in one call, so the subject moves once to its
         * final table (the data files group lines by subject).
         */
        final boolean batched;
        final LongArrayList pending = new LongArrayList();
        long pendingSubject;
        long lineNo;
        long lines;

        FileLoad(Path file, long total, boolean batched) {
            this.file = file;
            this.total = total;
            this.batched = batched;
        }

        private void flush(World w) {
            if (pending.isEmpty()) {
                return;
            }
            try {
                w.add(pendingSubject, pending.toLongArray());
            } catch (QuiverException e) {
                throw new BatchRefused(e);
            }
            pending.clear();
        }

        void run(World w, BufferedReader reader, CountingInputStream raw) throws IOException {
            String line;
            while ((line = reader.readLine()) != null) {
                lineNo++;
                if (lineNo == 1) {
                    if (!line.isEmpty() && line.charAt(0) == '\uFEFF') {
                        line = line.substring(1);
                    }
                    if (stripCr(line).equals(HEADER)) {
                        continue;
                    }
                }
                line = stripCr(line);
                int t1 = line.indexOf('\t');
                int t2 = t1 < 0 ? -1 : line.indexOf('\t', t1 + 1);
                if (t2 < 0 || line.indexOf('\t', t2 + 1) >= 0) {
                    throw new TsvFormatException(file, lineNo, "expected 3 tab-separated fields "
                            + "(subject, relationship, target), got " + fieldCount(line), null);
                }
                try {
                    long s = entity(w, "subject", line.substring(0, t1), 1);
                    long r = entity(w, "relationship", line.substring(t1 + 1, t2), t1 + 2);
                    long t = entity(w, "target", line.substring(t2 + 1), t2 + 2);
                    if (!batched) {
                        w.add(s, w.pair(r, t));
                    } else {
                        if (s != pendingSubject) {
                            flush(w);
                            pendingSubject = s;
                        }
                        pending.add(w.pair(r, t));
                    }
                } catch (TsvFormatException e) {
                    throw e;
                } catch (QuiverException e) {
                    throw new TsvFormatException(file, lineNo, e.getMessage(), e);
                }
                lines++;
                if ((lines % PROGRESS_EVERY) == 0) {
                    progress.update(raw.count(), total, lines);
                }
            }
            flush(w);
            progress.update(raw.count(), total, lines);
        }

        private long entity(World w, String role, String field, int column) {
            Long e = entities.get(field);
            if (e != null) {
                return e;
            }
            String problem = nameProblem(field, column);
            if (problem != null) {
                throw new TsvFormatException(file, lineNo, role + " " + problem, null);
            }
            String name = entityName(field);
            if (!name.equals(field)) {
                if (literalPrefixed.contains(name)) {
                    throw clash(field, name);
                }
                renamed.put(field, name);
            } else if (isPrefixedDigits(field)) {
                if (renamed.containsValue(field)) {
                    throw clash(renamed.entrySet().stream().filter(en -> en.getValue().equals(field))
                            .findFirst().orElseThrow().getKey(), field);
                }
                literalPrefixed.add(field);
            }
            long id = w.entity(name);
            entities.put(field, id);
            return id;
        }

        private TsvFormatException clash(String digits, String prefixed) {
            return new TsvFormatException(file, lineNo, "'" + digits + "' (digits only, loaded as '" + prefixed
                    + "') and '" + prefixed + "' would be the same entity", null);
        }
    }

    /** The entity name for a valid field: each digits-only path segment gets {@link #DIGITS_PREFIX}. */
    static String entityName(String field) {
        StringBuilder out = null;
        int segmentStart = 0;
        for (int i = 0; i <= field.length(); i++) {
            if (i == field.length() || field.charAt(i) == '.') {
                if (digitsOnly(field, segmentStart, i)) {
                    if (out == null) {
                        out = new StringBuilder(field.length() + 4).append(field, 0, segmentStart);
                    }
                    out.append(DIGITS_PREFIX);
                }
                if (out != null) {
                    out.append(field, segmentStart, i);
                    if (i < field.length()) {
                        out.append('.');
                    }
                }
                segmentStart = i + 1;
            }
        }
        return out == null ? field : out.toString();
    }

    private static boolean digitsOnly(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return to > from;
    }

    private static boolean isPrefixedDigits(String field) {
        int segmentStart = 0;
        for (int i = 0; i <= field.length(); i++) {
            if (i == field.length() || field.charAt(i) == '.') {
                if (field.startsWith(DIGITS_PREFIX, segmentStart)
                        && digitsOnly(field, segmentStart + DIGITS_PREFIX.length(), i)) {
                    return true;
                }
                segmentStart = i + 1;
            }
        }
        return false;
    }

    /**
     * Why a field is not an entity name or path, or null when it is one. A name holds letters
     * {@code A-Z a-z}, digits, {@code _} and {@code -}; a path joins names with {@code .}. The
     * wildcard {@code _} is not a name.
     *
     * @param firstColumn the 1-based column of the field's first character in its line
     */
    static String nameProblem(String field, int firstColumn) {
        if (field.isEmpty()) {
            return "is empty";
        }
        if (field.equals("_")) {
            return "'_' is the Any wildcard, not an entity name";
        }
        int segmentStart = 0;
        for (int i = 0; i <= field.length(); i++) {
            char c = i < field.length() ? field.charAt(i) : '.';
            if (c == '.') {
                if (i == segmentStart) {
                    return "'" + field + "' has an empty path segment";
                }
                segmentStart = i + 1;
            } else if (!(c == '_' || c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z'))) {
                return "'" + field + "' is not a name: character '" + printable(c) + "' at column " + (firstColumn + i)
                        + " (names hold A-Z a-z 0-9 _ -, paths join names with .)";
            }
        }
        return null;
    }

    private static String printable(char c) {
        return c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }

    private static String fieldCount(String line) {
        if (line.isEmpty()) {
            return "an empty line";
        }
        int n = 1;
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '\t') n++;
        }
        return n + (n == 1 ? " field" : " fields");
    }

    private static String stripCr(String line) {
        return !line.isEmpty() && line.charAt(line.length() - 1) == '\r' ? line.substring(0, line.length() - 1) : line;
    }

    /** Counts the raw bytes read, for progress on compressed files. */
    private static final class CountingInputStream extends FilterInputStream {
        private long count;

        CountingInputStream(InputStream in) {
            super(in);
        }

        long count() {
            return count;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) count++;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) count += n;
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = super.skip(n);
            count += s;
            return s;
        }
    }
}
