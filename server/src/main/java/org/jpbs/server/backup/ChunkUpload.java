package org.jpbs.server.backup;

import org.jpbs.core.FileFormats;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.EncryptedDataException;
import org.jpbs.server.http.ApiException;

/**
 * Validation of one uploaded chunk ({@code docs/protocol.md#chunk-upload-and-known-chunks}), run on a worker
 * thread: the body must be exactly {@code encoded-size} bytes and a DataBlob; an unencrypted
 * chunk is decoded (CRC checked) and must be {@code size} bytes hashing to {@code digest}; an
 * encrypted one can only be checked for framing, CRC and size: its ciphertext is exactly
 * {@code size} bytes, or fewer if it is compressed (compression is kept only if smaller, {@code docs/formats.md#datablob}).
 */
final class ChunkUpload {
    /** Largest plain chunk: 16 MiB. */
    static final int MAX_SIZE = FileFormats.MAX_CHUNK_SIZE;
    /** Smallest encoded chunk: a 12-byte header plus one byte. */
    static final int MIN_ENCODED = FileFormats.BLOB_HEADER_SIZE + 1;
    /** Largest encoded chunk: 16 MiB plus the 44-byte encrypted header. */
    static final int MAX_ENCODED = MAX_SIZE + FileFormats.ENCRYPTED_BLOB_HEADER_SIZE;

    private ChunkUpload() {}

    /**
     * @return the wrapped, verified blob
     * @throws ApiException on a size, framing, CRC, length or digest problem
     */
    static DataBlob verify(Digest digest, int size, int encodedSize, byte[] body) {
        if (body.length != encodedSize) {
            throw ApiException.badRequest("uploaded chunk has unexpected size");
        }
        String resource = "chunk " + digest.hex();
        DataBlob blob;
        try {
            blob = DataBlob.wrap(body, resource);
            if (blob.isEncrypted()) {
                // the server cannot decrypt: CRC, and the sizes the format allows (docs/formats.md#datablob)
                blob.verifyCrc(resource);
                int payload = body.length - FileFormats.ENCRYPTED_BLOB_HEADER_SIZE;
                if (blob.isCompressed() ? payload >= size : payload != size) {
                    throw ApiException.badRequest("encrypted chunk " + digest.hex() + " has " + payload
                            + " bytes of " + (blob.isCompressed() ? "compressed " : "") + "ciphertext, which does not fit "
                            + "its size " + size);
                }
                return blob;
            }
            Digest actual = blob.plainDigest(resource, size); // decoded into a reused buffer, not kept
            if (!actual.equals(digest)) {
                throw ApiException.badRequest("detected chunk with wrong digest (" + digest.hex()
                        + " announced, data hashes to " + actual.hex() + ")");
            }
            return blob;
        } catch (CorruptDataException e) {
            throw ApiException.badRequest(e.getMessage());
        } catch (EncryptedDataException e) {
            throw new IllegalStateException(e); // cannot happen: checked isEncrypted() first
        }
    }
}
