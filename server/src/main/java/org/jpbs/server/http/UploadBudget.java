package org.jpbs.server.http;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server-wide limit for request bodies held in memory ({@code docs/design.md}, "buffered
 * request bodies"; {@code docs/network-client.md}, "Server memory"): every upgraded connection
 * of one server counts the body bytes it holds here through its {@link InflightBytes} (bodies
 * being received and complete bodies waiting for or in processing). While more than
 * {@link #high()} bytes are held, connections withhold HTTP/2 flow-control credit
 * (WINDOW_UPDATE) for the DATA they receive, so clients can send at most what is left of their
 * connection window ({@link #connectionWindow()}) and then wait. Credit is given back when the
 * total falls below {@link #low()} (half of high): the waiting connections are woken. While no
 * complete request is left anywhere, only more data can free bytes, so withholding everywhere
 * would deadlock: then one connection with partly received bodies is exempt
 * ({@link #exempt(InflightBytes)}) and gets its credit back, and stays the exempt one while it has
 * unfinished bodies. Only one, since credit cannot be aimed at a stream: a client interleaving
 * many uploads on a connection may need most of them before the first one ends, and several
 * exempt connections would each keep such a set of unfinished bodies.
 *
 * <p>The limit is {@value #PROPERTY} (MiB); by default a quarter of the JVM's maximum heap,
 * between 32 MiB and 256 MiB. {@link #peak()} is the most ever held (tests, logs). Thread-safe.
 */
final class UploadBudget {
    /** System property: the limit in MiB. */
    static final String PROPERTY = "jpbs.server.uploadBufferMiB";
    private static final long MIB = 1024 * 1024;

    private final long high;
    private final long low;
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();
    private final AtomicInteger completeRequests = new AtomicInteger();
    private final Set<InflightBytes> paused = ConcurrentHashMap.newKeySet();
    /** The connection that may receive while no complete request is left and the budget is full, or null. */
    private volatile InflightBytes exempt;

    /** @param high withhold credit above this many held bytes (give it back below half of it) */
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

    /**
     * The HTTP/2 connection window announced to every upgraded connection: an eighth of the
     * budget, between 1 MiB and 32 MiB (the PBS server's 32 MiB). While credit is withheld each
     * connection can still deliver at most this much, so the held bytes stay below
     * {@code high + connections × window} (plus bodies of requests that no complete request
     * waits behind, see the class comment).
     */
    int connectionWindow() {
        return (int) Math.max(MIB, Math.min(32 * MIB, high / 8));
    }

    /** Withholding threshold in bytes. */
    long high() {
        return high;
    }

    /** Threshold in bytes below which withheld credit is given back. */
    long low() {
        return low;
    }

    /** Bytes held now by all connections. */
    long held() {
        return held.get();
    }

    /** The most bytes ever held at once. */
    long peak() {
        return peak.get();
    }

    /** Complete requests waiting for or in processing on all connections. */
    int completeRequests() {
        return completeRequests.get();
    }

    /** True while {@code c} must withhold credit: more than {@link #high()} bytes held, and {@code c} is not exempt. */
    boolean over(InflightBytes c) {
        return held.get() > high && (exempt != c || completeRequests.get() > 0);
    }

    /** True while {@code c} may give withheld credit back: fewer than {@link #low()} bytes held, or {@code c} is exempt. */
    boolean belowLow(InflightBytes c) {
        return held.get() < low || (exempt == c && completeRequests.get() == 0);
    }

    /** True if {@code c} is the exempt connection (tests). */
    boolean exempt(InflightBytes c) {
        return exempt == c;
    }

    /** {@code n} more bytes are held (any thread). */
    void add(long n) {
        long now = held.addAndGet(n);
        if (now > peak.get()) {
            peak.accumulateAndGet(now, Math::max);
        }
    }

    /** {@code n} held bytes were freed (any thread); below {@link #low()} the waiting connections are woken. */
    void release(long n) {
        held.addAndGet(-n);
        wakeIfBelowLow();
    }

    /** A request's body is complete; its bytes stay held until {@link #processed}. */
    void completed() {
        completeRequests.incrementAndGet();
    }

    /** A complete request of {@code n} body bytes was processed (any thread): its bytes are freed. */
    void processed(long n) {
        held.addAndGet(-n);
        completeRequests.decrementAndGet();
        wakeIfBelowLow();
    }

    private void wakeIfBelowLow() {
        if (paused.isEmpty()) {
            return;
        }
        if (held.get() < low) {
            for (InflightBytes c : paused) {
                c.wake();
            }
        } else if (completeRequests.get() == 0) {
            chooseExempt();
        }
    }

    /**
     * Nothing complete is left to free bytes: if no connection is exempt (or the exempt one has
     * nothing unfinished left), the waiting connection with the most unfinished body bytes
     * becomes exempt and is woken.
     */
    private synchronized void chooseExempt() {
        InflightBytes e = exempt;
        if (e != null && e.partial() > 0 && e.isOpen()) {
            if (paused.contains(e)) {
                e.wake();
            }
            return;
        }
        InflightBytes best = null;
        for (InflightBytes c : paused) {
            if (c.partial() > 0 && (best == null || c.partial() > best.partial())) {
                best = c;
            }
        }
        exempt = best;
        if (best != null) {
            best.wake();
        }
    }

    /** A connection withholds credit and waits for {@link InflightBytes#wake}. */
    void paused(InflightBytes c) {
        paused.add(c); // the exempt connection stays exempt (a request completed somewhere: it withholds for now)
        if (completeRequests.get() == 0 && held.get() >= low) {
            chooseExempt();
        }
    }

    /** A connection gave its withheld credit back. */
    void resumed(InflightBytes c) {
        paused.remove(c);
    }

    /** A connection closed: it neither waits nor is exempt any more. */
    void closed(InflightBytes c) {
        paused.remove(c);
        if (exempt == c) {
            exempt = null;
            wakeIfBelowLow();
        }
    }

    /** Number of connections withholding credit (tests and logs). */
    int pausedConnections() {
        return paused.size();
    }
}
