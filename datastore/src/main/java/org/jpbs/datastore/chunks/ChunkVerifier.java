package org.jpbs.datastore.chunks;

import java.io.IOException;
import org.jpbs.core.FileFormats;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.manifest.CryptMode;

/**
 * Checks one stored chunk the way a PBS verify job does ({@code docs/formats.md#chunks-and-digests}, {@code docs/formats.md#chunk-store-chunks}):
 * the CRC always; the kind of chunk against the index that references it (an encrypted index
 * references only encrypted chunks, a plain or signed one only plain chunks); then an
 * unencrypted chunk is decoded and re-hashed, while an encrypted one, which the server cannot
 * decrypt, is checked by size only and reported as {@link Result#ENCRYPTED_CRC_ONLY}.
 */
public final class ChunkVerifier {
    private ChunkVerifier() {}

    /** What could be checked. */
    public enum Result {
        /** Decoded; length and SHA-256 match. */
        VERIFIED,
        /** Encrypted: CRC and size match; the content cannot be checked without the key. */
        ENCRYPTED_CRC_ONLY
    }

    /**
     * Verifies the chunk {@code digest} of {@code store}.
     *
     * @param expectedSize the plaintext length the index gives, in bytes
     * @param indexMode    the crypt mode of the index (manifest entry) referencing the chunk
     * @throws org.jpbs.core.errors.MissingChunkException if the chunk is absent
     * @throws CorruptDataException naming the chunk file on a bad CRC, a wrong kind, size or digest
     * @throws IOException on read errors
     */
    public static Result verify(ChunkStore store, Digest digest, int expectedSize, CryptMode indexMode) throws IOException {
        DataBlob blob = store.read(digest);
        String resource = store.location(digest);
        blob.verifyCrc(resource);
        boolean wantEncrypted = indexMode == CryptMode.ENCRYPT;
        if (blob.isEncrypted() != wantEncrypted) {
            throw new CorruptDataException(resource, 0, "chunk crypt mode " + (blob.isEncrypted() ? "encrypt" : "none")
                    + " does not match index crypt mode " + indexMode);
        }
        if (blob.isEncrypted()) {
            int payload = blob.rawLength() - FileFormats.ENCRYPTED_BLOB_HEADER_SIZE;
            if (blob.isCompressed() ? payload >= expectedSize : payload != expectedSize) {
                throw new CorruptDataException(resource, -1, "encrypted chunk has " + payload
                        + " bytes of ciphertext, which does not fit its size " + expectedSize);
            }
            return Result.ENCRYPTED_CRC_ONLY;
        }
        byte[] data;
        try {
            data = blob.decode(resource, expectedSize);
        } catch (org.jpbs.core.errors.EncryptedDataException e) {
            throw new IllegalStateException(e); // cannot happen: checked isEncrypted() first
        }
        Digest actual = Digest.sha256(data);
        if (!actual.equals(digest)) {
            throw new CorruptDataException(resource, -1, "chunk content hashes to " + actual.hex());
        }
        return Result.VERIFIED;
    }
}
