package org.jpbs.datastore.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jpbs.core.api.Upid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tasks: UPIDs, log files, exit states, listing filters, stop, and the archive across restarts. */
class TaskManagerTest {
    @TempDir
    Path tmp;

    static TaskState await(TaskManager m, Upid u) throws InterruptedException {
        for (int i = 0; i < 3000; i++) {
            TaskInfo t = m.info(u).orElseThrow();
            if (!t.running()) {
                return t.state();
            }
            Thread.sleep(10);
        }
        throw new AssertionError("task did not end: " + u);
    }

    @Test
    void twoTaskManagersOfOneProcessNeverShareAUpid() throws Exception {
        // in-process commands (tests) open a task manager each, on the same directory, in the same second
        Clock clock = Clock.fixed(Instant.ofEpochSecond(1_700_000_000L), ZoneOffset.UTC);
        TaskManager a = new TaskManager(tmp.resolve("log"), "pbs1", clock);
        TaskManager b = new TaskManager(tmp.resolve("log"), "pbs1", clock);
        Upid x = a.spawn("syncjob", "s", "root@pam", log -> log.log("a"));
        Upid y = b.spawn("syncjob", "s", "root@pam", log -> log.log("b"));
        assertEquals("OK", await(a, x).text());
        assertEquals("OK", await(b, y).text());
        assertTrue(!x.equals(y) && x.taskId() != y.taskId(), x + " " + y);
        assertTrue(Files.readString(a.logFile(x)).contains(": a\n") && Files.readString(b.logFile(y)).contains(": b\n"));
    }

    @Test
    void aJobRunsAsATaskWithALogAndAnExitState() throws Exception {
        Clock clock = Clock.fixed(Instant.ofEpochSecond(1_700_000_000L), ZoneOffset.ofHours(1));
        TaskManager m = new TaskManager(tmp.resolve("log"), "pbs1", clock);
        Upid ok = m.spawn("garbage_collection", "store1", "root@pam", log -> {
            log.log("starting garbage collection on store store1");
            log.log("two\nlines");
        });
        assertEquals("OK", await(m, ok).text());
        assertEquals("pbs1", ok.node());
        assertEquals(ProcessHandle.current().pid(), ok.pid());
        assertEquals(1_700_000_000L, ok.startTime());
        assertTrue(ok.toString().startsWith("UPID:pbs1:"), ok.toString());
        List<String> lines = Files.readAllLines(m.logFile(ok));
        assertEquals(List.of("2023-11-14T23:13:20+01:00: starting garbage collection on store store1",
                "2023-11-14T23:13:20+01:00: two", "2023-11-14T23:13:20+01:00: lines", "2023-11-14T23:13:20+01:00: TASK OK"),
                lines, "the 25-character time the PBS client strips, then the message");

        Upid warn = m.spawn("verify", "store1", "root@pam", log -> {
            log.warn("chunk x missing");
            log.warn("chunk y missing");
        });
        assertEquals("WARNINGS: 2", await(m, warn).text());
        assertEquals(TaskState.Kind.WARNING, await(m, warn).kind());
        Upid err = m.spawn("prune", "store2", "bench@pbs!t1", log -> {
            throw new java.io.IOException("cannot remove snapshot\nsecond line");
        });
        TaskState e = await(m, err);
        assertEquals(TaskState.Kind.ERROR, e.kind());
        assertEquals("cannot remove snapshot", e.text());
        assertEquals("2023-11-14T23:13:20+01:00: TASK ERROR: cannot remove snapshot",
                Files.readAllLines(m.logFile(err)).getLast());

        TaskManager.LogPage page = m.log(ok, 1, 2);
        assertEquals(List.of("2023-11-14T23:13:20+01:00: two", "2023-11-14T23:13:20+01:00: lines"), page.lines());
        assertEquals(4, page.total());
        assertFalse(page.active());
    }

