package org.jpbs.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.UUID;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.junit.jupiter.api.Test;

class DigestScanTest {
    static Digest[] digests(int n, long seed) {
        Random r = new Random(seed);
        Digest[] d = new Digest[n];
        for (int i = 0; i < n; i++) {
            byte[] b = new byte[32];
            r.nextBytes(b);
            d[i] = Digest.of(b);
        }
        return d;
    }

    static void sameAs(IndexFile idx, DigestScan s) {
        assertEquals(idx.chunkCount(), s.count());
        assertEquals(idx.size(), s.size());
        for (int i = 0; i < s.count(); i++) {
            assertEquals(idx.digest(i), s.digest(i));
            ByteBuffer b = ByteBuffer.allocate(32);
            idx.digest(i).writeTo(b);
            for (int w = 0; w < 4; w++) {
                assertEquals(b.getLong(w * 8), s.word(i, w));
            }
        }
    }

    @Test
    void fixedAndDynamicGiveTheSameDigestsAsTheParsers() throws Exception {
        FixedIndex f = new FixedIndex(new UUID(1, 2), 5, 10_000_000L, 1 << 22, digests(3, 1));
        sameAs(f, DigestScan.fixed(ByteBuffer.wrap(f.encode()), "f"));
        DynamicIndex d = new DynamicIndex(new UUID(3, 4), 6, new long[] {100, 250, 4000}, digests(3, 2));
        sameAs(d, DigestScan.dynamic(ByteBuffer.wrap(d.encode()), "d"));
        byte[] bad = d.encode();
        bad[4096 + 40] = 0; // second end offset below the first
        bad[4096 + 41] = 0;
        assertThrows(CorruptDataException.class, () -> DigestScan.dynamic(ByteBuffer.wrap(bad), "d"));
        assertThrows(CorruptDataException.class, () -> DigestScan.fixed(ByteBuffer.wrap(d.encode()), "d"));
        byte[] shortF = java.util.Arrays.copyOf(f.encode(), 4096 + 64);
        assertThrows(CorruptDataException.class, () -> DigestScan.fixed(ByteBuffer.wrap(shortF), "f"));
    }
}
