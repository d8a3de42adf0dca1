package org.jpbs.server;

import org.jpbs.core.testing.SmallTmpfs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jpbs.core.blob.EncodedChunk;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 9 through the backup protocol, on a datastore that is a real full file system
 * (a 12 MiB tmpfs): a chunk upload and a backup start that cannot write answer 500 (not 400)
 * naming the datastore and the file relative to it, never a server path.
 */
class FullDiskServerTest {
    private static final long T = 1_700_000_000L;

    @TempDir
    Path tmp;

    @Test
    void writesOntoAFullDatastoreAnswer500NamingDatastoreAndFile() throws Exception {
        Optional<SmallTmpfs> mounted = SmallTmpfs.mount(tmp.resolve("ds-store1"), "12m");
        Assumptions.assumeTrue(mounted.isPresent(), "cannot mount a tmpfs here (needs root): skipping the full-disk test");
        try (SmallTmpfs fs = mounted.get(); TestServer s = TestServer.start(tmp, "store1")) {
            byte[] img = Backups.random(5, 3 * 1024 * 1024);
            List<EncodedChunk> chunks = Backups.fixedChunks(img);
            try (PbsTestClient c = s.backup(Backups.backupQuery("store1", "300", T))) {
                PbsTestClient.Resp r = c.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=" + img.length);
                int wid = r.data().asInt();
                fs.fill("filler");
                EncodedChunk ch = chunks.get(0);
                r = c.call("POST", Backups.chunkQuery("fixed", wid, ch), "application/octet-stream", ch.blob().raw());
                assertEquals(500, r.status(), r.toString());
                assertEquals("datastore 'store1': no space left on device writing .chunks/" + ch.digest().prefix() + "/"
                        + ch.digest().hex(), r.text());
                assertFalse(r.text().contains(tmp.toString()), r.text());
            }
            s.awaitIdle();
            fs.fill("filler2"); // the aborted backup freed its pages
            // a new backup cannot even register itself as a writer
            PbsTestClient c = PbsTestClient.connect(s.port(), s.server.fingerprint(), PbsTestClient.BACKUP);
            try (c) {
                PbsTestClient.Resp r = c.upgrade("/api2/json/backup?" + Backups.backupQuery("store1", "301", T),
                        Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN,
                                "Content-Type", "application/x-www-form-urlencoded"));
                assertNotNull(r, "upgrade must be refused");
                assertEquals(500, r.status(), r.toString());
                // the first file a new backup writes is its writer registration (.writers/), before the owner file
                assertEquals("datastore 'store1': no space left on device writing .writers", r.text());
            }
            assertTrue(s.ds("store1").listSnapshots(new org.jpbs.core.api.BackupGroupRef(
                    org.jpbs.core.api.BackupNamespace.ROOT, org.jpbs.core.api.BackupType.VM, "300")).isEmpty());
        }
    }

    /** The verify task on a full datastore: every snapshot verified, a warning per manifest, the task ends in error. */
    @Test
    void verifyTaskReportsEverySnapshotAndWarnsPerManifest() throws Exception {
        Optional<SmallTmpfs> mounted = SmallTmpfs.mount(tmp.resolve("ds-store1"), "12m");
        Assumptions.assumeTrue(mounted.isPresent(), "cannot mount a tmpfs here (needs root): skipping the full-disk test");
        try (SmallTmpfs fs = mounted.get(); TestServer s = TestServer.start(tmp, "store1")) {
            for (String id : new String[] {"310", "311"}) {
                Backups.imageBackup(s, "store1", id, T, Backups.random(Long.parseLong(id), 1 << 20));
            }
            s.awaitIdle();
            fs.fill("filler");
            var cache = new org.jpbs.datastore.config.DatastoreCache(
                    org.jpbs.datastore.config.DatastoreConfigStore.open(tmp.resolve("verify-config")),
                    Map.of("store1", fs.dir()), System::nanoTime);
            List<String> lines = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            Exception failure = null;
            try (var h = cache.lookup("store1", org.jpbs.datastore.config.Operation.WRITE)) {
                new org.jpbs.server.api.LocalDatastoreJobs("root@pam", new org.jpbs.core.pipeline.ThreadBudget(2, "test-cpu")).verify(h, Map.of(), org.jpbs.server.api.GroupScope.ALL).run(
                        new org.jpbs.datastore.task.TaskLog() {
                            @Override
                            public void log(String message) {
                                lines.add(message);
                            }

                            @Override
                            public void warn(String message) {
                                lines.add("WARN: " + message);
                            }

                            @Override
                            public boolean abortRequested() {
                                return false;
                            }
                        });
            } catch (java.io.IOException e) {
                failure = e;
            }
            assertNotNull(failure, "the task ends in error: " + lines);
            assertEquals("verify state of 2 snapshot(s) could not be recorded", failure.getMessage());
            for (String id : new String[] {"310", "311"}) {
                String snap = "vm/" + id + "/" + org.jpbs.core.api.BackupSnapshotRef.formatTime(T);
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("verified " + snap + ": ok")), lines.toString());
                assertTrue(lines.contains("WARN: " + snap + "/index.json.blob: could not record the verify state (ok): "
                        + "No space left on device"), lines.toString());
            }
            assertTrue(lines.stream().noneMatch(l -> l.contains(tmp.toString())), "no server path in the task log: " + lines);
        }
    }
}
