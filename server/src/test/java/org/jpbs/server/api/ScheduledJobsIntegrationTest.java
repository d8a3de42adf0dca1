package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.jobs.JobState;
import org.jpbs.datastore.jobs.JobStateStore;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.task.TaskState;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.jobs.JobStatus;
import org.jpbs.server.jobs.ScheduledJob;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The done-when test of the scheduler ({@code docs/jobs.md#the-scheduler}): a prune job, a
 * verification job and the datastore's GC with schedule {@code *:0/1} on a running server each run within 70 s as a
 * task with a log (the prune really removed snapshots, the verify really verified), and their
 * state is there after a server restart.
 */
class ScheduledJobsIntegrationTest {
    static final long T = 1_700_000_000L;

    @TempDir
    Path tmp;

    JpbsServer start(Path config, Path ds) throws Exception {
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of(), "127.0.0.1", 0);
        JpbsRestHandler rest = JpbsRestHandler.create(sc, auth);
        rest = rest.withServices(rest.services().withJobs(new LocalDatastoreJobs("root@pam", rest.services().budget())));
        JpbsServer server = JpbsServer.start(sc, auth, rest);
        server.services().scheduler().start(new ScheduledJobs(server.services(), config)::all, Duration.ofSeconds(1));
        return server;
    }

    @Test
    void pruneAndVerifyJobsEveryMinuteRunAsTasksAndKeepTheirStateOverARestart() throws Exception {
        Path config = tmp.resolve("config");
        Path root = tmp.resolve("ds");
        Datastore ds = DatastorePool.datastore(root, SyncLevel.NONE);
        for (int i = 0; i < 3; i++) {
            OwnershipApiTest.snapshot(ds, BackupNamespace.ROOT, "web", T + 3600L * i, "root@pam");
        }
        Files.createDirectories(config);
        Files.writeString(config.resolve("datastore.cfg"), "datastore: store1\n\tgc-schedule *:0/1\n\tpath " + root + "\n");
        Files.writeString(config.resolve("prune.cfg"), "prune: keep1\n\tkeep-last 1\n\tschedule *:0/1\n\tstore store1\n");
        Files.writeString(config.resolve("verification.cfg"),
                "verification: verify1\n\tignore-verified false\n\tschedule *:0/1\n\tstore store1\n");
        JobStateStore states = JobStateStore.open(config);
        long began = System.nanoTime();
        String pruneUpid;
        String verifyUpid;
        try (JpbsServer server = start(config, root)) {
            JobState.Finished prune = awaitFinished(states, "prunejob", "keep1");
            JobState.Finished verify = awaitFinished(states, "verificationjob", "verify1");
            JobState.Finished gc = awaitFinished(states, "garbage_collection", "store1");
            assertEquals("garbage_collection", Upid.parse(gc.upid()).workerType());
            assertEquals(TaskState.Kind.OK, gc.state().kind(), gc.toString());
            long seconds = (System.nanoTime() - began) / 1_000_000_000L;
            assertTrue(seconds <= 70, "both ran within 70 s, took " + seconds);
            pruneUpid = prune.upid();
            verifyUpid = verify.upid();
            assertEquals("prunejob", Upid.parse(pruneUpid).workerType());
            assertEquals("store1:keep1", Upid.parse(pruneUpid).workerId());
            assertEquals("verificationjob", Upid.parse(verifyUpid).workerType());
            assertEquals(TaskState.Kind.OK, prune.state().kind(), prune.toString());
            String pruneLog = String.join("\n", server.services().tasks().log(Upid.parse(pruneUpid), 0, 1000).lines());
            assertTrue(pruneLog.contains("Pruning group \"host/web\""), pruneLog);
            assertTrue(pruneLog.contains("TASK OK"), pruneLog);
            String verifyLog = String.join("\n", server.services().tasks().log(Upid.parse(verifyUpid), 0, 1000).lines());
            assertTrue(verifyLog.contains("verify datastore store1"), verifyLog);
            assertEquals(1, ds.listSnapshots(new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "web")).size(),
                    "keep-last 1 kept one snapshot");
        }
        try (JpbsServer again = start(config, root)) {
            ScheduledJob job = new ScheduledJobs(again.services(), config).all().stream()
                    .filter(j -> j.id().equals("keep1")).findFirst().orElseThrow();
            JobStatus st = again.services().scheduler().status(job);
            JobState s = states.load("prunejob", "keep1", 0);
            assertTrue(s.lastUpid().isPresent());
            // the state after the restart is the last run (this one or a later one), with its end
            assertTrue(st.lastRunUpid() == null || st.lastRunUpid().startsWith("UPID:"), st.toString());
            assertTrue(st.nextRun() != null && st.nextRun() % 60 == 0, st.toString());
            if (s instanceof JobState.Finished f && f.upid().equals(pruneUpid)) {
                assertEquals("OK", st.lastRunState());
                assertEquals(pruneUpid, st.lastRunUpid());
            }
            assertTrue(again.services().tasks().info(Upid.parse(pruneUpid)).isPresent(), "the run's task is listed after the restart");
        }
    }

    static JobState.Finished awaitFinished(JobStateStore states, String type, String id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(75).toNanos();
        while (System.nanoTime() < deadline) {
            JobState s = states.load(type, id, 0);
            if (s instanceof JobState.Finished f) {
                return f;
            }
            Thread.sleep(250);
        }
        return assertInstanceOf(JobState.Finished.class, states.load(type, id, 0), type + "-" + id + " did not finish in time");
    }
}
