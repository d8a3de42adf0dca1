package org.jpbs.datastore.gc;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jpbs.core.digest.Digest;

/**
 * The mark phase's LRU set of recently touched digests (tuning {@code gc-cache-capacity}, spec
 * {@code pbs-datastore-ops.md} §1.4 item 5): a digest found here was touched earlier in this run
 * and is not touched again. Snapshots of a group are marked one after the other, so
 * incremental backups hit it for most of their chunks. Capacity 0 disables it. Not
 * thread-safe: only the walking thread uses it.
 */
final class DigestCache {
    private final int capacity;
    private final LinkedHashMap<Digest, Boolean> map;
    private long hits;
    private long misses;

    DigestCache(int capacity) {
        this.capacity = capacity;
        this.map = new LinkedHashMap<>(capacity == 0 ? 16 : Math.min(capacity, 1 << 16), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Digest, Boolean> eldest) {
                return size() > DigestCache.this.capacity;
            }
        };
    }

    /**
     * Records the digest as touched.
     *
     * @return true if it was already present (a hit: skip the touch)
     */
    boolean insert(Digest d) {
        if (capacity == 0) {
            misses++;
            return false;
        }
        if (map.putIfAbsent(d, Boolean.TRUE) != null) {
            hits++;
            return true;
        }
        misses++;
        return false;
    }

    long hits() {
        return hits;
    }

    long misses() {
        return misses;
    }
}
