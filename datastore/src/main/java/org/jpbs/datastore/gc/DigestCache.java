package org.jpbs.datastore.gc;

import java.nio.ByteBuffer;
import org.jpbs.core.digest.Digest;

/**
 * The mark phase's bounded set of recently touched digests (tuning {@code gc-cache-capacity},
 * spec {@code pbs-datastore-ops.md} §1.4 item 5): a digest found here was touched earlier in
 * this run and is not touched again. Snapshots of a group are marked one after the other, so
 * incremental backups hit it for most of their chunks. Capacity 0 disables it.
 *
 * <p>Unlike PBS's linked LRU map, this is a set-associative table of plain {@code long}s: sets of
 * {@value #WAYS} entries (32 bytes each, the digest itself), the set chosen by the digest's
 * first bytes (uniformly random for SHA-256), least recently used replacement within a set.
 * The table has twice as many slots as the capacity, so a working set of {@code capacity}
 * digests fits (a set overflows with probability below 0.5%); that is LRU up to the set
 * granularity, with no allocation per entry and 66 bytes per unit of capacity (66 MiB at the
 * default 1,048,576; PBS's map needs about 100 MiB). Not thread-safe: only the walking thread
 * uses it.
 */
final class DigestCache {
    static final int WAYS = 16;

    private final int capacity;
    private final int setMask;
    private final long[] keys;    // 4 words per entry
    private final byte[] age;     // per entry: 0 = empty, else 1..WAYS (WAYS = most recent)
    private final ByteBuffer scratch = ByteBuffer.allocate(Digest.LENGTH);
    private long hits;
    private long misses;

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
    }

    /**
     * Records the digest as touched.
     *
     * @return true if it was already present (a hit: skip the touch)
     */
    boolean insert(Digest d) {
        scratch.clear();
        d.writeTo(scratch);
        return insert(scratch.getLong(0), scratch.getLong(8), scratch.getLong(16), scratch.getLong(24));
    }

    /** As {@link #insert(Digest)} for the digest's four big-endian words. */
    boolean insert(long w0, long w1, long w2, long w3) {
        if (capacity == 0) {
            misses++;
            return false;
        }
        int base = (int) ((w0 ^ (w1 >>> 17)) & setMask) * WAYS;
        int victim = base;
        int victimAge = Integer.MAX_VALUE;
        for (int e = base; e < base + WAYS; e++) {
            int a = age[e];
            if (a != 0) {
                int k = e * 4;
                if (keys[k] == w0 && keys[k + 1] == w1 && keys[k + 2] == w2 && keys[k + 3] == w3) {
                    promote(base, e);
                    hits++;
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
        misses++;
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
        return hits;
    }

    long misses() {
        return misses;
    }
}
