package org.jpbs.server.backup;

import org.jpbs.core.digest.Digest;

/**
 * An open {@code .fidx} or {@code .didx} of a backup session, addressed by its writer id
 * ({@code docs/protocol.md#writer-ids}). Implementations are thread-safe.
 */
sealed interface IndexWriter permits FixedWriter, DynamicWriter {
    /** Writer id (1, 2, ... per session). */
    int wid();

    /** Server file name, e.g. {@code disk.img.fidx}. */
    String archiveName();

    /** {@code "fixed"} or {@code "dynamic"}, for messages. */
    String kind();

    /**
     * Appends one known chunk ({@code docs/protocol.md#appending}).
     *
     * @param offset chunk start offset in the archive, bytes
     * @param length plain chunk length, bytes (from the session's known-chunk map)
     * @throws org.jpbs.server.http.ApiException on an offset or length the index cannot take
     */
    void append(Digest digest, long offset, int length);
}
