package org.jpbs.server.backup;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.core.digest.Digest;
import org.jpbs.server.http.ApiException;

/**
 * The digest slots of a fixed index being written ({@code docs/protocol.md#chunk-upload-and-known-chunks}, {@code docs/protocol.md#appending}, {@code docs/protocol.md#closing-an-index}),
 * stored sparsely: slot {@code i} lives in page {@code i / PAGE_SLOTS}, a {@code byte[]} of
 * {@value #PAGE_SLOTS} digests of 32 bytes (8 KiB) plus a presence bitmap, allocated on the
 * first write into it. Announcing a huge image (e.g. 255 TiB, 67 million slots) therefore costs
 * only the page table (8 bytes per 256 slots, ~2 MiB at the maximum), and memory grows with the
 * chunks actually appended. Every page allocated is charged to a per-session {@link Budget};
 * when it is used up the append fails with 400 instead of exhausting the heap.
 * Not thread-safe: {@link FixedWriter} calls it under its lock.
 */
final class DigestTable {
    /** Slots per page: 256 (8 KiB of digests). */
    static final int PAGE_SLOTS = 256;
    /** Heap bytes charged per page: the digests plus the bitmap and array headers. */
    static final long PAGE_BYTES = (long) PAGE_SLOTS * Digest.LENGTH + PAGE_SLOTS / 8 + 64;

    /**
     * Bytes of digest pages one backup session may hold (all its fixed indexes together).
     * 256 MiB is 8 million chunks, i.e. 32 TiB of fixed images of 4 MiB chunks written in
     * one session.
     */
    static final long DEFAULT_SESSION_BUDGET = 256L * 1024 * 1024;

    /** Remaining page memory of one session, shared by its fixed writers; thread-safe. */
    static final class Budget {
        private final long limit;
        private final AtomicLong used = new AtomicLong();

        /** @param limit bytes */
        Budget(long limit) {
            this.limit = limit;
        }

        void charge(long bytes) {
            if (used.addAndGet(bytes) > limit) {
                used.addAndGet(-bytes);
                throw ApiException.badRequest("fixed index memory limit of this backup session exceeded ("
                        + limit + " bytes of digests)");
            }
        }

        void release(long bytes) {
            used.addAndGet(-bytes);
        }

        /** Bytes charged now. */
        long used() {
            return used.get();
        }
    }

    private final int slots;
    private final Budget budget;
    private final byte[][] pages;
    private final long[][] present;
    private int filled;
    private int allocatedPages;

    /**
     * @param slots  number of chunk slots (from {@code FixedIndex.chunkCount})
     * @param budget the session's page budget
     */
    DigestTable(int slots, Budget budget) {
        this.slots = slots;
        this.budget = budget;
        int n = (int) ((slots + (long) PAGE_SLOTS - 1) / PAGE_SLOTS);
        this.pages = new byte[n][];
        this.present = new long[n][];
    }

    /** Number of slots. */
    int size() {
        return slots;
    }

    /** Number of slots set. */
    int filled() {
        return filled;
    }

    /**
     * Sets slot {@code i} (setting it again replaces the digest).
     *
     * @throws ApiException 400 if the session's budget is used up
     */
    void set(int i, Digest d) {
        if (i < 0 || i >= slots) {
            throw new IndexOutOfBoundsException("slot " + i + " of " + slots);
        }
        int p = i / PAGE_SLOTS;
        int s = i % PAGE_SLOTS;
        byte[] page = pages[p];
        if (page == null) {
            budget.charge(PAGE_BYTES);
            page = pages[p] = new byte[PAGE_SLOTS * Digest.LENGTH];
            present[p] = new long[PAGE_SLOTS / 64];
            allocatedPages++;
        }
        System.arraycopy(d.bytes(), 0, page, s * Digest.LENGTH, Digest.LENGTH);
        long bit = 1L << (s % 64);
        if ((present[p][s / 64] & bit) == 0) {
            present[p][s / 64] |= bit;
            filled++;
        }
    }

    /**
     * All digests in slot order.
     *
     * @throws IllegalStateException naming the first slot without a digest
     */
    Digest[] toArray() {
        Digest[] out = new Digest[slots];
        for (int i = 0; i < slots; i++) {
            int p = i / PAGE_SLOTS;
            int s = i % PAGE_SLOTS;
            if (pages[p] == null || (present[p][s / 64] & (1L << (s % 64))) == 0) {
                throw new IllegalStateException("fixed index incomplete: chunk " + i + " of " + slots + " not set");
            }
            out[i] = Digest.of(Arrays.copyOfRange(pages[p], s * Digest.LENGTH, (s + 1) * Digest.LENGTH));
        }
        return out;
    }

    /** Frees the pages and gives their memory back to the budget (idempotent). */
    void release() {
        budget.release(allocatedPages * PAGE_BYTES);
        allocatedPages = 0;
        Arrays.fill(pages, null);
        Arrays.fill(present, null);
    }
}
