package org.jpbs.core.chunker;

import java.util.Objects;

/**
 * The PBS content-defined chunker ({@code docs/formats.md#chunker-for-dynamic-archives}): a rolling buzhash over a
 * 64-byte window. For an average size {@code avg} (a power of two): minimum chunk
 * {@code avg/4}, maximum {@code avg*4}, mask {@code 2*avg-1}, and a cut when
 * {@code (h & mask) >= mask-2} once the chunk is at least the minimum; a chunk that reaches the
 * maximum is always cut. No cut is tested while the window fills after a reset. Gives the same
 * cuts as the Rust client, whatever the feeding pattern.
 */
public final class BuzhashChunker implements Chunker {
    private static final int WINDOW = 64;
    private static final int[] T = BuzhashTable.TABLE;

    private final int min;
    private final int max;
    private final int mask;
    private final int threshold;
    private final byte[] window = new byte[WINDOW];
    private int h;
    private int fill;
    private int chunkSize;

    /**
     * @param avgSize average chunk size in bytes: a power of two, at least 64, at most 256 MiB
     * @throws IllegalArgumentException otherwise
     */
    public BuzhashChunker(int avgSize) {
        if (avgSize < WINDOW || avgSize > (1 << 28) || Integer.bitCount(avgSize) != 1) {
            throw new IllegalArgumentException("average chunk size must be a power of two in [64, 256 MiB]: " + avgSize);
        }
        this.min = avgSize >> 2;
        this.max = avgSize << 2;
        this.mask = 2 * avgSize - 1;
        this.threshold = mask - 2;
    }

    /** Minimum chunk length in bytes (avg/4). */
    public int minSize() {
        return min;
    }

    /** Maximum chunk length in bytes (avg*4). */
    public int maxSize() {
        return max;
    }

    @Override
    public int scan(byte[] data, int off, int len) {
        Objects.checkFromIndexSize(off, len, data.length);
        int pos = off;
        int end = off + len;
        int hh = h;
        int cs = chunkSize;
        byte[] w = window;
        if (fill < WINDOW) {
            int take = Math.min(WINDOW - fill, len);
            for (int k = 0; k < take; k++) {
                byte b = data[pos++];
                w[fill++] = b;
                hh = Integer.rotateLeft(hh, 1) ^ T[b & 0xff];
            }
            cs += take;
            if (fill < WINDOW) {
                h = hh;
                chunkSize = cs;
                return 0;
            }
        }
        final int mn = min;
        final int mx = max;
        final int mk = mask;
        final int th = threshold;
        while (pos < end) {
            int idx = cs & (WINDOW - 1);
            byte enter = data[pos++];
            hh = Integer.rotateLeft(hh, 1) ^ T[w[idx] & 0xff] ^ T[enter & 0xff];
            cs++;
            w[idx] = enter;
            if (cs >= mn && (cs >= mx || (hh & mk) >= th)) {
                h = 0;
                chunkSize = 0;
                fill = 0;
                return pos - off;
            }
        }
        h = hh;
        chunkSize = cs;
        return 0;
    }

    @Override
    public void reset() {
        h = 0;
        chunkSize = 0;
        fill = 0;
    }
}
