package org.jpbs.client.pxar;

/**
 * SipHash-2-4 with 64-bit output (Aumasson and Bernstein), as pxar uses it for its item type
 * constants and for the file name hashes of the goodbye tables ({@code docs/pxar.md#hashes}).
 */
public final class SipHash24 {
    private SipHash24() {}

    /** SipHash-2-4 of {@code data[off, off+len)} under the keys {@code k0, k1}. */
    public static long hash(long k0, long k1, byte[] data, int off, int len) {
        long v0 = k0 ^ 0x736f6d6570736575L;
        long v1 = k1 ^ 0x646f72616e646f6dL;
        long v2 = k0 ^ 0x6c7967656e657261L;
        long v3 = k1 ^ 0x7465646279746573L;
        int end = off + (len & ~7);
        int i = off;
        for (; i < end; i += 8) {
            long m = (data[i] & 0xffL) | (data[i + 1] & 0xffL) << 8 | (data[i + 2] & 0xffL) << 16
                    | (data[i + 3] & 0xffL) << 24 | (data[i + 4] & 0xffL) << 32 | (data[i + 5] & 0xffL) << 40
                    | (data[i + 6] & 0xffL) << 48 | (data[i + 7] & 0xffL) << 56;
            v3 ^= m;
            for (int r = 0; r < 2; r++) {
                v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
                v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
                v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
                v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
            }
            v0 ^= m;
        }
        long b = ((long) len) << 56;
        for (int k = 0; i + k < off + len; k++) {
            b |= (data[i + k] & 0xffL) << (8 * k);
        }
        v3 ^= b;
        for (int r = 0; r < 2; r++) {
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
        }
        v0 ^= b;
        v2 ^= 0xff;
        for (int r = 0; r < 4; r++) {
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
        }
        return v0 ^ v1 ^ v2 ^ v3;
    }
}
