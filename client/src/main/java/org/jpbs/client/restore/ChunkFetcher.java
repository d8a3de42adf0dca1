package org.jpbs.client.restore;

import java.util.concurrent.CompletableFuture;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;

/**
 * An asynchronous source of encoded chunks, e.g. {@code GET /chunk?digest=} of a reader session
 * ({@code docs/protocol.md#reader-session}). Decoding and verifying is left to the caller's workers,
 * so a network thread only moves bytes.
 */
@FunctionalInterface
public interface ChunkFetcher {
    /**
     * Starts fetching one chunk.
     *
     * @param digest the 32-byte SHA-256 digest of the plaintext chunk
     * @return completes with the encoded blob as stored (CRC not yet checked), or exceptionally
     *         with an {@link java.io.IOException} (e.g. a {@code MissingChunkException}); may
     *         complete on a network thread, so dependants must not block
     */
    CompletableFuture<DataBlob> fetch(Digest digest);
}
