package dev.quiver.cli;

import dev.quiver.storage.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.quiver.cli.CliRunner.run;

/**
 * A CLI test class whose every test starts with a new world {@link #w} ({@code quiver init}) and
 * ends with {@code quiver check} passing on it (when the test left a world there).
 */
abstract class FreshWorldCliTest {
    @TempDir
    Path tmp;

    /** The world directory of the current test. */
    String w;

    @BeforeEach
    void init() {
        w = tmp.resolve("w").toString();
        run("init", w).ok();
    }

    @AfterEach
    void checkPasses() {
        if (World.exists(Path.of(w))) {
            run("check", w).ok();
        }
    }

    /** {@code quiver show W entity}'s output, which must succeed. */
    String show(String entity) {
        return run("show", w, entity).ok().out();
    }
}
