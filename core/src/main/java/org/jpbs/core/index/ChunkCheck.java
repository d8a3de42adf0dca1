package org.jpbs.core.index;

import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;

/**
 * The check every decoded chunk of an index passes before it is used (a restore, a random read):
 * its length as the index says, and its content against its digest
 * ({@code docs/formats.md#chunks-and-digests}).
 */
public final class ChunkCheck {
    private ChunkCheck() {}

    /**
     * Checks chunk {@code i} of {@code index}, decoded to {@code data}.
     *
     * @param verify   also check the digest (else only the length)
     * @param crypt    the key of an encrypted index (keyed digests), or null
     * @param resource the archive's name for messages
     * @throws CorruptDataException naming the chunk, its number and offset
     */
    public static void check(IndexFile index, int i, byte[] data, boolean verify, CryptConfig crypt, String resource)
            throws CorruptDataException {
        Digest d = index.digest(i);
        int len = index.chunkLength(i);
        if (data.length != len) {
            throw new CorruptDataException("chunk " + d.hex(), -1, "decoded to " + data.length
                    + " bytes, but " + resource + " expects " + len + " (chunk #" + i + ")");
        }
        if (verify) {
            Digest actual = EncodedChunk.digest(data, 0, len, crypt);
            if (!actual.equals(d)) {
                throw new CorruptDataException("chunk " + d.hex(), -1, "content does not match its digest (hashes to "
                        + actual.hex() + "; " + resource + " chunk #" + i + " at byte " + index.chunkStart(i) + ")");
            }
        }
    }
}
