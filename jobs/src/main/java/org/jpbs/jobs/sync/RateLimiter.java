package org.jpbs.jobs.sync;

import java.io.InterruptedIOException;

/**
 * A token bucket for a sync's traffic ({@code rate-in}/{@code burst-in} of a pull,
 * {@code rate-out}/{@code burst-out} of a push): {@link #acquire} blocks until the bytes may
 * pass. The bucket starts full ({@code burst} bytes, or one second of {@code rate} if no burst
 * is set). Thread-safe.
 */
public final class RateLimiter {
    private final double rate;
    private final double burst;
    private double tokens;
    private long last = System.nanoTime();

    /**
     * @param bytesPerSecond the rate (more than 0)
     * @param burst          the bucket size in bytes, or 0 for one second of the rate
     */
    public RateLimiter(long bytesPerSecond, long burst) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("rate must be positive, got " + bytesPerSecond);
        }
        this.rate = bytesPerSecond;
        this.burst = burst > 0 ? burst : bytesPerSecond;
        this.tokens = this.burst;
    }

    /** A limiter, or null for "no limit" ({@code rate} null). */
    public static RateLimiter of(Long rate, Long burst) {
        return rate == null ? null : new RateLimiter(rate, burst == null ? 0 : burst);
    }

    /** Waits until {@code bytes} may pass (a chunk larger than the bucket waits for its share of time). */
    public void acquire(long bytes) throws InterruptedIOException {
        long waitNanos;
        synchronized (this) {
            long now = System.nanoTime();
            tokens = Math.min(burst, tokens + (now - last) / 1e9 * rate);
            last = now;
            tokens -= bytes;
            waitNanos = tokens >= 0 ? 0 : (long) (-tokens / rate * 1e9);
        }
        if (waitNanos > 0) {
            try {
                Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("sync interrupted while rate-limited");
            }
        }
    }
}
