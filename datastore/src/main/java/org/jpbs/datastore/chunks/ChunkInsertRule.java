package org.jpbs.datastore.chunks;

import java.io.IOException;
import org.jpbs.core.FileFormats;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;

/**
 * The chunk insert rule of {@code docs/formats.md} ("Chunk insert rule"), shared by every
 * {@link ChunkStore} implementation: what an existing copy is, as far as a server without the
 * key can tell ({@link #classify}), and whether an incoming blob replaces it ({@link #keep}).
 * Pure: no I/O, no locking (the store decides under its own per-digest exclusion).
 */
public final class ChunkInsertRule {
    private ChunkInsertRule() {}

    /** What an existing chunk copy is. */
    public enum Existing { ABSENT, EMPTY, DAMAGED, PLAIN, ENCRYPTED }

    /**
     * An existing copy.
     *
     * @param kind  its classification
     * @param size  its length in bytes (0 if absent or empty)
     * @param magic its blob magic (0 unless plain or encrypted)
     */
    public record Found(Existing kind, long size, long magic) {
        /** Nothing stored under the digest. */
        public static final Found ABSENT = new Found(Existing.ABSENT, 0, 0);
    }

    /**
     * Classifies the stored bytes of a chunk.
     *
     * @param raw      the stored bytes, or null if there is no copy
     * @param resource names the copy in messages
     */
    public static Found classify(byte[] raw, String resource) {
        if (raw == null) {
            return Found.ABSENT;
        }
        if (raw.length == 0) {
            return new Found(Existing.EMPTY, 0, 0);
        }
        try {
            DataBlob old = DataBlob.wrap(raw, resource);
            old.verifyCrc(resource);
            return new Found(old.isEncrypted() ? Existing.ENCRYPTED : Existing.PLAIN, raw.length, old.magic());
        } catch (CorruptDataException e) {
            return new Found(Existing.DAMAGED, raw.length, 0);
        }
    }

    /**
     * Decides whether the existing copy stays.
     * <ul>
     * <li>incoming unencrypted (its digest verified by the caller): an existing plain copy of the
     *     same or smaller size is kept, a bigger one is replaced; an existing empty, damaged or
     *     <em>encrypted</em> copy is replaced (chunk poisoning);</li>
     * <li>incoming encrypted (its digest cannot be checked): an existing empty or damaged copy is
     *     replaced; an existing plain copy is never replaced and the insert is refused; both
     *     encrypted-uncompressed of different sizes: refused; otherwise the encrypted copy is kept.</li>
     * </ul>
     *
     * @return true if the existing copy is kept (the store marks it used), false if the blob must be written
     * @throws IOException on an encrypted/unencrypted conflict (message names the chunk)
     */
    public static boolean keep(Digest digest, Found old, DataBlob blob) throws IOException {
        long incoming = blob.rawLength();
        return switch (old.kind()) {
            case ABSENT, EMPTY, DAMAGED -> false; // nothing usable there: write
            case PLAIN -> {
                if (blob.isEncrypted()) {
                    throw new IOException("chunk " + digest.hex()
                            + ": refusing to overwrite an existing unencrypted chunk with an encrypted one");
                }
                yield old.size() <= incoming; // keep the smaller copy
            }
            case ENCRYPTED -> {
                if (!blob.isEncrypted()) {
                    yield false; // verified plain data replaces an unverifiable encrypted copy
                }
                if (old.size() != incoming && old.magic() == FileFormats.ENCRYPTED_BLOB_MAGIC
                        && blob.magic() == FileFormats.ENCRYPTED_BLOB_MAGIC) {
                    throw new IOException("chunk " + digest.hex() + ": refusing to overwrite an existing encrypted chunk"
                            + " with one of a different size (" + old.size() + " != " + incoming + " bytes)");
                }
                yield true;
            }
        };
    }

    /**
     * Refuses a blob that cannot be a chunk.
     *
     * @throws CorruptDataException if its magic is unknown or it is shorter than its header
     */
    public static void checkBlob(Digest digest, DataBlob blob) throws CorruptDataException {
        long m = blob.magic();
        int header;
        if (m == FileFormats.UNCOMPRESSED_BLOB_MAGIC || m == FileFormats.COMPRESSED_BLOB_MAGIC) {
            header = FileFormats.BLOB_HEADER_SIZE;
        } else if (m == FileFormats.ENCRYPTED_BLOB_MAGIC || m == FileFormats.ENCR_COMPR_BLOB_MAGIC) {
            header = FileFormats.ENCRYPTED_BLOB_HEADER_SIZE;
        } else {
            throw new org.jpbs.core.errors.UnsupportedFormatException("chunk " + digest.hex(), m,
                    "unknown blob magic " + String.format("%016x", m));
        }
        if (blob.rawLength() < header) {
            throw new CorruptDataException("chunk " + digest.hex(), blob.rawLength(), "blob shorter than its header");
        }
    }
}
