package org.jpbs.client.restore;

/**
 * Counters of one restore (sizes in bytes of plaintext).
 *
 * @param totalBytes    size of the restored stream (the index size)
 * @param chunks        number of chunks in the index
 * @param fetchedChunks chunks read from the chunk source and decoded
 * @param fetchedBytes  plaintext bytes of the fetched chunks
 * @param zeroChunks    all-zero chunks (recognised by digest without fetching, or, for sparse
 *                      restores, by content after fetching)
 * @param zeroBytes     plaintext bytes of the zero chunks
 * @param skippedBytes  bytes not written because of {@code --sparse} (holes in the target)
 * @param durationNanos wall-clock time in nanoseconds
 */
public record RestoreStats(long totalBytes, long chunks, long fetchedChunks, long fetchedBytes, long zeroChunks,
        long zeroBytes, long skippedBytes, long durationNanos) {

    /** Bytes actually written to the target. */
    public long writtenBytes() {
        return totalBytes - skippedBytes;
    }

    /** Average speed over the whole stream in bytes per second (0 if no time passed). */
    public double bytesPerSecond() {
        return durationNanos <= 0 ? 0 : totalBytes * 1e9 / durationNanos;
    }
}
