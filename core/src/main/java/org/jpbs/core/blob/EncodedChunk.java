package org.jpbs.core.blob;

import java.util.Objects;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;

/**
 * A chunk ready to store or upload: its name, its encoded blob and its plaintext length
 * ({@code docs/formats.md#chunks-and-digests}). For unencrypted chunks the digest is SHA-256 of the
 * plaintext, not of the blob bytes; for encrypted ones SHA-256(plaintext ‖ id_key).
 *
 * @param digest the chunk digest (32 bytes)
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

    /**
     * Hashes and encodes {@code data[off, off+len)} as a chunk for {@code crypt}: without a key
     * as {@link #encode(byte[], int, int, boolean)}; with a key the digest is
     * SHA-256(data ‖ id_key) and the blob is compressed, then AES-256-GCM encrypted ({@code docs/formats.md#datablob}, {@code docs/formats.md#chunks-and-digests}).
     *
     * @param crypt the key, or null
     */
    public static EncodedChunk encode(byte[] data, int off, int len, boolean compress, CryptConfig crypt) {
        if (crypt == null) {
            return encode(data, off, len, compress);
        }
        Digest d = crypt.computeDigest(data, off, len);
        return new EncodedChunk(d, DataBlob.encodeEncrypted(data, off, len, compress, crypt), len);
    }

    /** The digest of a chunk's plaintext: SHA-256, or SHA-256(data ‖ id_key) with a key ({@code docs/formats.md#chunks-and-digests}). */
    public static Digest digest(byte[] data, int off, int len, CryptConfig crypt) {
        return crypt == null ? Digest.sha256(data, off, len) : crypt.computeDigest(data, off, len);
    }
}
