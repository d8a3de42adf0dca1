package org.jpbs.datastore.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.TestData;
import org.junit.jupiter.api.Test;

class DigestCacheTest {
    @Test
    void remembersUpToCapacityAndEvictsTheLeastRecentlyUsed() {
        DigestCache c = new DigestCache(DigestCache.WAYS / 2); // one set of 16: exact LRU
        int w = DigestCache.WAYS;
        List<Digest> d = new ArrayList<>();
        for (int i = 0; i < w + 2; i++) {
            d.add(TestData.digest(i));
        }
        for (int i = 0; i < w; i++) {
            assertFalse(c.insert(d.get(i)));
        }
        assertTrue(c.insert(d.get(0)), "0 is now the most recent");
        assertFalse(c.insert(d.get(w)), "evicts 1, the least recent");
        assertFalse(c.insert(d.get(1)), "1 was evicted (and evicts 2)");
        assertTrue(c.insert(d.get(0)));
        assertTrue(c.insert(d.get(w)));
        assertFalse(c.insert(d.get(2)));
        assertEquals(3, c.hits());
        assertEquals(w + 3, c.misses());
    }

    @Test
    void largeCacheKeepsAWorkingSetAndZeroDisables() {
        DigestCache c = new DigestCache(1 << 16);
        int n = 40_000;
        for (int i = 0; i < n; i++) {
            c.insert(TestData.digest(i));
        }
        int hits = 0;
        for (int i = 0; i < n; i++) {
            hits += c.insert(TestData.digest(i)) ? 1 : 0;
        }
        assertTrue(hits > n * 0.99, "hits " + hits); // a working set below the capacity stays
        DigestCache off = new DigestCache(0);
        assertFalse(off.insert(TestData.digest(1)));
        assertFalse(off.insert(TestData.digest(1)));
        assertEquals(0, off.hits());
    }
}
