package org.jpbs.datastore.gc;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;
import org.jpbs.core.digest.Digest;

/**
 * The mark phase's bounded set of recently touched digests (tuning {@code gc-cache-capacity},
 * {@code docs/gc.md#garbage-collection}): a digest found here was touched earlier in
 * this run and is not touched again. Snapshots of a group are marked one after the other, so
 * incremental backups hit it for most of their chunks. Capacity 0 disables it.
 *
 * <p>Unlike PBS's linked LRU map, this is a set-associative table of plain {@code long}s: sets of
 * {@value #WAYS} entries (32 bytes each, the digest itself), the set chosen by the digest's
 * first bytes (uniformly random for SHA-256), least recently used replacement within a set.
 * The table has twice as many slots as the capacity, so a working set of {@code capacity}
 * digests fits (a set overflows with probability below 0.5%); that is LRU up to the set
 * granularity, with no allocation per entry and 66 bytes per unit of capacity (66 MiB at the
 * default 1,048,576; PBS's map needs about 100 MiB). Thread-safe: each set is guarded by one of
 * up to 4,096 striped monitors, so the marking threads rarely meet; {@link #insert} is an atomic
 * "claim", so of several threads meeting the same new digest exactly one touches it.
 */
final class DigestCache {
    static final int WAYS = 16;

    private final int capacity;
    private final int setMask;
    private final long[] keys;    // 4 words per entry
    private final byte[] age;     // per entry: 0 = empty, else 1..WAYS (WAYS = most recent)
    private final Object[] locks;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    DigestCache(int capacity) {
        this.capacity = capacity;
        int sets = 1;
        while ((long) sets * WAYS < 2L * capacity) { // half full at capacity: sets rarely overflow
            sets <<= 1;
        }
        this.setMask = sets - 1;
        int entries = capacity == 0 ? 0 : sets * WAYS;
        this.keys = new long[entries * 4];
        this.age = new byte[entries];
        this.locks = new Object[Math.min(sets, 4096)];
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new Object();
        }
    }

    /**
     * Records the digest as touched.
     *
     * @return true if it was already present (a hit: skip the touch)
     */
    boolean insert(Digest d) {
        ByteBuffer b = ByteBuffer.allocate(Digest.LENGTH);
        d.writeTo(b);
        return insert(b.getLong(0), b.getLong(8), b.getLong(16), b.getLong(24));
    }

    /** As {@link #insert(Digest)} for the digest's four big-endian words. */
    boolean insert(long w0, long w1, long w2, long w3) {
        if (capacity == 0) {
            misses.increment();
            return false;
        }
        int set = (int) ((w0 ^ (w1 >>> 17)) & setMask);
        boolean hit;
        synchronized (locks[set & (locks.length - 1)]) {
            hit = insertInSet(set * WAYS, w0, w1, w2, w3);
        }
        (hit ? hits : misses).increment();
        return hit;
    }

    private boolean insertInSet(int base, long w0, long w1, long w2, long w3) {
        int victim = base;
        int victimAge = Integer.MAX_VALUE;
        for (int e = base; e < base + WAYS; e++) {
            int a = age[e];
            if (a != 0) {
                int k = e * 4;
                if (keys[k] == w0 && keys[k + 1] == w1 && keys[k + 2] == w2 && keys[k + 3] == w3) {
                    promote(base, e);
                    return true;
                }
            }
            if (a < victimAge) {
                victimAge = a;
                victim = e;
            }
        }
        int k = victim * 4;
        keys[k] = w0;
        keys[k + 1] = w1;
        keys[k + 2] = w2;
        keys[k + 3] = w3;
        if (age[victim] == 0) {
            age[victim] = 1; // joins as the oldest, then moves to the front
        }
        promote(base, victim);
        return false;
    }

    /** Makes {@code e} the most recent entry of its set; entries that were newer age by one. */
    private void promote(int base, int e) {
        int old = age[e];
        for (int i = base; i < base + WAYS; i++) {
            if (age[i] > old) {
                age[i]--;
            }
        }
        age[e] = WAYS;
    }

    long hits() {
        return hits.sum();
    }

    long misses() {
        return misses.sum();
    }
}