    @Test
    void stopAbortsARunningTask() throws Exception {
        TaskManager m = TaskManager.open(tmp.resolve("log"));
        CountDownLatch started = new CountDownLatch(1);
        Upid u = m.spawn("garbage_collection", "store1", "root@pam", log -> {
            started.countDown();
            while (true) {
                log.checkAbort();
                Thread.sleep(5);
            }
        });
        assertTrue(started.await(30, TimeUnit.SECONDS));
        assertTrue(m.info(u).orElseThrow().running());
        assertTrue(m.log(u, 0, 0).active());
        assertTrue(m.stop(u));
        assertEquals("abort requested - aborting task", await(m, u).text());
        assertFalse(m.stop(u), "not running any more");
        // a task whose end the caller decides (a backup session)
        WorkerTask b = m.begin("backup", "store1:vm/100", "bench@pbs!t1");
        List<String> aborted = new java.util.ArrayList<>();
        b.onAbort(() -> aborted.add("closed"));
        assertTrue(m.stop(b.upid()));
        assertEquals(List.of("closed"), aborted);
        b.finish("connection closed before finish");
        assertEquals("connection closed before finish", m.info(b.upid()).orElseThrow().state().text());
        assertEquals("backup:store1\\x3avm-100:bench@pbs!t1:",
                b.upid().toString().substring(b.upid().toString().indexOf("backup:")));
    }

    @Test
    void listingFiltersAndTheArchiveSurviveARestart() throws Exception {
        Path logDir = tmp.resolve("log");
        TaskManager m = TaskManager.open(logDir);
        WorkerTask b1 = m.begin("backup", "store1:vm/100", "bench@pbs!t1");
        b1.finish((String) null);
        WorkerTask b2 = m.begin("backup", "store2:ct/7", "root@pam");
        b2.finish("backup ended but finished flag is not set.");
        WorkerTask gc = m.begin("garbage_collection", "store1", "root@pam");
        gc.warn("w");
        gc.finish((String) null);
        WorkerTask live = m.begin("reader", "store1:vm/100", "bench@pbs!t1");

        assertEquals(4, m.list(TaskFilter.DEFAULT).total());
        assertEquals(live.upid(), m.list(TaskFilter.DEFAULT).tasks().getFirst().upid(), "newest first");
        assertEquals(List.of(live.upid(), gc.upid(), b1.upid()), upids(m, filter("store1", false, false, null, null, Set.of())));
        assertEquals(List.of(live.upid()), upids(m, filter(null, true, false, null, null, Set.of())));
        assertEquals(List.of(b2.upid()), upids(m, filter(null, false, true, null, null, Set.of())));
        assertEquals(List.of(live.upid(), b1.upid()), upids(m, filter(null, false, false, "t1", null, Set.of())));
        assertEquals(List.of(b2.upid(), b1.upid()), upids(m, filter(null, false, false, null, "backup", Set.of())));
        assertEquals(List.of(gc.upid(), b1.upid()),
                upids(m, filter(null, false, false, null, null, Set.of(TaskState.Kind.OK, TaskState.Kind.WARNING))));
        TaskManager.TaskList page = m.list(new TaskFilter(1, 2, null, false, false, null, null, null, null, Set.of()));
        assertEquals(4, page.total());
        assertEquals(List.of(gc.upid(), b2.upid()), page.tasks().stream().map(TaskInfo::upid).toList());

        TaskManager again = TaskManager.open(logDir);
        assertEquals(List.of(gc.upid(), b2.upid(), b1.upid()), upids(again, TaskFilter.DEFAULT.withLimit(0)),
                "finished tasks come back from the archive; the one that was running is gone");
        assertEquals("WARNINGS: 1", again.info(gc.upid()).orElseThrow().state().text());
        assertEquals("2", String.valueOf(again.log(gc.upid(), 0, 0).total()));
    }

    static TaskFilter filter(String store, boolean running, boolean errors, String user, String type, Set<TaskState.Kind> s) {
        return new TaskFilter(0, 0, store, running, errors, user, null, null, type, s);
    }

    static List<Upid> upids(TaskManager m, TaskFilter f) {
        return m.list(f).tasks().stream().map(TaskInfo::upid).toList();
    }
}
