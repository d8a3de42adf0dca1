package org.jpbs.core.chunker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntUnaryOperator;
import org.jpbs.core.digest.Digest;
import org.junit.jupiter.api.Test;

class BuzhashChunkerTest {
    private static final List<Integer> T1 = List.of(143377, 262144, 262144, 262144, 118767);
    private static final List<Integer> T2 = List.of(1168986, 9664476, 7253686, 3718356, 7798061, 3346422,
            12899654, 2479967, 2002040);
    private static final List<Integer> T3 = List.of(16777216, 4194304);

    private static byte[] t1() {
        ByteBuffer b = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 262144; i++) {
            b.putInt(i);
        }
        return b.array();
    }

    private static byte[] t2() {
        ByteBuffer b = ByteBuffer.allocate(48 << 20).order(ByteOrder.LITTLE_ENDIAN);
        long x = 0x9E3779B97F4A7C15L;
        while (b.hasRemaining()) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            b.putLong(x);
        }
        return b.array();
    }

    /** Feeds {@code data} in pieces whose sizes {@code feed} gives, returning the chunk lengths. */
    static List<Integer> chunk(Chunker c, byte[] data, IntUnaryOperator feed) {
        List<Integer> out = new ArrayList<>();
        int start = 0;
        int pos = 0;
        int piece = 0;
        while (pos < data.length) {
            int len = Math.min(Math.max(1, feed.applyAsInt(piece++)), data.length - pos);
            int off = pos;
            int end = pos + len;
            while (off < end) {
                int n = c.scan(data, off, end - off);
                if (n == 0) {
                    break;
                }
                off += n;
                out.add(off - start);
                start = off;
            }
            pos = end;
        }
        if (start < data.length) {
            out.add(data.length - start);
        }
        return out;
    }

    private static void checkAllFeeds(byte[] data, int avg, List<Integer> expected, boolean oneByte) {
        assertEquals(expected, chunk(new BuzhashChunker(avg), data, i -> Integer.MAX_VALUE), "whole");
        if (oneByte) {
            assertEquals(expected, chunk(new BuzhashChunker(avg), data, i -> 1), "1-byte feed");
        }
        assertEquals(expected, chunk(new BuzhashChunker(avg), data, i -> 63), "63-byte feed");
        assertEquals(expected, chunk(new BuzhashChunker(avg), data, i -> 4099), "4099-byte feed");
        assertEquals(expected, chunk(new BuzhashChunker(avg), data, i -> (i % 2 == 0) ? 1 : 65537), "alternating");
        for (long seed = 1; seed <= 3; seed++) {
            Random r = new Random(seed);
            assertEquals(expected, chunk(new BuzhashChunker(avg), data, i -> 1 + r.nextInt(200_000)),
                    "random feed seed " + seed);
        }
    }

    @Test
    void tableChecksum() {
        ByteBuffer b = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : BuzhashTable.TABLE) {
            b.putInt(v);
        }
        assertEquals(256, BuzhashTable.TABLE.length);
        assertEquals("5b52080d38287da9d2e278466e3e0db7ec98e5e8b226f50612a56fa012b1f660",
                Digest.sha256(b.array()).hex());
    }

    @Test
    void t1UpstreamBuffer64K() {
        checkAllFeeds(t1(), 64 * 1024, T1, true);
    }

    @Test
    void t2Xorshift4M() {
        byte[] d = t2();
        checkAllFeeds(d, 4 << 20, T2, false);
        assertEquals(T2, chunk(new BuzhashChunker(4 << 20), d, i -> 1), "1-byte feed");
    }

    @Test
    void t3Zeros4M() {
        checkAllFeeds(new byte[20 << 20], 4 << 20, T3, false);
    }

    @Test
    void resetForgetsState() {
        byte[] d = t1();
        BuzhashChunker c = new BuzhashChunker(64 * 1024);
        assertEquals(0, c.scan(d, 0, 100_000));
        c.reset();
        assertEquals(T1, chunk(c, d, i -> Integer.MAX_VALUE));
    }

    @Test
    void parameters() {
        BuzhashChunker c = new BuzhashChunker(4 << 20);
        assertEquals(1 << 20, c.minSize());
        assertEquals(16 << 20, c.maxSize());
        assertThrows(IllegalArgumentException.class, () -> new BuzhashChunker(3000));
        assertThrows(IllegalArgumentException.class, () -> new BuzhashChunker(0));
        assertThrows(IllegalArgumentException.class, () -> new BuzhashChunker(-4096));
    }

    @Test
    void everyCutRespectsMinAndMax() {
        byte[] d = new byte[8 << 20];
        new Random(7).nextBytes(d);
        List<Integer> lens = chunk(new BuzhashChunker(64 * 1024), d, i -> 10_000);
        assertEquals(d.length, lens.stream().mapToLong(Integer::longValue).sum());
        for (int k = 0; k < lens.size() - 1; k++) {
            assertTrue(lens.get(k) >= 16 * 1024 && lens.get(k) <= 256 * 1024, "len " + lens.get(k));
        }
        assertTrue(lens.size() > 50, "random data must cut often: " + lens.size());
    }

    @Test
    void fixedChunker() {
        byte[] d = new byte[10_000];
        assertEquals(List.of(4096, 4096, 1808), chunk(new FixedChunker(4096), d, i -> Integer.MAX_VALUE));
        assertEquals(List.of(4096, 4096, 1808), chunk(new FixedChunker(4096), d, i -> 7));
        assertEquals(List.of(4096, 4096, 1808), chunk(new FixedChunker(4096), d, i -> 1));
        assertThrows(IllegalArgumentException.class, () -> new FixedChunker(0));
    }
}
