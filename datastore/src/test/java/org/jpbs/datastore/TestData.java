package org.jpbs.datastore;

import java.util.Random;
import java.util.zip.CRC32;
import org.jpbs.core.FileFormats;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;

/** Seeded test data: random bytes, digests and blobs, including fake encrypted blobs. */
public final class TestData {
    private TestData() {}

    /** {@code n} pseudo-random bytes from {@code seed}. */
    public static byte[] bytes(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** A random digest from {@code seed}. */
    public static Digest digest(long seed) {
        return Digest.of(bytes(seed * 31 + 7, 32));
    }

    /** An uncompressed, unencrypted blob of {@code n} random bytes. */
    public static DataBlob plainBlob(long seed, int n) {
        byte[] d = bytes(seed, n);
        return DataBlob.encode(d, 0, d.length, false);
    }

    /**
     * A structurally valid encrypted blob (magic, CRC over the "ciphertext", random IV and tag)
     * with {@code n} bytes of random ciphertext. {@code compressed} selects the
     * encrypted+compressed magic.
     */
    public static DataBlob encryptedBlob(long seed, int n, boolean compressed) {
        byte[] raw = new byte[FileFormats.ENCRYPTED_BLOB_HEADER_SIZE + n];
        FileFormats.putMagic(raw, 0, compressed ? FileFormats.ENCR_COMPR_BLOB_MAGIC : FileFormats.ENCRYPTED_BLOB_MAGIC);
        byte[] rest = bytes(seed, 32 + n);
        System.arraycopy(rest, 0, raw, 12, rest.length);
        CRC32 crc = new CRC32();
        crc.update(raw, FileFormats.ENCRYPTED_BLOB_HEADER_SIZE, n);
        int c = (int) crc.getValue();
        raw[8] = (byte) c;
        raw[9] = (byte) (c >>> 8);
        raw[10] = (byte) (c >>> 16);
        raw[11] = (byte) (c >>> 24);
        try {
            return DataBlob.wrap(raw, "test encrypted blob");
        } catch (CorruptDataException e) {
            throw new IllegalStateException(e);
        }
    }
}
