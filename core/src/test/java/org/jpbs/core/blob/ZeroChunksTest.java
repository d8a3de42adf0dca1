package org.jpbs.core.blob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jpbs.core.digest.Digest;
import org.junit.jupiter.api.Test;

class ZeroChunksTest {
    @Test
    void zero4MVector() {
        assertEquals("bb9f8df61474d25e71fa00722318cd387396ca1736605e1248821cc0de3d3af8", ZeroChunks.ZERO_4M.hex());
        assertEquals(Digest.sha256(new byte[4 << 20]), ZeroChunks.ZERO_4M);
        assertSame(ZeroChunks.ZERO_4M, ZeroChunks.digest(4 << 20));
    }

    @Test
    void otherSizesAreComputedAndCached() throws Exception {
        Digest d = ZeroChunks.digest(1060921);
        assertEquals(Digest.sha256(new byte[1060921]), d);
        assertSame(d, ZeroChunks.digest(1060921));
        DataBlob b = ZeroChunks.blob(1 << 20);
        assertTrue(b.isCompressed());
        assertTrue(b.rawLength() < 1000);
        assertArrayEquals(new byte[1 << 20], b.decode("zero", 1 << 20));
        assertSame(b, ZeroChunks.blob(1 << 20));
        assertEquals(ZeroChunks.digest(1 << 20), ZeroChunks.chunk(1 << 20).digest());
    }

    @Test
    void isZero() {
        byte[] b = new byte[300_000];
        assertTrue(ZeroChunks.isZero(b, 0, b.length));
        assertTrue(ZeroChunks.isZero(b, 5, 0));
        b[299_999] = 1;
        assertFalse(ZeroChunks.isZero(b, 0, b.length));
        assertTrue(ZeroChunks.isZero(b, 0, 299_999));
        b[70_000] = -1;
        assertFalse(ZeroChunks.isZero(b, 65_536, 10_000));
        assertTrue(ZeroChunks.isZero(b, 70_001, 200_000));
    }
}
