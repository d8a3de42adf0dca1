package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jpbs pull|push} bad input ({@code docs/sync.md#running}): usage errors exit 2, a failed run exits 1 with the task error. */
class PullPushCliTest {
    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    @Test
    void usageErrorsAndAnUnknownRemote() {
        CliRunner cli = new CliRunner(tmp.resolve("home"), Map.of("JPBS_CONFIG_DIR", tmp.resolve("conf").toString()));
        CliRunner.Result missing = cli.run("pull", "--store", "local", "--remote-store", "store2");
        assertEquals(2, missing.exit(), missing.all());
        assertTrue(missing.err().contains("jpbs pull: missing --remote"), missing.err());
        CliRunner.Result bad = cli.run("push", "--store", "local", "--remote", "r1x", "--remote-store", "store2",
                "--transfer-last", "0");
        assertEquals(2, bad.exit(), bad.all());
        assertTrue(bad.err().contains("transfer-last"), bad.err());
        CliRunner.Result schedule = cli.run("pull", "--store", "local", "--remote", "r1x", "--remote-store", "store2",
                "--schedule", "daily");
        assertEquals(2, schedule.exit(), schedule.all());
        assertEquals(0, cli.run("datastore", "create", "local", tmp.resolve("local").toString()).exit());
        CliRunner.Result unknown = cli.run("pull", "--store", "local", "--remote", "nope", "--remote-store", "store2");
        assertEquals(1, unknown.exit(), unknown.all());
        assertTrue(unknown.out().contains("TASK ERROR: sync job 'pull': remote 'nope' is not in remote.cfg"), unknown.all());
    }
}
