package org.jpbs.client.restore;

import java.io.IOException;

/**
 * Receives the restored chunks of an image, out of order and from several worker threads at
 * once (implementations must be thread-safe).
 */
@FunctionalInterface
public interface ChunkConsumer {
    /**
     * One chunk of the image.
     *
     * @param offset byte offset of the chunk in the image
     * @param data   the decoded, verified plaintext (exactly {@code length} bytes), or null for a
     *               chunk of zeros (recognised by its digest, never fetched)
     * @param length the chunk length in bytes
     * @throws IOException to abort the restore
     */
    void accept(long offset, byte[] data, int length) throws IOException;
}
