package org.jpbs.client.pxar;

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
}
