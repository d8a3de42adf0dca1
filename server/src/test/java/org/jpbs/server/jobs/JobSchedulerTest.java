package org.jpbs.server.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.config.DatastoreCache;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.jobs.JobState;
import org.jpbs.datastore.jobs.JobStateStore;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.task.TaskJob;
import org.jpbs.datastore.task.TaskManager;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler with a moving test clock ({@code docs/jobs.md#the-scheduler}): runs missed
 * while the server was down run once, a running job is never started again, a datastore in
 * maintenance skips its job until it is back.
 */
class JobSchedulerTest {
    static final Instant T = Instant.parse("2026-12-02T10:30:00Z");

    @TempDir
    Path tmp;
    Path config;
    AtomicReference<Instant> now = new AtomicReference<>(T);
    JobScheduler scheduler;
    TaskManager tasks;
    AtomicInteger runs = new AtomicInteger();
    volatile CountDownLatch hold = new CountDownLatch(0);

    final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };

    final ScheduledJob job = new ScheduledJob() {
        public String stateType() {
            return "prunejob";
        }

        public String id() {
            return "hourly1";
        }

        public String workerType() {
            return "prunejob";
        }

        public String workerId() {
            return "store1:hourly1";
        }

        public String schedule() {
            return "hourly";
        }

        public String store() {
            return "store1";
        }

        public Operation operation() {
            return Operation.WRITE;
        }

        public TaskJob task(DatastoreHandle h) {
            return log -> {
                runs.incrementAndGet();
                log.log("running at " + now.get());
                hold.await();
            };
        }
    };

    @BeforeEach
    void setUp() throws Exception {
        config = tmp.resolve("config");
        Files.createDirectories(config);
        Path ds = tmp.resolve("ds");
        DatastorePool.create(ds, SyncLevel.NONE);
        Files.writeString(config.resolve("datastore.cfg"), "datastore: store1\n\tpath " + ds + "\n");
        DatastoreCache cache = new DatastoreCache(DatastoreConfigStore.open(config), Map.of(), System::nanoTime);
        tasks = new TaskManager(config.resolve("log"), "testnode", clock);
        scheduler = new JobScheduler(config, cache, tasks, clock, ZoneOffset.UTC);
    }

    JobState.Finished awaitFinished() throws Exception {
        for (int i = 0; i < 200; i++) {
            JobState s = scheduler.states().load("prunejob", "hourly1", 0);
            if (s instanceof JobState.Finished f && !scheduler.isRunning(job)) {
                return f;
            }
            Thread.sleep(20);
        }
        return assertInstanceOf(JobState.Finished.class, scheduler.states().load("prunejob", "hourly1", 0));
    }

    @Test
    void runsMissedWhileDownRunOnce() throws Exception {
        scheduler.states().save("prunejob", "hourly1", new JobState.Created(T.minusSeconds(5 * 3600).getEpochSecond()));
        List<Upid> started = scheduler.tick(List.of(job));
        assertEquals(1, started.size(), "five missed hourly events: one run");
        JobState.Finished f = awaitFinished();
        assertEquals(started.getFirst().toString(), f.upid());
        assertEquals("OK", f.state().text());
        assertEquals(List.of(), scheduler.tick(List.of(job)), "the next event counts from this run");
        now.set(Instant.parse("2026-12-02T11:00:00Z"));
        assertEquals(1, scheduler.tick(List.of(job)).size(), "the next full hour");
        awaitFinished();
        assertEquals(2, runs.get());
        JobStatus st = scheduler.status(job);
        assertEquals(Instant.parse("2026-12-02T12:00:00Z").getEpochSecond(), st.nextRun());
        assertEquals("OK", st.lastRunState());
    }

    @Test
    void aRunningJobIsNeverStartedTwice() throws Exception {
        hold = new CountDownLatch(1);
        scheduler.states().save("prunejob", "hourly1", new JobState.Created(T.minusSeconds(3600).getEpochSecond()));
        assertEquals(1, scheduler.tick(List.of(job)).size());
        assertInstanceOf(JobState.Started.class, scheduler.states().load("prunejob", "hourly1", 0));
        now.set(T.plusSeconds(7200));
        assertEquals(List.of(), scheduler.tick(List.of(job)), "still running: not started again");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> scheduler.runNow(job, "root@pam"));
        assertTrue(e.getMessage().startsWith("job 'hourly1' is already running (UPID:"), e.getMessage());
        hold.countDown();
        awaitFinished();
        assertEquals(1, runs.get());
        assertEquals(1, scheduler.tick(List.of(job)).size(), "after it ended, the due event runs");
        awaitFinished();
    }

    @Test
    void aDatastoreInMaintenanceSkipsItsJobsUntilItIsBack() throws Exception {
        Path cfg = config.resolve("datastore.cfg");
        Files.writeString(cfg, Files.readString(cfg) + "\tmaintenance-mode read-only\n");
        scheduler.states().save("prunejob", "hourly1", new JobState.Created(T.minusSeconds(3600).getEpochSecond()));
        Thread.sleep(1100); // the datastore cache re-reads datastore.cfg at most once a second
        assertEquals(List.of(), scheduler.tick(List.of(job)));
        assertEquals(List.of(), scheduler.tick(List.of(job)));
        assertEquals(0, runs.get());
        assertInstanceOf(JobState.Created.class, scheduler.states().load("prunejob", "hourly1", 0), "nothing recorded");
        Files.writeString(cfg, Files.readString(cfg).replace("\tmaintenance-mode read-only\n", ""));
        Thread.sleep(1100);
        assertEquals(1, scheduler.tick(List.of(job)).size(), "runs once when the datastore is back");
        awaitFinished();
        assertTrue(Files.exists(JobStateStore.open(config).file("prunejob", "hourly1")));
    }
}
