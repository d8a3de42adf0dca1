package org.jpbs.core.pxar;

/**
 * SipHash-2-4 with 64-bit output (Aumasson and Bernstein), as pxar uses it for its item type
 * constants and for the file name hashes of the goodbye tables ({@code docs/pxar.md#goodbye-tables}).
 */
public final class SipHash24 {
    private long v0;
    private long v1;
    private long v2;
    private long v3;

    private SipHash24(long k0, long k1) {
        v0 = k0 ^ 0x736f6d6570736575L;
        v1 = k1 ^ 0x646f72616e646f6dL;
        v2 = k0 ^ 0x6c7967656e657261L;
        v3 = k1 ^ 0x7465646279746573L;
    }

    /** SipHash-2-4 of {@code data[off, off+len)} under the keys {@code k0, k1}. */
    public static long hash(long k0, long k1, byte[] data, int off, int len) {
        SipHash24 s = new SipHash24(k0, k1);
        int end = off + (len & ~7);
        int i = off;
        for (; i < end; i += 8) {
            s.compress(ItemReader.getLong(data, i), 2);
        }
        long b = ((long) len) << 56;
        for (int k = 0; i + k < off + len; k++) {
            b |= (data[i + k] & 0xffL) << (8 * k);
        }
        s.compress(b, 2);
        s.v2 ^= 0xff;
        s.rounds(4);
        return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
    }

    private void compress(long m, int rounds) {
        v3 ^= m;
        rounds(rounds);
        v0 ^= m;
    }

    private void rounds(int n) {
        for (int r = 0; r < n; r++) {
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
        }
    }
}
