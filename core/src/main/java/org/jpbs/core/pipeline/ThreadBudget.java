package org.jpbs.core.pipeline;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One budget of CPU threads shared by everything a process runs at once
 * ({@code docs/design.md#thread-budget}): a pool of {@link #limit()} platform threads and as
 * many CPU slots. Users get either a {@link #lane} (a bounded executor over the shared pool, shut
 * down by its user without touching the pool) or a {@link #acquire() permit} for CPU work on their
 * own thread (a GC task). Every lane task and every permit holds one slot, so however many
 * sessions, verifies and collections run together, at most {@code limit} of them compute at once.
 *
 * <p>A permit is reentrant on its thread (a lane task that asks for one already holds a slot). Do
 * not hold a permit while waiting for lane work: with a limit of 1 that would never end.
 */
public final class ThreadBudget implements AutoCloseable {
    private final int limit;
    private final Semaphore slots;
    private final ThreadPoolExecutor pool;
    private final AtomicInteger busy = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final AtomicLong tasks = new AtomicLong();
    private final ThreadLocal<int[]> held = ThreadLocal.withInitial(() -> new int[1]);

    /**
     * @param limit  CPU threads at most (1 or more)
     * @param prefix thread name prefix, e.g. {@code jpbs-cpu}; threads are named {@code prefix-1..}
     */
    public ThreadBudget(int limit, String prefix) {
        if (limit < 1) {
            throw new IllegalArgumentException("thread budget must be at least 1, got " + limit);
        }
        this.limit = limit;
        this.slots = new Semaphore(limit, true);
        AtomicInteger seq = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(limit, limit, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> Thread.ofPlatform().daemon().name(prefix + "-" + seq.incrementAndGet()).unstarted(r));
        pool.allowCoreThreadTimeOut(true); // an idle server keeps no threads
    }

    /** A budget of one thread per core, at least 2 (what the server's chunk pool always had). */
    public static ThreadBudget ofCores(String prefix) {
        return new ThreadBudget(Math.max(2, Runtime.getRuntime().availableProcessors()), prefix);
    }

    /** CPU threads at most. */
    public int limit() {
        return limit;
    }

    /** Slots in use now (lane tasks running plus permits held). */
    public int busy() {
        return busy.get();
    }

    /** The most slots ever in use at once. */
    public int peakBusy() {
        return peak.get();
    }

    /** Lane tasks run and permits taken so far. */
    public long completed() {
        return tasks.get();
    }

    /**
     * A bounded executor over the shared pool: at most {@code min(parallelism, limit)} of its
     * tasks run at once, the rest wait in its queue. Shutting it down (also {@code shutdownNow},
     * which interrupts only its own running tasks) leaves the budget and the other lanes alone.
     *
     * @param what        the user, for messages (e.g. {@code "verify"})
     * @param parallelism tasks at once at most (1 or more)
     */
    public ExecutorService lane(String what, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException(what + ": parallelism must be at least 1, got " + parallelism);
        }
        return new BudgetLane(this, what, Math.min(parallelism, limit));
    }

    /** A slot for CPU work on the calling thread, released by {@link Permit#close()}; waits for one. */
    public Permit acquire() throws InterruptedException {
        int[] depth = held.get();
        if (depth[0] == 0) {
            slots.acquire();
            enter();
        }
        depth[0]++;
        return new Permit(this);
    }

    /** Stops the pool now: lanes reject new work, running tasks are interrupted. */
    @Override
    public void close() {
        pool.shutdownNow();
    }

    /** Runs {@code r} holding a slot (called on a pool thread by a lane). */
    void runInSlot(Runnable r) {
        int[] depth = held.get();
        slots.acquireUninterruptibly();
        enter();
        depth[0]++;
        try {
            r.run();
        } finally {
            depth[0]--;
            leave();
        }
    }

    void execute(Runnable r) {
        pool.execute(r);
    }

    void release() {
        int[] depth = held.get();
        if (depth[0] <= 0) {
            throw new IllegalStateException("thread budget permit released twice");
        }
        if (--depth[0] == 0) {
            leave();
        }
    }

    private void enter() {
        int now = busy.incrementAndGet();
        peak.accumulateAndGet(now, Math::max);
        tasks.incrementAndGet();
    }

    private void leave() {
        busy.decrementAndGet();
        slots.release();
    }

    /** One held CPU slot; close it on the thread that took it. */
    public static final class Permit implements AutoCloseable {
        private final ThreadBudget budget;
        private boolean closed;

        private Permit(ThreadBudget budget) {
            this.budget = budget;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                budget.release();
            }
        }
    }
}
