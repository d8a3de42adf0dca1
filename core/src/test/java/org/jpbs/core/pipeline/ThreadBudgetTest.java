package org.jpbs.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ThreadBudgetTest {
    /** Spins a little so tasks overlap (CPU work, like hashing). */
    private static long spin(long seed) {
        long x = seed;
        for (int i = 0; i < 200_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    @Test
    void manyLanesAndPermitHoldersNeverExceedTheLimit() throws Exception {
        try (ThreadBudget budget = new ThreadBudget(3, "test-cpu")) {
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger maxInside = new AtomicInteger();
            AtomicInteger done = new AtomicInteger();
            Runnable work = () -> {
                maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                try {
                    spin(done.get());
                    // hold on until two tasks overlapped once (on a loaded machine the spin alone
                    // may end before another thread starts): the peak of at least 2 is then certain
                    // whenever the budget allows it, and a budget of 1 would still show as peak 1
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                    while (maxInside.get() < 2 && System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                } finally {
                    inside.decrementAndGet();
                    done.incrementAndGet();
                }
            };
            // 6 users: 5 lanes asking for 4 threads each, 1 thread taking permits (a GC)
            ExecutorService users = Executors.newVirtualThreadPerTaskExecutor();
            List<Future<?>> all = new ArrayList<>();
            for (int u = 0; u < 5; u++) {
                all.add(users.submit(() -> {
                    ExecutorService lane = budget.lane("user", 4);
                    List<Future<?>> fs = new ArrayList<>();
                    for (int i = 0; i < 40; i++) {
                        fs.add(lane.submit(work));
                    }
                    for (Future<?> f : fs) {
                        f.get();
                    }
                    lane.shutdown();
                    assertTrue(lane.awaitTermination(10, TimeUnit.SECONDS));
                    return null;
                }));
            }
            all.add(users.submit(() -> {
                for (int i = 0; i < 40; i++) {
                    try (ThreadBudget.Permit p = budget.acquire(); ThreadBudget.Permit nested = budget.acquire()) {
                        work.run();
                    }
                }
                return null;
            }));
            for (Future<?> f : all) {
                f.get(60, TimeUnit.SECONDS);
            }
            users.close();
            assertEquals(240, done.get(), "every task ran");
            assertTrue(maxInside.get() <= 3, "at most 3 at once, saw " + maxInside.get());
            assertTrue(budget.peakBusy() <= 3 && budget.peakBusy() >= 2, "peak " + budget.peakBusy());
            assertEquals(0, budget.busy());
            assertEquals(240, budget.completed());
        }
    }

    @Test
    void aLaneRunsAtMostItsParallelism() throws Exception {
        try (ThreadBudget budget = new ThreadBudget(4, "test-cpu")) {
            ExecutorService lane = budget.lane("one", 1);
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger maxInside = new AtomicInteger();
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                fs.add(lane.submit(() -> {
                    maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    spin(1);
                    inside.decrementAndGet();
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            assertEquals(1, maxInside.get());
            lane.shutdown();
            assertTrue(lane.awaitTermination(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void aFailingTaskOrPermitHolderLeaksNoSlot() throws Exception {
        try (ThreadBudget budget = new ThreadBudget(2, "test-cpu")) {
            ExecutorService lane = budget.lane("failing", 2);
            for (int i = 0; i < 10; i++) {
                Future<?> f = lane.submit(() -> {
                    throw new IllegalStateException("boom");
                });
                ExecutionException e = assertThrows(ExecutionException.class, f::get);
                assertEquals("boom", e.getCause().getMessage());
            }
            lane.execute(() -> {
                throw new IllegalStateException("boom on a bare execute");
            });
            for (int i = 0; i < 5; i++) {
                assertThrows(IllegalStateException.class, () -> {
                    try (ThreadBudget.Permit p = budget.acquire()) {
                        throw new IllegalStateException("gc failed");
                    }
                });
            }
            lane.shutdown();
            assertTrue(lane.awaitTermination(5, TimeUnit.SECONDS));
            assertEquals(0, budget.busy());
            // both slots are free: two permit holders at once do not wait
            CountDownLatch both = new CountDownLatch(2);
            ExecutorService two = Executors.newVirtualThreadPerTaskExecutor();
            for (int i = 0; i < 2; i++) {
                two.submit(() -> {
                    try (ThreadBudget.Permit p = budget.acquire()) {
                        both.countDown();
                        both.await();
                    }
                    return null;
                });
            }
            assertTrue(both.await(5, TimeUnit.SECONDS), "two slots free after the failures");
            two.close();
        }
    }

    @Test
    void shutdownNowInterruptsOnlyItsLaneAndCloseRejects() throws Exception {
        ThreadBudget budget = new ThreadBudget(2, "test-cpu");
        ExecutorService victim = budget.lane("victim", 1);
        ExecutorService other = budget.lane("other", 1);
        CountDownLatch started = new CountDownLatch(1);
        Future<?> blocked = victim.submit(() -> {
            started.countDown();
            Thread.sleep(60_000);
            return null;
        });
        Future<?> queued = victim.submit(() -> null);
        assertTrue(started.await(5, TimeUnit.SECONDS));
        List<Runnable> never = victim.shutdownNow();
        assertEquals(1, never.size(), "the queued task is handed back");
        assertTrue(victim.awaitTermination(5, TimeUnit.SECONDS));
        ExecutionException e = assertThrows(ExecutionException.class, blocked::get);
        assertTrue(e.getCause() instanceof InterruptedException);
        assertTrue(!queued.isDone());
        assertThrows(RejectedExecutionException.class, () -> victim.submit(() -> null));
        assertEquals(7, other.submit(() -> 7).get(5, TimeUnit.SECONDS), "the other lane still works");
        other.shutdown();
        assertTrue(other.awaitTermination(5, TimeUnit.SECONDS));
        budget.close();
        assertThrows(RejectedExecutionException.class, () -> budget.lane("late", 1).submit(() -> 1));
        assertThrows(IllegalArgumentException.class, () -> new ThreadBudget(0, "x"));
        assertThrows(IllegalArgumentException.class, () -> budget.lane("x", 0));
    }

    @Test
    void aPipelineOnALaneBehavesAsOnItsOwnPool() throws Exception {
        try (ThreadBudget budget = new ThreadBudget(2, "test-cpu")) {
            AtomicInteger sum = new AtomicInteger();
            ExecutorService lane = budget.lane("pipeline", 2);
            try (BoundedPipeline p = new BoundedPipeline("test", 4, lane)) {
                for (int i = 1; i <= 100; i++) {
                    int v = i;
                    p.submit(() -> sum.addAndGet(v));
                }
                p.finish();
            }
            assertEquals(5050, sum.get());
            assertTrue(lane.awaitTermination(5, TimeUnit.SECONDS), "close shut the lane down");
            assertEquals(0, budget.busy());
        }
    }
}
