package org.jpbs.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.jpbs.core.FileFormats;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CryptoException;
import org.jpbs.core.errors.EncryptedDataException;
import org.junit.jupiter.api.Test;

/** Encrypted DataBlobs ({@code docs/formats.md#datablob}): 44-byte header, compress then encrypt, tag checked on decode. */
class EncryptedBlobTest {
    private static final CryptConfig KEY = CryptConfig.of(seeded(1, 32));
    private static final CryptConfig OTHER = CryptConfig.of(seeded(2, 32));

    private static byte[] seeded(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] text(int n) {
        byte[] line = "the quick brown fox jumps over the lazy dog 0123456789\n".getBytes(StandardCharsets.US_ASCII);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = line[i % line.length];
        }
        return b;
    }

    @Test
    void compressibleDataUsesTheCompressedEncryptedMagic() throws Exception {
        byte[] data = text(4 << 20);
        DataBlob b = DataBlob.encodeEncrypted(data, 0, data.length, true, KEY);
        assertEquals(FileFormats.ENCR_COMPR_BLOB_MAGIC, b.magic());
        assertEquals(44, b.headerSize());
        assertTrue(b.rawLength() < data.length / 10);
        b.verifyCrc("t");
        assertArrayEquals(data, b.decode("t", data.length, KEY));
        var e = assertThrows(EncryptedDataException.class, () -> b.decode("chunk x", -1));
        assertEquals("chunk x: encrypted, key needed", e.getMessage());
    }

    @Test
    void incompressibleDataUsesTheEncryptedMagic() throws Exception {
        for (int n : new int[] {0, 1, 15, 16, 17, 1023, 1024, 1025, 16384, 16385, 100_003, 4 << 20}) {
            byte[] data = seeded(n, n);
            DataBlob b = DataBlob.encodeEncrypted(data, 0, n, true, KEY);
            assertEquals(FileFormats.ENCRYPTED_BLOB_MAGIC, b.magic(), "n=" + n);
            assertEquals(44 + n, b.rawLength());
            assertArrayEquals(data, b.decode("t", n, KEY), "n=" + n);
            // the same data again: a fresh random IV, so different bytes
            assertNotEquals(Digest.sha256(b.raw()), Digest.sha256(DataBlob.encodeEncrypted(data, 0, n, true, KEY).raw()));
        }
    }

    @Test
    void wrongKeyOrModifiedCiphertextIsRefused() throws Exception {
        byte[] data = seeded(5, 70_000);
        DataBlob b = DataBlob.encodeEncrypted(data, 0, data.length, false, KEY);
        var e = assertThrows(CryptoException.class, () -> b.decode("chunk y", -1, OTHER));
        assertTrue(e.getMessage().startsWith("chunk y: decryption failed"), e.getMessage());
        // flip a ciphertext bit and fix the CRC: the GCM tag catches it
        byte[] raw = b.raw().clone();
        raw[1000] ^= 1;
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(raw, 44, raw.length - 44);
        int v = (int) crc.getValue();
        raw[8] = (byte) v;
        raw[9] = (byte) (v >>> 8);
        raw[10] = (byte) (v >>> 16);
        raw[11] = (byte) (v >>> 24);
        DataBlob t = DataBlob.wrap(raw, "t");
        assertThrows(CryptoException.class, () -> t.decode("t", -1, KEY));
    }

    @Test
    void chunkDigestIsSha256OfDataAndIdKey() throws Exception {
        byte[] data = text(100_000);
        EncodedChunk c = EncodedChunk.encode(data, 0, data.length, true, KEY);
        var md = Digest.newSha256();
        md.update(data);
        md.update(KEY.idKey());
        assertEquals(Digest.of(md.digest()), c.digest());
        assertNotEquals(Digest.sha256(data), c.digest());
        assertNotEquals(c.digest(), EncodedChunk.encode(data, 0, data.length, true, OTHER).digest());
        assertTrue(c.blob().isEncrypted());
        assertEquals(Digest.sha256(data), EncodedChunk.encode(data, 0, data.length, true, null).digest());
    }

    @Test
    void unencryptedBlobsDecodeWithAKeyToo() throws Exception {
        byte[] data = text(1000);
        assertArrayEquals(data, DataBlob.encode(data, 0, data.length, true).decode("t", -1, KEY));
    }
}
