package org.jpbs.client.backup;

/**
 * Counters of one image backup (all sizes in bytes, plaintext unless said otherwise).
 *
 * <p>Every chunk falls into exactly one class: <em>new</em> (compressed and stored, the target
 * did not have it), <em>reused</em> (known from the previous snapshot, or compressed but the
 * target already had it) or <em>zero</em> (all zero bytes; its blob is stored at most once).
 * So {@code totalBytes == newBytes + reusedBytes + zeroBytes} and
 * {@code chunks == newChunks + reusedChunks + zeroChunks}.
 *
 * @param totalBytes    size of the image
 * @param chunks        number of chunks in the index
 * @param newChunks     chunks stored new on the target
 * @param newBytes      plaintext bytes of the new chunks
 * @param reusedChunks  chunks the target already had
 * @param reusedBytes   plaintext bytes of the reused chunks
 * @param zeroChunks    all-zero chunks
 * @param zeroBytes     plaintext bytes of the zero chunks
 * @param storedBytes   encoded (compressed) bytes written to the target, including a zero chunk blob if it was new
 * @param durationNanos wall-clock time of the run in nanoseconds
 */
public record BackupStats(long totalBytes, long chunks, long newChunks, long newBytes, long reusedChunks,
        long reusedBytes, long zeroChunks, long zeroBytes, long storedBytes, long durationNanos) {

    /** An empty result (no chunks, no time). */
    public static final BackupStats EMPTY = new BackupStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Average speed in bytes per second over the whole image (0 if no time passed). */
    public double bytesPerSecond() {
        return durationNanos <= 0 ? 0 : totalBytes * 1e9 / durationNanos;
    }

    /** Sum of two runs (durations add up, as for archives backed up one after the other). */
    public BackupStats plus(BackupStats o) {
        return new BackupStats(totalBytes + o.totalBytes, chunks + o.chunks, newChunks + o.newChunks,
                newBytes + o.newBytes, reusedChunks + o.reusedChunks, reusedBytes + o.reusedBytes,
                zeroChunks + o.zeroChunks, zeroBytes + o.zeroBytes, storedBytes + o.storedBytes,
                durationNanos + o.durationNanos);
    }
}
