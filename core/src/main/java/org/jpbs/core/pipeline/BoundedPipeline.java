package org.jpbs.core.pipeline;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * At most {@code window} tasks in flight on a pool, completed in any order; the first failure
 * wins: it is kept, tasks not yet started are skipped, {@link #submit} refuses new ones, and
 * {@link #finish} rethrows it once the tasks in flight have ended ({@code docs/design.md#pipeline}).
 *
 * <p>Usage: the producing thread calls {@link #submit} (or {@link #reserve} then
 * {@link #submitReserved} when the permit must be held before the task exists, e.g. for a buffer
 * being filled) until it has no more work or {@code submit} returns false, then {@link #finish};
 * {@link #close} in a {@code finally} shuts the pool down (at once unless finished). For work
 * that must come out in order, see {@link #inOrder}. Single producer; tasks run on the pool.
 */
public final class BoundedPipeline implements AutoCloseable {
    /** Work for a pool thread. */
    @FunctionalInterface
    public interface Task {
        void run() throws Exception;
    }

    /** Starts asynchronous work (on the producing thread); its stage completes elsewhere. */
    @FunctionalInterface
    public interface Start<T> {
        CompletionStage<T> start() throws Exception;
    }

    /** What to do with the result of a {@link Start}, on the thread that completed it. */
    @FunctionalInterface
    public interface Then<T> {
        void accept(T value) throws Exception;
    }

    private final String what;
    private final int window;
    private final Semaphore permits;
    private final ExecutorService pool;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private boolean finished;

    /**
     * @param what   the work, for the message when interrupted (e.g. {@code "backup of /dev/sda"})
     * @param window tasks in flight at most (1 or more)
     * @param pool   the threads; owned by the pipeline from now on ({@link #close} shuts it down)
     */
    public BoundedPipeline(String what, int window, ExecutorService pool) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + window);
        }
        this.what = what;
        this.window = window;
        this.permits = new Semaphore(window);
        this.pool = pool;
    }

    /** The pool the tasks run on (also usable for work a {@link Start} hands on). */
    public ExecutorService pool() {
        return pool;
    }

    /** The window. */
    public int window() {
        return window;
    }

    /** True once a task (or {@link #fail}) recorded a failure. */
    public boolean failed() {
        return failure.get() != null;
    }

    /** Records a failure; the first one wins. */
    public void fail(Throwable t) {
        failure.compareAndSet(null, Workers.unwrap(t));
    }

    /** Rethrows the first failure now, if there is one (see {@link Workers#rethrow}). */
    public void rethrowIfFailed() throws IOException {
        Workers.rethrow(failure.get());
    }

    /**
     * Waits for a free slot of the window.
     *
     * @throws InterruptedIOException if interrupted (the pool is stopped)
     */
    public void reserve() throws InterruptedIOException {
        try {
            permits.acquire();
        } catch (InterruptedException e) {
            throw interrupted();
        }
    }

    /**
     * Runs {@code task} on the pool once a slot is free.
     *
     * @return false (and the task is not run) if a failure was recorded
     * @throws InterruptedIOException if interrupted while waiting for a slot
     */
    public boolean submit(Task task) throws InterruptedIOException {
        if (failed()) {
            return false;
        }
        reserve();
        return submitReserved(task);
    }

    /**
     * Runs {@code task} on the pool with a slot taken by {@link #reserve}; the slot is freed when
     * it ends (or at once if a failure was recorded, and then the task is not run).
     *
     * @return false if a failure was recorded
     */
    public boolean submitReserved(Task task) {
        if (failed()) {
            permits.release();
            return false;
        }
        try {
            pool.execute(() -> {
                try {
                    if (!failed()) {
                        task.run();
                    }
                } catch (Throwable t) {
                    fail(t);
                } finally {
                    permits.release();
                }
            });
        } catch (RuntimeException e) { // rejected: the pool was shut down
            permits.release();
            fail(e);
            return false;
        }
        return true;
    }

    /**
     * Starts asynchronous work on this thread once a slot is free and holds the slot until its
     * stage completes and {@code then} has handled the result (on the completing thread).
     *
     * @return false (and nothing is started) if a failure was recorded
     * @throws InterruptedIOException if interrupted while waiting for a slot
     */
    public <T> boolean submitAsync(Start<T> start, Then<T> then) throws InterruptedIOException {
        if (failed()) {
            return false;
        }
        reserve();
        CompletionStage<T> stage;
        try {
            stage = start.start();
        } catch (InterruptedException e) {
            permits.release();
            throw interrupted();
        } catch (Throwable t) {
            permits.release();
            fail(t);
            return false;
        }
        stage.whenComplete((value, err) -> {
            try {
                if (err != null) {
                    fail(err);
                } else if (!failed()) {
                    then.accept(value);
                }
            } catch (Throwable t) {
                fail(t);
            } finally {
                permits.release();
            }
        });
        return true;
    }

    /**
     * Waits until every task submitted has ended, then rethrows the first failure.
     *
     * @throws InterruptedIOException if interrupted while waiting
     */
    public void finish() throws IOException {
        try {
            permits.acquire(window);
        } catch (InterruptedException e) {
            throw interrupted();
        }
        permits.release(window);
        finished = true;
        rethrowIfFailed();
    }

    /** Shuts the pool down: gently after {@link #finish}, else at once (tasks are interrupted). */
    @Override
    public void close() {
        if (finished) {
            pool.shutdown();
        } else {
            pool.shutdownNow();
        }
    }

    private InterruptedIOException interrupted() {
        pool.shutdownNow();
        Thread.currentThread().interrupt();
        return new InterruptedIOException(what + " interrupted");
    }

    /** Item {@code i} of an ordered run, started asynchronously. */
    @FunctionalInterface
    public interface IndexedStart<T> {
        CompletableFuture<T> start(int i) throws Exception;
    }

    /** Consumes item {@code i} of an ordered run, on the producing thread. */
    @FunctionalInterface
    public interface IndexedSink<T> {
        void accept(int i, T value) throws IOException;
    }

    /**
     * Starts items {@code 0..count-1} with at most {@code window} started but not yet consumed,
     * and consumes them strictly in order on this thread. The first failure (of a start, an item
     * or the sink) is rethrown; the items still in flight are then cancelled.
     *
     * @throws InterruptedIOException if interrupted
     */
    public static <T> void inOrder(String what, int count, int window, IndexedStart<T> start, IndexedSink<T> sink)
            throws IOException {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + window);
        }
        ArrayDeque<CompletableFuture<T>> ahead = new ArrayDeque<>();
        int next = 0;
        try {
            for (int i = 0; i < count; i++) {
                while (next < count && ahead.size() < window) {
                    ahead.add(start.start(next++));
                }
                sink.accept(i, ahead.poll().get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(what + " interrupted");
        } catch (ExecutionException e) {
            Workers.rethrow(e.getCause());
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            Workers.rethrow(e);
        } finally {
            ahead.forEach(f -> f.cancel(true));
        }
    }
}
