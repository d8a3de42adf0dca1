package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.api.Upid;
import org.jpbs.core.pipeline.ThreadBudget;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.task.TaskInfo;
import org.jpbs.datastore.task.TaskState;
import org.jpbs.server.api.LocalDatastoreJobs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several backup sessions and garbage collections at once on a server whose thread budget is 2
 * ({@code docs/design.md#thread-budget}): everything completes and the budget's own counters never
 * show more than 2 CPU threads busy.
 */
class ThreadBudgetServerTest {
    private static final int LIMIT = 2;
    private static final int SESSIONS = 4;

    @TempDir
    Path tmp;

    @Test
    void sessionsAndGcShareTheBudget() throws Exception {
        ThreadBudget budget = new ThreadBudget(LIMIT, "test-budget");
        AtomicReference<ServerServices> services = new AtomicReference<>();
        try (TestServer s = TestServer.startWithServices(tmp, svc -> {
            ServerServices b = svc.withBudget(budget).withJobs(new LocalDatastoreJobs("root@pam", budget));
            services.set(b);
            return b;
        }, "store1")) {
            // something for the GC to mark: one finished snapshot before the rush
            Backups.imageBackup(s, "store1", "100", 1_700_000_000L, Backups.image(1, 2, 1000));
            long before = budget.completed();

            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger sampledMax = new AtomicInteger();
            AtomicInteger poolThreadsMax = new AtomicInteger();
            Thread sampler = Thread.ofPlatform().daemon().start(() -> {
                for (long i = 0; !stop.get(); i++) {
                    sampledMax.accumulateAndGet(budget.busy(), Math::max);
                    if (i % 100 == 0) {
                        int alive = (int) Thread.getAllStackTraces().keySet().stream()
                                .filter(t -> t.getName().startsWith("test-budget-")).count();
                        poolThreadsMax.accumulateAndGet(alive, Math::max);
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000);
                }
            });

            ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
            List<Future<?>> backups = new ArrayList<>();
            for (int i = 0; i < SESSIONS; i++) {
                int n = i;
                backups.add(clients.submit(() -> Backups.imageBackup(s, "store1", "20" + n, 1_700_000_100L + n,
                        Backups.image(10 + n, 2, 5000))));
            }
            int gcRuns = 0;
            do {
                assertEquals("OK", runGc(services.get()).toString(), "GC run " + gcRuns);
                gcRuns++;
            } while (backups.stream().anyMatch(f -> !f.isDone()));
            for (Future<?> f : backups) {
                f.get(120, TimeUnit.SECONDS);
            }
            clients.close();
            stop.set(true);
            sampler.join();

            for (int i = 0; i < SESSIONS; i++) {
                BackupGroupRef g = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "20" + i);
                assertEquals(1, s.ds("store1").listSnapshots(g).size(), "backup " + i + " finished");
            }
            // 3 chunks per session went through the budget, and every GC took a permit
            assertTrue(budget.completed() - before >= SESSIONS * 3L + gcRuns,
                    "work counted: " + (budget.completed() - before) + " for " + gcRuns + " GC runs");
            assertTrue(sampledMax.get() <= LIMIT, "busy seen " + sampledMax.get());
            assertTrue(budget.peakBusy() <= LIMIT && budget.peakBusy() >= 1, "peak " + budget.peakBusy());
            assertTrue(poolThreadsMax.get() <= LIMIT, "pool threads seen " + poolThreadsMax.get());
            assertEquals(0, budget.busy(), "no slot left held");
        } finally {
            budget.close();
        }
    }

    private static TaskState runGc(ServerServices svc) throws Exception {
        try (DatastoreHandle h = svc.datastores().lookup("store1", Operation.WRITE)) {
            Upid upid = svc.tasks().spawn("garbage_collection", "store1", "root@pam", svc.jobs().garbageCollection(h));
            TaskInfo info;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while ((info = svc.tasks().info(upid).orElseThrow()).running()) {
                assertTrue(System.nanoTime() < deadline, "GC did not end");
                Thread.sleep(20);
            }
            return info.state();
        }
    }
}
