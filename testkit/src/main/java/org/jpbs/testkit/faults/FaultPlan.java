package org.jpbs.testkit.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What goes wrong, and when, in a {@link FaultyFileOps} or {@link FaultyGcFs}: seeded random
 * I/O errors per operation kind, an error at the n-th operation, a crash point (the n-th
 * operation and every later one fail, as if the process had died there: no clean-up reaches
 * the disk), short writes (the n-th write stores only a prefix and reports success) and bit
 * flips in what reads return. Thread-safe; the same seed and the same sequence of operations
 * give the same faults. Every injected fault is logged ({@link #log}).
 */
public final class FaultPlan {
    /** The kinds of file operation a plan counts. */
    public enum Op { READ, WRITE, RENAME, LINK, DELETE, STAT, TOUCH, FSYNC }

    /** What a write does. */
    enum WriteFate { NORMAL, SHORT, CRASH }

    private final SplittableRandom random;
    private final Map<Op, AtomicInteger> counts = new EnumMap<>(Op.class);
    private final Map<Op, Double> failRate = new EnumMap<>(Op.class);
    private final Map<Op, Integer> failAt = new EnumMap<>(Op.class);
    private final Map<Op, Integer> crashAt = new EnumMap<>(Op.class);
    private int shortWriteAt = -1;
    private double flipRate;
    private volatile boolean crashed;
    private final List<String> log = new ArrayList<>();

    private FaultPlan(long seed) {
        random = new SplittableRandom(seed);
        for (Op op : Op.values()) {
            counts.put(op, new AtomicInteger());
        }
    }

    /** A plan without faults yet, whose random choices come from {@code seed}. */
    public static FaultPlan seeded(long seed) {
        return new FaultPlan(seed);
    }

    /** Each {@code op} fails with an {@link InjectedIOException} with probability {@code p}. */
    public synchronized FaultPlan failRandomly(Op op, double p) {
        failRate.put(op, p);
        return this;
    }

    /** The {@code n}-th {@code op} (1-based) fails with an {@link InjectedIOException}; the process goes on. */
    public synchronized FaultPlan failAt(Op op, int n) {
        failAt.put(op, n);
        return this;
    }

    /**
     * The {@code n}-th {@code op} (1-based) is a crash point: it throws {@link SimulatedCrash}
     * (a write first leaves a partial temporary file), and so does every later operation.
     */
    public synchronized FaultPlan crashAt(Op op, int n) {
        crashAt.put(op, n);
        return this;
    }

    /** The {@code n}-th write (1-based) stores only a seeded prefix of its data and reports success. */
    public synchronized FaultPlan shortWriteAt(int n) {
        shortWriteAt = n;
        return this;
    }

    /** Each read returns its data with one seeded bit flipped, with probability {@code p} (the file is not changed). */
    public synchronized FaultPlan flipBitsOnRead(double p) {
        flipRate = p;
        return this;
    }

    /** True once a crash point was reached. */
    public boolean crashed() {
        return crashed;
    }

    /** How many {@code op} operations were attempted. */
    public int count(Op op) {
        return counts.get(op).get();
    }

    /** The faults injected so far, one line each. */
    public synchronized List<String> log() {
        return List.copyOf(log);
    }

    /** Counts an operation and throws the fault planned for it, if any. */
    void before(Op op, Path path) throws IOException {
        if (fate(op, path) == WriteFate.CRASH) {
            throw new SimulatedCrash(op + " " + path);
        }
    }

    /** Counts an operation; returns CRASH or SHORT if planned (only writes are SHORT), throws an injected error. */
    synchronized WriteFate fate(Op op, Path path) throws IOException {
        if (crashed) {
            throw new SimulatedCrash(op + " " + path + " after the crash");
        }
        int n = counts.get(op).incrementAndGet();
        if (crashAt.getOrDefault(op, -1) == n) {
            crashed = true;
            log.add("crash at " + op + " #" + n + " " + path);
            return WriteFate.CRASH;
        }
        Double p = failRate.get(op);
        if (failAt.getOrDefault(op, -1) == n || (p != null && random.nextDouble() < p)) {
            log.add("I/O error at " + op + " #" + n + " " + path);
            throw new InjectedIOException(op + " #" + n + " " + path);
        }
        if (op == Op.WRITE && shortWriteAt == n) {
            log.add("short write #" + n + " " + path);
            return WriteFate.SHORT;
        }
        return WriteFate.NORMAL;
    }

    /** A seeded length in {@code [1, len)} for a partial write. */
    synchronized int prefixLength(int len) {
        return len <= 1 ? 0 : 1 + random.nextInt(len - 1);
    }

    /** Flips a seeded bit of {@code data} in place if the plan says so. */
    synchronized void maybeFlip(byte[] data, Path path) {
        if (flipRate > 0 && data.length > 0 && random.nextDouble() < flipRate) {
            int bit = BitFlips.flip(data, random, 0);
            log.add("bit flip at bit " + bit + " reading " + path);
        }
    }
}
