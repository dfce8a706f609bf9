package dev.quiver.storage;

import dev.quiver.error.BadInputException;
import dev.quiver.index.Ids;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker verifies that the reverse blocks' summaries (page format 10) cover the blocks: a
 * summary page that leaves out a relationship a block holds would hide that block's sources from
 * every lookup of it, so pages holding one are refused when restored (which checks the world),
 * naming the block and the relationship.
 */
class ReverseSummaryCheckTest {
    @TempDir
    Path tmp;

    @Test
    void aSummaryThatOmitsARelationshipIsReported() {
        Path dir = tmp.resolve("w");
        var pages = new ArrayList<WorldPages.Page>();
        long a, b;
        try (World w = World.create(dir)) {
            a = w.transactionResult(x -> x.entity("A"));
            b = w.transactionResult(x -> x.entity("B"));
            w.transaction(x -> {
                long t = x.entity("t");
                for (int i = 0; i < 10; i++) {
                    long s = x.entity("s" + i);
                    x.add(s, x.pair(a, t));
                    x.add(s, x.pair(b, t));
                }
            });
            assertEquals(List.of(), w.check());
            WorldPages.forEach(w, (map, key, blob) -> pages.add(new WorldPages.Page(map, key, blob)));
        }
        // as stored, the pages make a consistent world
        try (World ok = WorldPages.restore(tmp.resolve("ok"), pages)) {
            assertEquals(10, sources(ok, b, ok.lookup("t")));
        }
        // the summary page of group 0, rewritten to leave B out of block 0's set
        var bad = new ArrayList<WorldPages.Page>();
        boolean replaced = false;
        for (WorldPages.Page p : pages) {
            if (p.mapName().equals("reverse") && p.key() == 1L << 32) {
                var body = new ByteArrayOutputStream();
                body.write(0); // envelope: the body as it is
                body.write(1); // one set: every relationship index up to A's (the builtins' among them), not B's
                varint(body, Ids.index(a) + 1L);
                for (int r = 0; r <= Ids.index(a); r++) {
                    body.write(0); // each the previous one plus 1
                }
                body.write(1); // one block
                body.write(0); // block 0
                body.write(0); // holds set 0
                bad.add(new WorldPages.Page(p.mapName(), p.key(), body.toByteArray()));
                replaced = true;
            } else {
                bad.add(p);
            }
        }
        assertTrue(replaced, "the pages hold the summary page of group 0");
        var e = assertThrows(BadInputException.class, () -> WorldPages.restore(tmp.resolve("bad"), bad));
        assertTrue(e.getMessage().contains("reverse block 0 holds entries of relationship #" + Ids.index(b)), e.getMessage());
    }

    private static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static int sources(World w, long rel, long target) {
        int[] n = {0};
        w.forEachSource(rel, target, s -> n[0]++);
        return n[0];
    }
}
