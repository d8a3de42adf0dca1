package org.jpbs.server.backup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.server.http.ApiException;
import org.junit.jupiter.api.Test;

/** The sparse digest table of a fixed writer: pages on first write, charged to the session budget. */
class DigestTableTest {
    private static Digest d(int i) {
        return Digest.sha256(new byte[] {(byte) i, (byte) (i >> 8), (byte) (i >> 16)});
    }

    @Test
    void hugeImageCostsNothingUntilWritten() {
        int slots = FixedIndex.chunkCount(255L << 40, 4 << 20); // 255 TiB
        assertEquals(66_846_720, slots);
        DigestTable.Budget b = new DigestTable.Budget(DigestTable.DEFAULT_SESSION_BUDGET);
        DigestTable t = new DigestTable(slots, b);
        assertEquals(0, b.used());
        t.set(slots - 1, d(1));
        t.set(slots - 2, d(2)); // same page
        assertEquals(DigestTable.PAGE_BYTES, b.used());
        assertEquals(2, t.filled());
        t.set(0, d(3));
        assertEquals(2 * DigestTable.PAGE_BYTES, b.used());
        t.release();
        assertEquals(0, b.used());
    }

    @Test
    void scatteredWritesStopAtTheBudget() {
        DigestTable.Budget b = new DigestTable.Budget(3 * DigestTable.PAGE_BYTES);
        DigestTable t = new DigestTable(10 * DigestTable.PAGE_SLOTS, b);
        DigestTable other = new DigestTable(10 * DigestTable.PAGE_SLOTS, b); // same session
        t.set(0, d(0));
        t.set(DigestTable.PAGE_SLOTS, d(1));
        other.set(0, d(2));
        ApiException e = assertThrows(ApiException.class, () -> t.set(5 * DigestTable.PAGE_SLOTS, d(3)));
        assertEquals(400, e.status());
        assertEquals("fixed index memory limit of this backup session exceeded (" + 3 * DigestTable.PAGE_BYTES
                + " bytes of digests)", e.getMessage());
        t.set(1, d(4)); // an allocated page still takes writes
        other.release();
        t.set(5 * DigestTable.PAGE_SLOTS, d(3));
    }

    @Test
    void toArrayReturnsDigestsInOrderAndNamesAHole() {
        DigestTable t = new DigestTable(600, new DigestTable.Budget(1 << 20));
        for (int i = 0; i < 600; i++) {
            if (i != 300) {
                t.set(i, d(i));
            }
        }
        t.set(7, d(70)); // replaced, not counted twice
        assertEquals(599, t.filled());
        IllegalStateException e = assertThrows(IllegalStateException.class, t::toArray);
        assertEquals("fixed index incomplete: chunk 300 of 600 not set", e.getMessage());
        t.set(300, d(300));
        Digest[] all = t.toArray();
        assertEquals(600, all.length);
        assertEquals(d(70), all[7]);
        assertEquals(d(599), all[599]);
        assertArrayEquals(d(300).bytes(), all[300].bytes());
    }
}
