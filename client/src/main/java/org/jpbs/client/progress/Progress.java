package org.jpbs.client.progress;

import java.util.concurrent.atomic.LongAdder;

/**
 * Thread-safe progress of one run: a known total in bytes and the bytes finished so far.
 * Engines call {@link #advance} from their worker threads; a {@link ProgressRenderer} reads
 * the counters from its own thread. Time is measured with {@link System#nanoTime()} from
 * construction (or the last {@link #restart}).
 */
public final class Progress implements ProgressListener {
    private final long total;
    private final LongAdder done = new LongAdder();
    private volatile long startNanos = System.nanoTime();

    /** @param totalBytes the amount of work in bytes (0 or more) */
    public Progress(long totalBytes) {
        if (totalBytes < 0) {
            throw new IllegalArgumentException("total must be >= 0, got " + totalBytes);
        }
        this.total = totalBytes;
    }

    @Override
    public void advance(long bytes) {
        done.add(bytes);
    }

    /** Resets the clock (not the counter), e.g. when the real work starts. */
    public void restart() {
        startNanos = System.nanoTime();
    }

    /** Total work in bytes. */
    public long total() {
        return total;
    }

    /** Bytes finished so far. */
    public long done() {
        return done.sum();
    }

    /** Nanoseconds since the start. */
    public long elapsedNanos() {
        return System.nanoTime() - startNanos;
    }

    /** Finished fraction in [0, 1]; 1 for an empty total. */
    public double fraction() {
        if (total == 0) {
            return 1.0;
        }
        return Math.min(1.0, (double) done() / total);
    }

    /** Average speed since the start in bytes per second (0 before any time passed). */
    public double bytesPerSecond() {
        long ns = elapsedNanos();
        return ns <= 0 ? 0 : done() * 1e9 / ns;
    }

    /** Estimated seconds left at the average speed so far, or -1 if unknown (nothing done yet). */
    public long etaSeconds() {
        long d = done();
        if (d >= total) {
            return 0;
        }
        double rate = bytesPerSecond();
        if (d == 0 || rate <= 0) {
            return -1;
        }
        return (long) Math.ceil((total - d) / rate);
    }

    /**
     * One status line, e.g. {@code "  37.5% 1.2 GiB of 3.0 GiB  412.3 MiB/s  ETA 0:05"}
     * (ETA {@code "?"} while unknown).
     */
    public String render() {
        long eta = etaSeconds();
        return String.format(java.util.Locale.ROOT, "%6.1f%% %s of %s  %s  ETA %s",
                fraction() * 100, Units.bytes(done()), Units.bytes(total),
                Units.rate(bytesPerSecond()), eta < 0 ? "?" : Units.duration(eta));
    }
}
