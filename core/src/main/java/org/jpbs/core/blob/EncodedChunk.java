package org.jpbs.core.blob;

import java.util.Objects;
import org.jpbs.core.digest.Digest;

/**
 * A chunk ready to store or upload: its name, its encoded blob and its plaintext length
 * (spec {@code pbs-formats.md} §2). For unencrypted chunks the digest is SHA-256 of the
 * plaintext, not of the blob bytes.
 *
 * @param digest SHA-256 of the plaintext (32 bytes)
 * @param blob   the encoded DataBlob
 * @param size   plaintext length in bytes
 */
public record EncodedChunk(Digest digest, DataBlob blob, int size) {
    public EncodedChunk {
        Objects.requireNonNull(digest, "digest");
        Objects.requireNonNull(blob, "blob");
        if (size < 0) {
            throw new IllegalArgumentException("chunk size must not be negative: " + size);
        }
    }

    /**
     * Hashes and encodes {@code data[off, off+len)} as an unencrypted chunk.
     *
     * @param compress try zstd level 1 (kept only if strictly smaller)
     * @throws IllegalArgumentException if {@code len} exceeds the blob limit
     */
    public static EncodedChunk encode(byte[] data, int off, int len, boolean compress) {
        Digest d = Digest.sha256(data, off, len);
        return new EncodedChunk(d, DataBlob.encode(data, off, len, compress), len);
    }
}
