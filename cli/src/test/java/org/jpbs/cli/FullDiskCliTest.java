package org.jpbs.cli;

import org.jpbs.core.testing.SmallTmpfs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.jpbs.core.api.BackupSnapshotRef;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 9 on a real full file system (a 12 MiB tmpfs): {@code jpbs verify} reports every
 * snapshot and warns, naming each manifest, that its verify state could not be recorded; a
 * backup onto the full datastore fails with one line naming the datastore and the file.
 */
class FullDiskCliTest {
    private static final long T1 = 1_700_000_000L;

    @TempDir
    Path tmp;

    private static byte[] random(long seed, int n) {
        byte[] b = new byte[n];
        new java.util.Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void verifyReportsEverySnapshotAndBackupNamesDatastoreAndFile() throws Exception {
        Optional<SmallTmpfs> mounted = SmallTmpfs.mount(tmp.resolve("small"), "12m");
        Assumptions.assumeTrue(mounted.isPresent(), "cannot mount a tmpfs here (needs root): skipping the full-disk test");
        try (SmallTmpfs fs = mounted.get()) {
            Path repo = fs.dir().resolve("ds");
            CliRunner cli = new CliRunner(tmp.resolve("home"), Map.of("PBS_REPOSITORY", repo.toString()));
            assertEquals(0, cli.run("datastore", "create", "small", repo.toString()).exit());
            Path conf = tmp.resolve("vm.conf");
            for (int i = 0; i < 3; i++) {
                Path img = tmp.resolve("disk" + i + ".img");
                Files.write(img, random(i, 1 << 20));
                Files.writeString(conf, "memory: " + (512 + i) + "\n");
                CliRunner.Result r = cli.run("backup", "-q", "--backup-type", "vm", "--backup-id", "10" + i,
                        "--backup-time", Long.toString(T1), "disk.img:" + img, "qemu-server.conf:" + conf);
                assertEquals(0, r.exit(), r.all());
            }
            fs.fill("filler");
            String snap0 = "vm/100/" + BackupSnapshotRef.formatTime(T1);

            CliRunner.Result v = cli.run("verify");
            assertEquals(1, v.exit(), v.all());
            for (int i = 0; i < 3; i++) {
                String s = "vm/10" + i + "/" + BackupSnapshotRef.formatTime(T1);
                assertTrue(v.out().contains(s + ": ok\n"), "every snapshot's result: " + v.all());
                Path manifest = repo.resolve(s).resolve("index.json.blob");
                assertTrue(v.err().contains("jpbs: warning: " + manifest + ": could not record the verify state (ok): "
                        + "No space left on device"), v.all());
            }
            assertTrue(v.err().contains("jpbs: error: verify state of 3 snapshot(s) could not be recorded"), v.all());

            Path img = tmp.resolve("new.img");
            Files.write(img, random(9, 2 << 20));
            // a new group and an existing one: the first file a backup writes is its writer
            // registration (.writers/, see docs/gc.md); a full chunk write is FullDiskServerTest's case
            String[][] cases = {{"200", repo.resolve(".writers").toString()}, {"100", repo.resolve(".writers").toString()}};
            for (String[] c : cases) {
                CliRunner.Result b = cli.run("backup", "-q", "--backup-type", "vm", "--backup-id", c[0],
                        "--backup-time", Long.toString(T1 + 60), "disk.img:" + img);
                assertEquals(1, b.exit(), b.all());
                String[] lines = b.err().split("\n");
                assertEquals(1, lines.length, b.all());
                assertTrue(lines[0].startsWith("jpbs: error: datastore " + repo + ": no space left on device writing "
                        + c[1]), b.all());
            }
            assertEquals(3, CliRunner.snapshots(repo).size(), "no new snapshot: " + CliRunner.snapshots(repo));
            assertEquals(java.util.List.of(), CliRunner.tempEntries(repo), "nothing half-written left");
            // the earlier snapshot is unchanged and still restores
            Files.delete(fs.dir().resolve("filler"));
            CliRunner.Result r = cli.run("restore", "-q", snap0, "disk.img", tmp.resolve("out.img").toString());
            assertEquals(0, r.exit(), r.all());
        }
    }
}
