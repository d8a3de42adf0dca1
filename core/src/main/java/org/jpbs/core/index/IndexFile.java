package org.jpbs.core.index;

import org.jpbs.core.digest.Digest;

/**
 * A read view of a chunk index ({@code docs/formats.md#fixed-index-fidx}, {@code docs/formats.md#dynamic-index-didx}): an ordered list of chunks
 * that together make one logical stream of {@link #size()} bytes. Chunk {@code i} covers the
 * byte range {@code [chunkStart(i), chunkEnd(i))} of that stream.
 */
public interface IndexFile {
    /** Total logical size of the indexed data in bytes. */
    long size();

    /** Number of chunks. */
    int chunkCount();

    /** Digest (32 bytes) of chunk {@code i}; {@link IndexOutOfBoundsException} if out of range. */
    Digest digest(int i);

    /** Start offset (bytes, inclusive) of chunk {@code i} in the stream. */
    long chunkStart(int i);

    /** End offset (bytes, exclusive) of chunk {@code i} in the stream. */
    long chunkEnd(int i);

    /** Length of chunk {@code i} in bytes. */
    default int chunkLength(int i) {
        return (int) (chunkEnd(i) - chunkStart(i));
    }

    /** Recomputes the index checksum (SHA-256 over the body, {@code docs/formats.md#fixed-index-fidx}, {@code docs/formats.md#dynamic-index-didx}) from the entries. */
    Digest computeCsum();

    /**
     * Index of the chunk containing the byte at {@code offset}.
     *
     * @throws IndexOutOfBoundsException if {@code offset} is negative or not below {@link #size()}
     */
    int findChunk(long offset);
}
