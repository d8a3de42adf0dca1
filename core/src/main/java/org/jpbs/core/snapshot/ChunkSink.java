package org.jpbs.core.snapshot;

import java.io.IOException;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.digest.Digest;

/**
 * Where a backup engine puts its chunks: a local chunk store or an upload session.
 *
 * <p>The engine asks {@link #isKnown} before it compresses a chunk. A known chunk (listed in the
 * previous snapshot of the same group, and still present on the target) is only registered
 * with {@link #reuse}; an unknown chunk is compressed and handed to {@link #insert}.
 *
 * <p>Implementations must be thread-safe: the engines call every method from several worker
 * threads at once, and must not hold a lock across a whole chunk write.
 */
public interface ChunkSink {
    /**
     * Returns true if the target already holds the chunk and the engine may skip compressing
     * and sending it (for example because the previous snapshot's index lists it).
     *
     * @param digest the 32-byte SHA-256 digest of the plaintext chunk
     */
    boolean isKnown(Digest digest);

    /**
     * Registers a chunk for which {@link #isKnown} returned true: touches it (so garbage
     * collection keeps it) or tells the server it is part of the new snapshot.
     *
     * @throws IOException if the chunk cannot be registered (for example it vanished)
     */
    void reuse(Digest digest) throws IOException;

    /**
     * Stores an encoded chunk.
     *
     * @param chunk digest, encoded blob and plaintext size
     * @return true if the chunk was new on the target, false if the target already had it
     * @throws IOException if writing fails
     */
    boolean insert(EncodedChunk chunk) throws IOException;
}
