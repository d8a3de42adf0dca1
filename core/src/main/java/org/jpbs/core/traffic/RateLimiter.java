package org.jpbs.core.traffic;

import java.io.InterruptedIOException;
import java.util.function.LongSupplier;

/**
 * A token bucket: {@code rate} units (bytes or requests) per second, at most {@code burst}
 * saved up. {@link #acquire} blocks until the units may pass; a request larger than the bucket
 * waits for its share of time. The bucket starts full. Used for a sync's {@code rate-in} /
 * {@code rate-out} and an S3 endpoint's rate limits ({@code docs/sync.md}, {@code docs/s3.md}).
 * Thread-safe: the bucket is updated under a short lock, the wait happens outside it.
 */
public final class RateLimiter {
    /** How a caller waits (replaced in tests). */
    @FunctionalInterface
    interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    private final double rate;
    private final double burst;
    private final LongSupplier clock;
    private final Sleeper sleeper;
    private double tokens;
    private long last;

    /**
     * @param rate  units per second (more than 0)
     * @param burst the bucket size in units, or 0 (or less) for one second of {@code rate}
     * @throws IllegalArgumentException if {@code rate} is not positive
     */
    public RateLimiter(long rate, long burst) {
        this(rate, burst, System::nanoTime, RateLimiter::sleepNanos);
    }

    RateLimiter(long rate, long burst, LongSupplier clock, Sleeper sleeper) {
        if (rate <= 0) {
            throw new IllegalArgumentException("rate must be positive, got " + rate);
        }
        this.rate = rate;
        this.burst = burst > 0 ? burst : rate;
        this.clock = clock;
        this.sleeper = sleeper;
        this.tokens = this.burst;
        this.last = clock.getAsLong();
    }

    /**
     * A limiter, or null for "no limit".
     *
     * @param rate  units per second, or null for no limit
     * @param burst the bucket size, or null (or 0) for one second of {@code rate}
     */
    public static RateLimiter of(Long rate, Long burst) {
        return rate == null ? null : new RateLimiter(rate, burst == null ? 0 : burst);
    }

    /** The rate in units per second. */
    public long rate() {
        return (long) rate;
    }

    /** The bucket size in units. */
    public long burst() {
        return (long) burst;
    }

    /**
     * Waits until {@code units} may pass.
     *
     * @throws InterruptedIOException if interrupted while waiting (the interrupt flag is set again)
     */
    public void acquire(long units) throws InterruptedIOException {
        long waitNanos;
        synchronized (this) {
            long now = clock.getAsLong();
            tokens = Math.min(burst, tokens + (now - last) / 1e9 * rate);
            last = now;
            tokens -= units;
            waitNanos = tokens >= 0 ? 0 : (long) Math.ceil(-tokens / rate * 1e9);
        }
        if (waitNanos > 0) {
            try {
                sleeper.sleep(waitNanos);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the rate limit (" + (long) rate
                        + " per second)");
            }
        }
    }

    private static void sleepNanos(long nanos) throws InterruptedException {
        Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    }
}
