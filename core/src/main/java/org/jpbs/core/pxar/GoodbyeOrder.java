package org.jpbs.core.pxar;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order of a goodbye table ({@code docs/pxar.md#goodbye-tables}): the children's items
 * sorted by hash (unsigned), then laid out as an implicit binary search tree whose node
 * {@code i} has its children at {@code 2i+1} and {@code 2i+2}, filled left to right as a
 * complete tree. Filling the nodes in in-order sequence with the sorted items gives exactly
 * that layout.
 */
final class GoodbyeOrder {
    private GoodbyeOrder() {}

    /**
     * For {@code n} sorted items, the index into the sorted array that goes to each table slot:
     * {@code result[slot] = sortedIndex}.
     */
    static int[] permutation(int n) {
        int[] out = new int[n];
        int[] next = {0};
        fill(out, 0, n, next);
        return out;
    }

    private static void fill(int[] out, int node, int n, int[] next) {
        if (node >= n) {
            return;
        }
        fill(out, 2 * node + 1, n, next);
        out[node] = next[0]++;
        fill(out, 2 * node + 2, n, next);
    }

    /** Sorts item indexes {@code 0..n-1} by their (unsigned) hashes; stable for equal hashes. */
    static Integer[] sortByHash(long[] hashes, int n) {
        Integer[] idx = new Integer[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        java.util.Arrays.sort(idx, (a, b) -> Long.compareUnsigned(hashes[a], hashes[b]));
        return idx;
    }

    /**
     * Reads the goodbye table whose header (at {@code off}, full size {@code size}) was just
     * read and checks it against the directory's children {hash, FILENAME offset, size,
     * payload size of a split archive's new file} and its ENTRY offset.
     */
    static void check(ItemReader in, List<long[]> children, long entryOffset, long off, long size) throws IOException {
        long content = size - PxarFormat.HEADER_SIZE;
        int n = children.size();
        if (content != (long) (n + 1) * PxarFormat.GOODBYE_ITEM_SIZE) {
            throw new PxarFormatException(off, "GOODBYE table of size " + size + " for " + n + " children");
        }
        long[] hashes = new long[n];
        Map<Long, long[]> byOffset = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            long[] c = children.get(i);
            hashes[i] = c[0];
            byOffset.put(off - c[1], c);
        }
        Integer[] sorted = sortByHash(hashes, n);
        int[] perm = permutation(n);
        for (int slot = 0; slot < n; slot++) {
            long itemOff = in.position();
            long hash = in.readLong();
            long rel = in.readLong();
            long sz = in.readLong();
            long[] child = byOffset.remove(rel);
            boolean sizeOk = child != null && (child[2] == sz || (child[3] != 0 && child[2] + child[3] == sz));
            if (hash != hashes[sorted[perm[slot]]] || child == null || child[0] != hash || !sizeOk) {
                throw new PxarFormatException(itemOff, "goodbye table item " + slot
                        + " does not match the directory's entries");
            }
        }
        long itemOff = in.position();
        long tail = in.readLong();
        long rel = in.readLong();
        long sz = in.readLong();
        if (tail != PxarFormat.GOODBYE_TAIL_MARKER || rel != off - entryOffset || sz != size) {
            throw new PxarFormatException(itemOff, "bad goodbye table tail item");
        }
    }
}
