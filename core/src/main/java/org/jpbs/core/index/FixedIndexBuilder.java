package org.jpbs.core.index;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jpbs.core.digest.Digest;

/**
 * Collects the digests of a fixed index ({@code docs/formats.md#fixed-index-fidx}) in any order, from
 * any number of threads, then builds the {@link FixedIndex}.
 */
public final class FixedIndexBuilder {
    private final long size;
    private final int chunkSize;
    private final AtomicReferenceArray<Digest> slots;
    private final AtomicInteger filled = new AtomicInteger();

    /**
     * @param size      image size in bytes
     * @param chunkSize chunk size in bytes, a power of two
     * @throws IllegalArgumentException on a bad chunk size or size
     */
    public FixedIndexBuilder(long size, int chunkSize) {
        this.slots = new AtomicReferenceArray<>(FixedIndex.chunkCount(size, chunkSize));
        this.size = size;
        this.chunkSize = chunkSize;
    }

    /**
     * Sets the digest of chunk {@code i} (thread-safe; setting a slot again replaces it).
     *
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public void set(int i, Digest d) {
        java.util.Objects.requireNonNull(d, "digest");
        if (slots.getAndSet(i, d) == null) {
            filled.incrementAndGet();
        }
    }

    /** Number of chunk slots. */
    public int chunkCount() {
        return slots.length();
    }

    /** True when every slot has a digest. */
    public boolean isComplete() {
        return filled.get() == slots.length();
    }

    /**
     * Builds the index.
     *
     * @throws IllegalStateException naming the first slot without a digest
     */
    public FixedIndex build(UUID uuid, long ctime) {
        Digest[] d = new Digest[slots.length()];
        for (int i = 0; i < d.length; i++) {
            d[i] = slots.get(i);
            if (d[i] == null) {
                throw new IllegalStateException("fixed index incomplete: chunk " + i + " of " + d.length + " not set");
            }
        }
        return new FixedIndex(uuid, ctime, size, chunkSize, d);
    }
}
