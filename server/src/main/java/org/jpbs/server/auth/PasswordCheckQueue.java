package org.jpbs.server.auth;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs password checks (PBKDF2 with {@link PasswordHash#PASSWORD_ITERATIONS} rounds, a few
 * hundred milliseconds of CPU each) on a small dedicated pool with a bounded queue, so that a
 * flood of login attempts cannot occupy the event loops or the carrier threads of the virtual
 * threads that serve every other API call and the backup sessions. When the pool and its queue
 * are full the check is refused at once with {@link LoginBusyException} (the REST API answers
 * 503). Defaults: {@link #DEFAULT_THREADS} threads, {@link #DEFAULT_QUEUE} waiting checks.
 * Thread-safe.
 */
public final class PasswordCheckQueue {
    /** Threads doing PBKDF2: 2. */
    public static final int DEFAULT_THREADS = 2;
    /** Checks that may wait for a thread: 32. */
    public static final int DEFAULT_QUEUE = 32;

    private final ThreadPoolExecutor pool;

    /**
     * @param threads worker threads (>= 1)
     * @param queue   checks that may wait (>= 0)
     */
    public PasswordCheckQueue(int threads, int queue) {
        AtomicInteger n = new AtomicInteger();
        pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                queue == 0 ? new java.util.concurrent.SynchronousQueue<>() : new ArrayBlockingQueue<>(queue), r -> {
                    Thread t = new Thread(r, "jpbs-password-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
    }

    /** A queue with the defaults. */
    public PasswordCheckQueue() {
        this(DEFAULT_THREADS, DEFAULT_QUEUE);
    }

    /**
     * {@link PasswordHash#verify} on the pool; blocks the caller (a virtual thread parks) until done.
     *
     * @throws LoginBusyException if the pool and its queue are full, or the caller is interrupted
     */
    public boolean verify(String secret, String stored) {
        return run(() -> PasswordHash.verify(secret, stored));
    }

    /** Runs {@code check} on the pool (see {@link #verify}). */
    boolean run(java.util.concurrent.Callable<Boolean> check) {
        Future<Boolean> f;
        try {
            f = pool.submit(check);
        } catch (RejectedExecutionException e) {
            throw new LoginBusyException();
        }
        try {
            return f.get();
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new LoginBusyException();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Checks waiting for a thread now. */
    int queued() {
        return pool.getQueue().size();
    }

    /** Refusal of a password check because too many are in progress. */
    public static final class LoginBusyException extends RuntimeException {
        /** The message the REST API answers with status 503. */
        public static final String MESSAGE = "too many login attempts in progress - try again later";

        LoginBusyException() {
            super(MESSAGE, null, false, false);
        }
    }
}
