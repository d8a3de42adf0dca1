package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.task.TaskFilter;
import org.jpbs.datastore.task.TaskInfo;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code verify-new}: a snapshot is verified by its own task right after its backup finished ({@code docs/jobs.md}). */
class VerifyNewTest {
    @TempDir
    Path tmp;

    @Test
    void aFinishedBackupIsVerifiedWhenTheDatastoreSaysVerifyNew() throws Exception {
        Path vn = tmp.resolve("vn");
        Path plain = tmp.resolve("plain");
        DatastorePool.create(vn, SyncLevel.NONE);
        DatastorePool.create(plain, SyncLevel.NONE);
        Files.createDirectories(tmp.resolve("config"));
        Files.writeString(tmp.resolve("config/datastore.cfg"), "datastore: vnstore\n\tpath " + vn + "\n\tverify-new true\n\n"
                + "datastore: plain\n\tpath " + plain + "\n");
        try (TestServer s = TestServer.startWithJobs(tmp)) {
            long t = 1_700_000_000L;
            Backups.imageBackup(s, "vnstore", "100", t, Backups.image(7, 2, 1000));
            Backups.imageBackup(s, "plain", "100", t, Backups.image(8, 2, 1000));
            s.awaitIdle();
            TaskInfo verify = null;
            for (int i = 0; i < 200 && verify == null; i++) {
                List<TaskInfo> l = s.server.services().tasks().list(TaskFilter.DEFAULT).tasks();
                verify = l.stream().filter(x -> x.upid().workerType().equals("verify") && !x.running()).findFirst().orElse(null);
                Thread.sleep(100);
            }
            assertTrue(verify != null, "a verify task ran");
            assertEquals(String.format("vnstore:vm/100/%08X", t), verify.upid().workerId());
            assertEquals("OK", verify.state().text());
            String log = String.join("\n", s.server.services().tasks().log(verify.upid(), 0, 100).lines());
            assertTrue(log.lines().findFirst().orElse("").endsWith(": Automatically verifying newly added snapshot"), log);
            long verifies = s.server.services().tasks().list(TaskFilter.DEFAULT).tasks().stream()
                    .filter(x -> x.upid().workerType().equals("verify")).count();
            assertEquals(1, verifies, "the store without verify-new was not verified");
            assertTrue(log.contains("verified vm/100/2023-11-14T22:13:20Z: ok"), log);
        }
    }
}
