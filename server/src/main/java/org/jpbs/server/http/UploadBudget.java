package org.jpbs.server.http;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server-wide limit for request bodies held in memory ({@code docs/design.md}, "buffered
 * request bodies"): every upgraded connection of one server counts the body bytes it holds here
 * through its {@link InflightBytes}. While more than {@link #high()} bytes are held, a connection
 * that has at least one complete request waiting for or in processing stops reading (its
 * requests free their bytes without more input, so it always resumes); connections that only
 * hold partly received bodies go on reading, since those can only finish by reading. When the
 * total falls below {@link #low()} (half of high) the paused connections are woken.
 *
 * <p>The limit is {@value #PROPERTY} (MiB); by default a quarter of the JVM's maximum heap,
 * between 32 MiB and 256 MiB. Thread-safe.
 */
final class UploadBudget {
    /** System property: the limit in MiB. */
    static final String PROPERTY = "jpbs.server.uploadBufferMiB";
    private static final long MIB = 1024 * 1024;

    private final long high;
    private final long low;
    private final AtomicLong held = new AtomicLong();
    private final Set<InflightBytes> paused = ConcurrentHashMap.newKeySet();

    /** @param high pause connections above this many held bytes (resume below half of it) */
    UploadBudget(long high) {
        if (high < 1) {
            throw new IllegalArgumentException("upload buffer must be positive, got " + high);
        }
        this.high = high;
        this.low = high / 2;
    }

    /** The budget from {@value #PROPERTY}, or the default derived from the maximum heap. */
    static UploadBudget fromSystemProperties() {
        String v = System.getProperty(PROPERTY);
        if (v != null && !v.isBlank()) {
            long mib;
            try {
                mib = Long.parseLong(v.strip());
            } catch (NumberFormatException e) {
                mib = -1;
            }
            if (mib < 1 || mib > 1024 * 1024) {
                throw new IllegalArgumentException("-D" + PROPERTY + " must be a number of MiB between 1 and 1048576, got '"
                        + v + "'");
            }
            return new UploadBudget(mib * MIB);
        }
        return new UploadBudget(defaultHigh(Runtime.getRuntime().maxMemory()));
    }

    /** A quarter of {@code maxHeap}, at least 32 MiB and at most 256 MiB. */
    static long defaultHigh(long maxHeap) {
        return Math.max(32 * MIB, Math.min(256 * MIB, maxHeap / 4));
    }

    /** Pause threshold in bytes. */
    long high() {
        return high;
    }

    /** Resume threshold in bytes. */
    long low() {
        return low;
    }

    /** Bytes held now by all connections. */
    long held() {
        return held.get();
    }

    /** True while more than {@link #high()} bytes are held. */
    boolean over() {
        return held.get() > high;
    }

    /** True while fewer than {@link #low()} bytes are held. */
    boolean belowLow() {
        return held.get() < low;
    }

    /** {@code n} more bytes are held (any thread). */
    void add(long n) {
        held.addAndGet(n);
    }

    /** {@code n} held bytes were freed (any thread); below {@link #low()} the paused connections are woken. */
    void release(long n) {
        long now = held.addAndGet(-n);
        if (now < low && !paused.isEmpty()) {
            for (InflightBytes c : paused) {
                c.wake();
            }
        }
    }

    /** A connection paused reading and waits for {@link InflightBytes#wake}. */
    void paused(InflightBytes c) {
        paused.add(c);
    }

    /** A connection resumed reading or closed. */
    void resumed(InflightBytes c) {
        paused.remove(c);
    }

    /** Number of paused connections (tests and logs). */
    int pausedConnections() {
        return paused.size();
    }
}
