package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.lock.DirLock;
import org.jpbs.datastore.lock.LockedException;
import org.jpbs.datastore.snapshot.Datastore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group and snapshot locks between two processes ({@link DirLock}: {@code flock} on the
 * directories, as PBS): a second JVM ({@link GroupLockHolder}) runs a backup of {@code vm/100};
 * a {@code jpbs backup} of the same group here fails with a one-line "locked" error and writes
 * nothing, and the holder's base snapshot cannot be removed. Then the holder is killed mid-upload:
 * the next backup of the group succeeds and removes the dead writer's hidden directory.
 */
class CrossProcessLockTest {
    static final long T = 1_700_000_000L;

    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    Process holder;

    @AfterEach
    void cleanup() throws Exception {
        if (holder != null) {
            holder.destroyForcibly().waitFor();
        }
        FastTempDirs.deleteTree(tmp.resolve("ds"));
    }

    private Process startHolder(Path repo, long time) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder pb = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", cp,
                GroupLockHolder.class.getName(), repo.toString(), "100", Long.toString(time));
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        return pb.start();
    }

    @Test
    void secondProcessCannotBackUpTheSameGroupAndAKilledWriterIsCleanedUp() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(DirLock.crossProcess(), "flock via FFM not available");
        Path repo = tmp.resolve("ds");
        Path conf = Files.writeString(tmp.resolve("100.conf"), "memory: 2048\n");
        CliRunner cli = new CliRunner(tmp.resolve("home"), Map.of());
        assertEquals(0, cli.run("backup", "-q", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id", "100",
                "--backup-time", Long.toString(T), "c.conf:" + conf).exit());

        holder = startHolder(repo, T + 60);
        BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertNotNull(line, "holder process ended early (exit " + (holder.isAlive() ? "?" : holder.exitValue()) + ")");
        assertTrue(line.startsWith("HOLDING "), line);
        Path holderDir = Path.of(line.substring("HOLDING ".length()));

        CliRunner.Result r = cli.run("backup", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id", "100",
                "--backup-time", Long.toString(T + 120), "c.conf:" + conf);
        assertEquals(ExitCodes.LOCKED, r.exit(), r.all()); // exit 5: README.md, "Exit codes"
        assertEquals("jpbs: error: backup group vm/100 is locked by another operation (in another process)\n", r.err(),
                r.all());
        assertEquals(List.of("|vm/100/" + BackupSnapshotRef.formatTime(T) + "|true"), CliRunner.snapshots(repo));
        assertEquals(List.of(holderDir), CliRunner.tempEntries(repo), "the refused backup wrote nothing");

        Datastore ds = Datastore.open(repo);
        BackupSnapshotRef base = new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "100"), T);
        LockedException e = org.junit.jupiter.api.Assertions.assertThrows(LockedException.class,
                () -> ds.removeSnapshot(base));
        assertEquals("snapshot vm/100/" + BackupSnapshotRef.formatTime(T)
                + " is locked by another operation (in another process)", e.getMessage());

        holder.destroyForcibly().waitFor(); // killed mid-upload: its hidden directory stays behind
        holder = null;
        assertTrue(Files.isDirectory(holderDir));
        assertEquals(0, cli.run("backup", "-q", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id", "100",
                "--backup-time", Long.toString(T + 120), "c.conf:" + conf).exit());
        assertEquals(List.of(), CliRunner.tempEntries(repo), "the next backup removed the dead writer's directory");
        assertEquals(2, CliRunner.snapshots(repo).size());
        ds.removeSnapshot(base); // no lock left behind by the killed process
    }
}
