package org.jpbs.core.chunker;

/**
 * Finds chunk boundaries in a byte stream fed in pieces ({@code docs/formats.md#chunker-for-dynamic-archives}).
 *
 * <p>Usage: call {@link #scan} with the next piece. A result {@code n > 0} means a chunk ends
 * after {@code data[off+n-1]}; the chunker state is then reset and the caller calls again with
 * the rest of the piece ({@code off+n, len-n}). A result of 0 means no cut in the piece: the
 * state carries over to the next call. The bytes after the last cut form the final chunk.
 * Instances are not thread-safe.
 */
public interface Chunker {
    /**
     * Scans {@code data[off, off+len)}.
     *
     * @return the number of bytes up to and including the cut, or 0 if there is no cut
     */
    int scan(byte[] data, int off, int len);

    /** Forgets all state, as at the start of a stream. */
    void reset();
}
