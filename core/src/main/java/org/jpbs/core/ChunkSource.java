package org.jpbs.core;

import java.io.IOException;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;

/**
 * Anything that can hand out decoded chunks by digest: a local chunk store, a remote reader,
 * a test map.
 */
public interface ChunkSource {
    /**
     * Returns the decoded plaintext of a chunk.
     *
     * @param digest       the chunk's 32-byte digest
     * @param expectedSize plaintext length in bytes if known, else -1
     * @throws org.jpbs.core.errors.MissingChunkException   if the chunk is absent
     * @throws org.jpbs.core.errors.CorruptDataException    if it fails CRC or decoding
     * @throws org.jpbs.core.errors.EncryptedDataException  if it is encrypted and no key is at hand
     * @throws IOException                                  on read errors
     */
    default byte[] readChunk(Digest digest, int expectedSize) throws IOException {
        return readChunk(digest, expectedSize, null);
    }

    /**
     * Returns the decoded plaintext of a chunk, decrypting it with {@code crypt} if it is
     * encrypted.
     *
     * @param crypt the key, or null (then an encrypted chunk is an {@code EncryptedDataException})
     * @throws org.jpbs.core.errors.CryptoException if the chunk does not decrypt with {@code crypt}
     * @throws IOException as {@link #readChunk(Digest, int)}
     */
    byte[] readChunk(Digest digest, int expectedSize, CryptConfig crypt) throws IOException;
}
