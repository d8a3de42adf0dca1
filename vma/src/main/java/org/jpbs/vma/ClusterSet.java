package org.jpbs.vma;

/**
 * The set of cluster numbers (0 .. 2^32-1) seen for one device, for the duplicate and missing
 * cluster checks of {@code docs/vma.md#zero-blocks-order-and-vmstate}. Stored as pages of 2^20 bits
 * (128 KiB), allocated on first use, so a 10 GiB device (163,840 clusters) costs one page and
 * a sparse set of huge cluster numbers stays small.
 */
final class ClusterSet {
    private static final int PAGE_BITS = 20;
    private static final int PAGE_MASK = (1 << PAGE_BITS) - 1;

    private final long[][] pages = new long[1 << (32 - PAGE_BITS)][];
    private long count;

    /**
     * Adds a cluster.
     *
     * @param cluster 0 .. 2^32-1
     * @return false if it was already present
     */
    boolean add(long cluster) {
        int page = (int) (cluster >>> PAGE_BITS);
        long[] p = pages[page];
        if (p == null) {
            p = pages[page] = new long[(1 << PAGE_BITS) / 64];
        }
        int bit = (int) (cluster & PAGE_MASK);
        long m = 1L << (bit & 63);
        if ((p[bit >>> 6] & m) != 0) {
            return false;
        }
        p[bit >>> 6] |= m;
        count++;
        return true;
    }

    /** True if the cluster was added. */
    boolean contains(long cluster) {
        long[] p = pages[(int) (cluster >>> PAGE_BITS)];
        int bit = (int) (cluster & PAGE_MASK);
        return p != null && (p[bit >>> 6] & 1L << (bit & 63)) != 0;
    }

    /** Number of clusters added. */
    long count() {
        return count;
    }

    /** The lowest cluster in {@code [0, limit)} not added, or -1 if all are present. */
    long firstMissing(long limit) {
        for (long c = 0; c < limit; ) {
            long[] p = pages[(int) (c >>> PAGE_BITS)];
            if (p == null) {
                return c;
            }
            int word = (int) ((c & PAGE_MASK) >>> 6);
            long w = p[word];
            if (w != -1L) {
                long candidate = (c & ~63L) + Long.numberOfTrailingZeros(~w);
                if (candidate >= c && candidate < limit) {
                    return candidate;
                }
                if (candidate >= limit) {
                    return -1;
                }
            }
            c = (c & ~63L) + 64;
        }
        return -1;
    }
}
