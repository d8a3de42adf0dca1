package org.jpbs.core.pipeline;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A bounded executor over a {@link ThreadBudget}'s pool ({@link ThreadBudget#lane}): its own
 * queue, at most {@code parallelism} tasks handed to the pool at once, its own shutdown.
 */
final class BudgetLane extends AbstractExecutorService {
    private final ThreadBudget budget;
    private final String what;
    private final int parallelism;
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private final Set<Thread> active = new HashSet<>();
    private int running;
    private boolean shutdown;

    BudgetLane(ThreadBudget budget, String what, int parallelism) {
        this.budget = budget;
        this.what = what;
        this.parallelism = parallelism;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            if (shutdown) {
                throw new RejectedExecutionException(what + ": executor is shut down");
            }
            queue.add(task);
            dispatch();
        }
    }

    /** Hands queued tasks to the pool while fewer than {@code parallelism} are there. Holds the lock. */
    private void dispatch() {
        while (running < parallelism && !queue.isEmpty()) {
            Runnable task = queue.poll();
            running++;
            try {
                budget.execute(() -> run(task));
            } catch (RejectedExecutionException e) {
                running--;
                queue.addFirst(task);
                queue.forEach(BudgetLane::cancel); // nobody waits forever on work that will never run
                queue.clear();
                shutdown = true;
                notifyAll();
                throw new RejectedExecutionException(what + ": the thread budget is closed", e);
            }
        }
    }

    private static void cancel(Runnable task) {
        if (task instanceof java.util.concurrent.Future<?> f) {
            f.cancel(false);
        }
    }

    private void run(Runnable task) {
        Thread me = Thread.currentThread();
        synchronized (this) {
            active.add(me);
        }
        try {
            budget.runInSlot(task);
        } finally {
            synchronized (this) {
                active.remove(me);
                running--;
                try {
                    dispatch(); // also after shutdown(): tasks queued before it still run
                } catch (RejectedExecutionException e) {
                    // the budget was closed: the queue was dropped, the lane is shut down
                }
                if (terminated()) {
                    notifyAll();
                }
            }
            Thread.interrupted(); // a shutdownNow aimed at this lane's task must not reach the next user
        }
    }

    private boolean terminated() {
        return shutdown && running == 0 && queue.isEmpty();
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
        if (!queue.isEmpty()) {
            dispatch(); // queued tasks still run after a shutdown
        }
        if (terminated()) {
            notifyAll();
        }
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> never = new ArrayList<>(queue);
        queue.clear();
        active.forEach(Thread::interrupt);
        if (terminated()) {
            notifyAll();
        }
        return never;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return terminated();
    }

    @Override
    public synchronized boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!terminated()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    @Override
    public String toString() {
        return "BudgetLane[" + what + ", " + parallelism + "]";
    }
}
