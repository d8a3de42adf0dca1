package org.jpbs.s3.client;

/**
 * A token bucket: {@code rate} units per second, at most {@code burst} saved up. {@link #acquire}
 * blocks until the units are available (a request larger than the burst waits for its whole
 * size). Thread-safe.
 */
final class RateLimiter {
    private final double rate;
    private final double burst;
    private double tokens;
    private long last;

    RateLimiter(long rate, long burst) {
        this.rate = rate;
        this.burst = Math.max(1, burst);
        this.tokens = this.burst;
        this.last = System.nanoTime();
    }

    /** A limiter, or null if {@code rate} is null (unlimited). */
    static RateLimiter of(Long rate, Long burst) {
        return rate == null ? null : new RateLimiter(rate, burst == null ? rate : burst);
    }

    void acquire(long units) {
        long waitNanos;
        synchronized (this) {
            long now = System.nanoTime();
            tokens = Math.min(burst, tokens + (now - last) / 1e9 * rate);
            last = now;
            tokens -= units;
            waitNanos = tokens >= 0 ? 0 : (long) (-tokens / rate * 1e9);
        }
        if (waitNanos > 0) {
            try {
                Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
