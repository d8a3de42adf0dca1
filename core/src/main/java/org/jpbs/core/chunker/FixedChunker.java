package org.jpbs.core.chunker;

import java.util.Objects;

/**
 * Cuts the stream into slices of exactly {@code chunkSize} bytes (the last one may be shorter),
 * like the client's fixed chunk stream for images ({@code docs/formats.md#fixed-index-fidx}, {@code docs/formats.md#chunker-for-dynamic-archives}).
 */
public final class FixedChunker implements Chunker {
    private final int chunkSize;
    private int pending;

    /**
     * @param chunkSize slice length in bytes, > 0
     * @throws IllegalArgumentException if not positive
     */
    public FixedChunker(int chunkSize) {
        if (chunkSize <= 0) {
            throw new IllegalArgumentException("chunk size must be positive: " + chunkSize);
        }
        this.chunkSize = chunkSize;
    }

    /** The slice length in bytes. */
    public int chunkSize() {
        return chunkSize;
    }

    @Override
    public int scan(byte[] data, int off, int len) {
        Objects.checkFromIndexSize(off, len, data.length);
        int need = chunkSize - pending;
        if (len >= need) {
            pending = 0;
            return need;
        }
        pending += len;
        return 0;
    }

    @Override
    public void reset() {
        pending = 0;
    }
}
