package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jpbs gc}, {@code gc status}, {@code verify} and {@code prune} on a copy of the datastore
 * the real PBS 3.1.2 wrote ({@code ../shared/vectors/real-pbs/datastore.tar.gz}), in order:
 * everything intact first, then a corrupted chunk. Skips when {@code ../shared} is absent.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MaintenanceCliTest {
    /** A chunk of {@code vm/100/2023-11-14T23:13:20Z} only (the 4 MiB block that changed). */
    static final String CHANGED_CHUNK = "93e98fdee185110873b05f7a02f8911df60e8505f31bc98912722ea54b839f66";

    @TempDir(factory = FastTempDirs.class)
    static Path tmp;
    static Path ds;
    static CliRunner cli;

    @BeforeAll
    static void unpack() throws Exception {
        Path tar = SharedVectors.require("vectors/real-pbs/datastore.tar.gz");
        Process p = new ProcessBuilder("tar", "-xzf", tar.toString(), "-C", tmp.toString()).inheritIO().start();
        assertEquals(0, p.waitFor(), "tar -xzf failed");
        ds = tmp.resolve("golden-ds");
        cli = new CliRunner(tmp, Map.of("PBS_REPOSITORY", ds.toString()));
    }

    @AfterAll
    static void delete() throws Exception {
        if (ds != null) {
            FastTempDirs.deleteTree(ds);
        }
    }

    @Test
    @Order(1)
    void gcStatusShowsWhatPbsWrote() throws Exception {
        CliRunner.Result r = cli.run("gc", "status", "--output-format", "json");
        assertEquals(0, r.exit(), r.all());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals("UPID:vm:0000147C:0007625F:00000008:6B0DDDDF:garbage_collection:golden:root@pam:", j.get("upid").asText());
        assertEquals(5906100, j.get("disk-bytes").asLong());
        r = cli.run("gc", "status");
        assertTrue(r.out().contains("disk-chunks:          9\n"), r.all());
        assertTrue(r.out().contains("deduplication-factor: 4.85\n"), r.all());
    }

    @Test
    @Order(2)
    void gcKeepsEverythingAndPrintsTheSummary() throws Exception {
        CliRunner.Result dry = cli.run("gc", "--dry-run", "--threads", "2");
        assertEquals(0, dry.exit(), dry.all());
        assertTrue(dry.err().contains("Would remove chunks: 0\n"), dry.all());
        CliRunner.Result r = cli.run("gc", "--threads", "2", "--chunk-order", "none", "--gc-chunk-metadata-prefetch=false");
        assertEquals(0, r.exit(), r.all());
        assertTrue(r.err().contains("Removed chunks: 0\n"), r.all());
        assertTrue(r.err().contains("On-Disk chunks: 9\n"), r.all());
        assertTrue(r.err().contains("Deduplication factor: 4.85\n"), r.all());
        assertEquals(9, CliRunner.chunkCount(ds));
        CliRunner.Result st = cli.run("gc", "status");
        assertTrue(st.out().contains(":garbage_collection:golden\\x2dds:root@pam:"), st.all());
    }

    @Test
    @Order(3)
    void verifyAllOk() {
        CliRunner.Result r = cli.run("verify");
        assertEquals(0, r.exit(), r.all());
        assertEquals("""
                vm/100/2023-11-14T23:13:20Z: ok
                vm/100/2023-11-14T22:13:20Z: ok
                vm/200/2023-11-14T22:13:20Z: ok
                ns prod: host/web/2023-11-14T22:13:20Z: ok
                """, r.out());
        r = cli.run("verify", "vm/100", "--ignore-verified");
        assertEquals(0, r.exit(), r.all());
        assertEquals("""
                vm/100/2023-11-14T23:13:20Z: skipped (recently verified)
                vm/100/2023-11-14T22:13:20Z: skipped (recently verified)
                """, r.out());
        r = cli.run("verify", "vm/100/2023-11-14T22:13:20Z", "--ignore-verified", "--outdated-after", "0");
        assertEquals(0, r.exit(), r.all());
        assertEquals("vm/100/2023-11-14T22:13:20Z: skipped (recently verified)\n", r.out());
    }

    @Test
    @Order(4)
    void pruneKeepLastOneKeepsTheProtectedSnapshot() {
        CliRunner.Result dry = cli.run("prune", "vm/100", "--keep-last", "1", "--dry-run");
        assertEquals(0, dry.exit(), dry.all());
        assertEquals("""
                snapshot                     action     reason
                ---------------------------  ---------  -------------
                vm/100/2023-11-14T22:13:20Z  protected  protected
                vm/100/2023-11-14T23:13:20Z  keep       keep-last 1/1
                """, dry.out());
        assertTrue(dry.err().contains("retention options: --keep-last 1"), dry.all());
        CliRunner.Result r = cli.run("prune", "vm/100", "--keep-last", "1");
        assertEquals(0, r.exit(), r.all());
        assertTrue(r.err().contains("kept 2, removed 0 snapshot(s)"), r.all());
        assertEquals(2, cli.run("snapshot", "list", "vm/100").out().lines().count() - 2);

        CliRunner.Result bad = cli.run("prune", "vm/100", "--keep-last", "0");
        assertEquals(2, bad.exit(), bad.all()); // a usage error, like a value that is not a number
        assertEquals("jpbs: error: --keep-last must be at least 1, got 0 (see 'jpbs prune --help')\n", bad.err());
        assertEquals(2, cli.run("prune", "vm/100", "--keep-daily", "x").exit());
        CliRunner.Result none = cli.run("prune", "vm/999", "--keep-last", "1");
        assertEquals("jpbs: error: group vm/999 has no snapshots\n", none.err());
    }

    @Test
    @Order(5)
    void corruptChunkFailsVerifyAndIsRenamed() throws Exception {
        Path chunk = ds.resolve(".chunks").resolve(CHANGED_CHUNK.substring(0, 4)).resolve(CHANGED_CHUNK);
        byte[] raw = Files.readAllBytes(chunk);
        raw[raw.length / 2] ^= 1;
        Files.write(chunk, raw);
        CliRunner.Result r = cli.run("verify", "vm/100");
        assertEquals(1, r.exit(), r.all());
        assertEquals("""
                vm/100/2023-11-14T23:13:20Z: FAILED
                vm/100/2023-11-14T22:13:20Z: ok
                """, r.out());
        assertTrue(r.err().contains("jpbs: vm/100/2023-11-14T23:13:20Z/drive-scsi0.img.fidx: can't verify chunk, load failed - "),
                r.all());
        assertTrue(r.err().contains("renamed to " + CHANGED_CHUNK + ".0.bad"), r.all());
        assertTrue(r.err().endsWith("jpbs: error: 1 snapshot(s) failed verification: vm/100/2023-11-14T23:13:20Z\n"), r.all());
        assertFalse(Files.exists(chunk));
        assertTrue(Files.exists(chunk.resolveSibling(CHANGED_CHUNK + ".0.bad")));

        CliRunner.Result gc = cli.run("gc", "--threads", "2");
        assertEquals(0, gc.exit(), gc.all());
        assertTrue(gc.err().contains("jpbs: warning: unable to access non-existent chunk " + CHANGED_CHUNK
                + ", required by " + ds.resolve("vm/100/2023-11-14T23:13:20Z/drive-scsi0.img.fidx")), gc.all());
        assertTrue(Files.exists(chunk.resolveSibling(CHANGED_CHUNK + ".0.bad")), "kept while referenced and missing");
    }

    /** Regression (s3-break47): {@code verify --ns NS} without SNAPSHOT verified every namespace. */
    @Test
    @Order(6)
    void verifyNsWithoutSnapshotStaysInThatNamespace() {
        CliRunner.Result r = cli.run("verify", "--ns", "prod");
        assertEquals(0, r.exit(), r.all());
        assertEquals("ns prod: host/web/2023-11-14T22:13:20Z: ok\n", r.out());
        CliRunner.Result none = cli.run("verify", "--ns", "nosuch");
        assertEquals(1, none.exit(), none.all());
        assertEquals("", none.out());
        assertEquals("jpbs: error: --ns: namespace 'nosuch' not found in " + ds + "\n", none.err());
        CliRunner.Result prune = cli.run("prune", "vm/100", "--keep-last", "1", "--ns", "nosuch");
        assertEquals("jpbs: error: --ns: namespace 'nosuch' not found in " + ds + "\n", prune.err());
    }

    /** Regression (s3-break47): a prune whose removals failed exited 0. */
    @Test
    @Order(7)
    void pruneExitsOneWhenASnapshotCannotBeRemoved() throws Exception {
        Path conf = tmp.resolve("x.conf");
        Files.writeString(conf, "memory: 1\n");
        for (long t : new long[] {1_700_100_000L, 1_700_200_000L}) {
            CliRunner.Result b = cli.run("backup", "-q", "--backup-type", "ct", "--backup-id", "301",
                    "--backup-time", Long.toString(t), "c.conf:" + conf);
            assertEquals(0, b.exit(), b.all());
        }
        var store = org.jpbs.datastore.snapshot.Datastore.open(ds);
        var old = org.jpbs.core.api.BackupSnapshotRef.parse(org.jpbs.core.api.BackupNamespace.ROOT,
                "ct/301/" + org.jpbs.core.api.BackupSnapshotRef.formatTime(1_700_100_000L));
        try (var lock = store.lockSnapshotShared(old, "test reader")) {
            CliRunner.Result r = cli.run("prune", "ct/301", "--keep-last", "1");
            assertEquals(1, r.exit(), r.all());
            assertTrue(r.err().contains("is locked by another operation"), r.all());
            assertTrue(r.err().endsWith("jpbs: error: prune of ct/301: 1 of 1 snapshot(s) to remove could not be removed"
                    + " (see the warnings above)\n"), r.all());
        }
        assertEquals(2, store.listSnapshots(old.group()).size());
        CliRunner.Result again = cli.run("prune", "ct/301", "--keep-last", "1");
        assertEquals(0, again.exit(), again.all());
        assertEquals(1, store.listSnapshots(old.group()).size());
    }

    /** Regression (s3-break47): a verify problem repeated "snapshot/archive: " twice. */
    @Test
    @Order(8)
    void verifyProblemNamesTheFileOnce() throws Exception {
        Path blob = ds.resolve("vm/100/2023-11-14T22:13:20Z/qemu-server.conf.blob");
        long size = Files.size(blob);
        Files.write(blob, new byte[] {1}, java.nio.file.StandardOpenOption.APPEND);
        CliRunner.Result r = cli.run("verify", "vm/100/2023-11-14T22:13:20Z");
        assertEquals(1, r.exit(), r.all());
        assertTrue(r.err().startsWith("jpbs: vm/100/2023-11-14T22:13:20Z/qemu-server.conf.blob: blob size " + (size + 1)
                + " does not match the manifest (" + size + ")\n"), r.all());
    }
}
