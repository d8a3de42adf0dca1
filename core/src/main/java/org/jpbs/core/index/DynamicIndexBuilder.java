package org.jpbs.core.index;

import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;
import org.jpbs.core.digest.Digest;

/**
 * Appends chunks of a dynamic index ({@code docs/formats.md#dynamic-index-didx}) in stream order, then
 * builds the {@link DynamicIndex}. Not thread-safe.
 */
public final class DynamicIndexBuilder {
    private long[] ends = new long[64];
    private Digest[] digests = new Digest[64];
    private int count;

    /** Creates an empty builder. */
    public DynamicIndexBuilder() {}

    /**
     * Appends a chunk ending (exclusively) at {@code endOffset} bytes of the stream.
     *
     * @throws IllegalArgumentException if {@code endOffset} is not greater than the previous end (or 0)
     */
    public void append(long endOffset, Digest d) {
        Objects.requireNonNull(d, "digest");
        long prev = count == 0 ? 0 : ends[count - 1];
        if (endOffset <= prev) {
            throw new IllegalArgumentException("dynamic index end offset " + endOffset
                    + " is not greater than the previous end " + prev);
        }
        if (count == ends.length) {
            ends = Arrays.copyOf(ends, count * 2);
            digests = Arrays.copyOf(digests, count * 2);
        }
        ends[count] = endOffset;
        digests[count] = d;
        count++;
    }

    /** Number of chunks appended so far. */
    public int chunkCount() {
        return count;
    }

    /** Total size so far: the last end offset, or 0. */
    public long size() {
        return count == 0 ? 0 : ends[count - 1];
    }

    /** Builds the index from the chunks appended so far. */
    public DynamicIndex build(UUID uuid, long ctime) {
        return new DynamicIndex(uuid, ctime, Arrays.copyOf(ends, count), Arrays.copyOf(digests, count));
    }
}
