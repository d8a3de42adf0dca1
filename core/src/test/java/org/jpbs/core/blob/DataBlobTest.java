package org.jpbs.core.blob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdCompressCtx;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.zip.CRC32;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.EncryptedDataException;
import org.junit.jupiter.api.Test;

class DataBlobTest {
    private static final HexFormat HEX = HexFormat.of();

    private static byte[] text(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ("the quick brown fox ".charAt(i % 20));
        }
        return b;
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** A compressed blob whose zstd frame has no content size, like the real client's. */
    private static byte[] blobWithoutContentSize(byte[] data) {
        try (ZstdCompressCtx c = new ZstdCompressCtx()) {
            c.setLevel(1);
            c.setContentSize(false);
            byte[] frame = c.compress(data);
            byte[] raw = new byte[12 + frame.length];
            FileFormats.putMagic(raw, 0, FileFormats.COMPRESSED_BLOB_MAGIC);
            System.arraycopy(frame, 0, raw, 12, frame.length);
            setCrc(raw, 12);
            return raw;
        }
    }

    private static void setCrc(byte[] raw, int header) {
        CRC32 crc = new CRC32();
        crc.update(raw, header, raw.length - header);
        int v = (int) crc.getValue();
        raw[8] = (byte) v;
        raw[9] = (byte) (v >>> 8);
        raw[10] = (byte) (v >>> 16);
        raw[11] = (byte) (v >>> 24);
    }

    @Test
    void helloVector() throws Exception {
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        DataBlob b = DataBlob.encode(hello, 0, 5, false);
        assertEquals("42ab3807be8370a186a6103668656c6c6f", HEX.formatHex(b.raw()));
        assertEquals(0x3610a686, b.storedCrc());
        assertArrayEquals(hello, b.decode("hello", 5));
        // compressing 5 bytes cannot win: the uncompressed magic is kept
        assertEquals("42ab3807be8370a186a6103668656c6c6f", HEX.formatHex(DataBlob.encode(hello, 0, 5, true).raw()));
    }

    @Test
    void compressibleDataIsCompressedAndRoundTrips() throws Exception {
        byte[] data = text(1 << 20);
        DataBlob b = DataBlob.encode(data, 0, data.length, true);
        assertTrue(b.isCompressed());
        assertFalse(b.isEncrypted());
        assertEquals(FileFormats.COMPRESSED_BLOB_MAGIC, b.magic());
        assertTrue(b.rawLength() < data.length / 10);
        assertArrayEquals(data, b.decode("t", data.length));
        assertArrayEquals(data, b.decode("t", -1));
        DataBlob wrapped = DataBlob.wrap(b.raw().clone(), "t");
        assertArrayEquals(data, wrapped.decode("t", -1));
    }

    @Test
    void incompressibleDataStaysUncompressed() throws Exception {
        byte[] data = random(100_000, 1);
        DataBlob b = DataBlob.encode(data, 0, data.length, true);
        assertFalse(b.isCompressed());
        assertEquals(12 + data.length, b.rawLength());
        assertArrayEquals(data, b.decode("r", -1));
    }

    @Test
    void encodesASliceOfTheArray() throws Exception {
        byte[] data = text(5000);
        DataBlob b = DataBlob.encode(data, 100, 3000, true);
        assertArrayEquals(Arrays.copyOfRange(data, 100, 3100), b.decode("s", 3000));
        DataBlob e = DataBlob.encode(data, 0, 0, true);
        assertEquals(0, e.decode("e", 0).length);
    }

    @Test
    void decodesFramesWithoutContentSize() throws Exception {
        for (int n : new int[] {1, 1000, 300_000, 4 << 20}) {
            byte[] data = text(n);
            DataBlob b = DataBlob.wrap(blobWithoutContentSize(data), "nocs");
            assertArrayEquals(data, b.decode("nocs", -1), "n=" + n);
            assertArrayEquals(data, b.decode("nocs", n), "n=" + n);
        }
        byte[] z = new byte[4 << 20];
        assertArrayEquals(z, DataBlob.wrap(blobWithoutContentSize(z), "zeros").decode("zeros", -1));
    }

    @Test
    void wrongExpectedSizeIsCorrupt() throws Exception {
        byte[] data = text(10_000);
        DataBlob c = DataBlob.encode(data, 0, data.length, true);
        var e1 = assertThrows(CorruptDataException.class, () -> c.decode("chunk-x", 9_999));
        assertTrue(e1.getMessage().startsWith("chunk-x: "), e1.getMessage());
        assertThrows(CorruptDataException.class, () -> c.decode("chunk-x", 10_001));
        DataBlob n = DataBlob.wrap(blobWithoutContentSize(data), "n");
        assertThrows(CorruptDataException.class, () -> n.decode("n", 5_000));
        assertThrows(CorruptDataException.class, () -> n.decode("n", 20_000));
        DataBlob u = DataBlob.encode(data, 0, 10, false);
        assertThrows(CorruptDataException.class, () -> u.decode("u", 11));
    }

    @Test
    void bitFlipFailsTheCrc() throws Exception {
        byte[] data = text(50_000);
        for (boolean compress : new boolean[] {true, false}) {
            byte[] raw = DataBlob.encode(data, 0, data.length, compress).raw().clone();
            raw[raw.length / 2] ^= 0x10;
            DataBlob b = DataBlob.wrap(raw, "flip.blob");
            assertEquals(b.storedCrc() == b.computeCrc(), false);
            var e = assertThrows(CorruptDataException.class, () -> b.decode("flip.blob", -1));
            assertTrue(e.getMessage().contains("flip.blob") && e.getMessage().contains("CRC"), e.getMessage());
            assertThrows(CorruptDataException.class, () -> b.verifyCrc("flip.blob"));
        }
    }

    @Test
    void truncatedBlobs() throws Exception {
        assertThrows(CorruptDataException.class, () -> DataBlob.wrap(new byte[11], "short"));
        byte[] data = text(50_000);
        byte[] raw = DataBlob.encode(data, 0, data.length, true).raw();
        // truncated frame with a CRC recomputed over what is left: zstd must fail, not hang
        byte[] cut = Arrays.copyOf(raw, raw.length - 7);
        setCrc(cut, 12);
        var e = assertThrows(CorruptDataException.class, () -> DataBlob.wrap(cut, "cut").decode("cut", -1));
        assertTrue(e.getMessage().startsWith("cut: "), e.getMessage());
        byte[] cut2 = Arrays.copyOf(blobWithoutContentSize(data), 200);
        setCrc(cut2, 12);
        assertThrows(CorruptDataException.class, () -> DataBlob.wrap(cut2, "cut2").decode("cut2", -1));
        // truncated without CRC fix: the CRC catches it
        assertThrows(CorruptDataException.class, () -> DataBlob.wrap(Arrays.copyOf(raw, 30), "t").decode("t", -1));
    }

    @Test
    void garbageFrameIsCorrupt() throws Exception {
        byte[] raw = new byte[12 + 64];
        FileFormats.putMagic(raw, 0, FileFormats.COMPRESSED_BLOB_MAGIC);
        Arrays.fill(raw, 12, raw.length, (byte) 0x5a);
        setCrc(raw, 12);
        assertThrows(CorruptDataException.class, () -> DataBlob.wrap(raw, "g").decode("g", -1));
        assertThrows(CorruptDataException.class, () -> DataBlob.wrap(raw, "g").decode("g", 100));
    }

    @Test
    void unknownMagic() {
        byte[] raw = DataBlob.encode(text(100), 0, 100, false).raw().clone();
        raw[0] ^= 1;
        var e = assertThrows(CorruptDataException.class, () -> DataBlob.wrap(raw, "bad-magic"));
        assertTrue(e.getMessage().contains("bad-magic") && e.getMessage().contains("magic"), e.getMessage());
        assertEquals(0, e.offset());
    }

    @Test
    void encryptedMagicsNeedAKey() throws Exception {
        for (long magic : new long[] {FileFormats.ENCRYPTED_BLOB_MAGIC, FileFormats.ENCR_COMPR_BLOB_MAGIC}) {
            byte[] raw = random(44 + 500, magic);
            FileFormats.putMagic(raw, 0, magic);
            setCrc(raw, 44);
            DataBlob b = DataBlob.wrap(raw, "enc");
            assertTrue(b.isEncrypted());
            assertEquals(44, b.headerSize());
            b.verifyCrc("enc");
            var e = assertThrows(EncryptedDataException.class, () -> b.decode("chunk 1234", -1));
            assertEquals("chunk 1234: encrypted, key needed", e.getMessage());
        }
        byte[] tooShort = new byte[30];
        FileFormats.putMagic(tooShort, 0, FileFormats.ENCRYPTED_BLOB_MAGIC);
        assertThrows(CorruptDataException.class, () -> DataBlob.wrap(tooShort, "short-enc"));
    }

    @Test
    void tooLargeInputIsRejected() {
        byte[] small = new byte[1];
        assertThrows(IllegalArgumentException.class,
                () -> DataBlob.encode(small, 0, FileFormats.MAX_BLOB_SIZE + 1, false));
    }

    @Test
    void encodedChunkDigestIsOfThePlaintext() throws Exception {
        byte[] data = text(70_000);
        EncodedChunk c = EncodedChunk.encode(data, 0, data.length, true);
        assertEquals(Digest.sha256(data), c.digest());
        assertEquals(70_000, c.size());
        assertArrayEquals(data, c.blob().decode("c", c.size()));
    }

    @Test
    void encodeIsThreadSafe() throws Exception {
        Thread[] ts = new Thread[8];
        Throwable[] err = new Throwable[1];
        for (int t = 0; t < ts.length; t++) {
            final int seed = t;
            ts[t] = new Thread(() -> {
                try {
                    for (int i = 0; i < 20; i++) {
                        byte[] d = text(10_000 + seed * 100 + i);
                        DataBlob b = DataBlob.encode(d, 0, d.length, true);
                        if (!Arrays.equals(d, b.decode("t", -1))) {
                            throw new AssertionError("mismatch");
                        }
                    }
                } catch (Throwable e) {
                    err[0] = e;
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        assertEquals(null, err[0]);
    }

    /** A zstd frame without content size made of {@code blocks} RLE blocks of 128 KiB each. */
    private static byte[] rleBomb(int blocks) {
        byte[] raw = new byte[12 + 6 + blocks * 4];
        FileFormats.putMagic(raw, 0, FileFormats.COMPRESSED_BLOB_MAGIC);
        int p = 12;
        raw[p++] = 0x28;
        raw[p++] = (byte) 0xb5;
        raw[p++] = 0x2f;
        raw[p++] = (byte) 0xfd;
        raw[p++] = 0x00; // no content size, not single segment, no checksum
        raw[p++] = 0x38; // window 128 KiB
        for (int i = 0; i < blocks; i++) {
            int hdr = (128 * 1024) << 3 | 1 << 1 | (i == blocks - 1 ? 1 : 0);
            raw[p++] = (byte) hdr;
            raw[p++] = (byte) (hdr >>> 8);
            raw[p++] = (byte) (hdr >>> 16);
            raw[p++] = 7;
        }
        setCrc(raw, 12);
        return raw;
    }

    @Test
    void decodingIsBounded() throws Exception {
        DataBlob small = DataBlob.wrap(rleBomb(3), "rle");
        byte[] out = small.decode("rle", -1);
        assertEquals(3 * 128 * 1024, out.length);
        assertEquals(7, out[out.length - 1]);
        // more than MAX_BLOB_SIZE of output from 4 KiB of input: refused, not allocated without end
        DataBlob bomb = DataBlob.wrap(rleBomb(1100), "bomb");
        var e = assertThrows(CorruptDataException.class, () -> bomb.decode("bomb", -1));
        assertTrue(e.getMessage().startsWith("bomb: ") && e.getMessage().contains("limit"), e.getMessage());
        assertThrows(CorruptDataException.class, () -> bomb.decode("bomb", 1000));
        assertThrows(CorruptDataException.class, () -> bomb.decode("bomb", FileFormats.MAX_BLOB_SIZE + 1));
    }

    @Test
    void plainDigestHashesThePlaintextWithoutKeepingIt() throws Exception {
        byte[] data = text(4 << 20);
        byte[] rnd = random(100_000, 7);
        Digest want = Digest.sha256(data);
        // compressed (with and without a frame content size), uncompressed; twice, so the reused buffer is exercised
        for (int round = 0; round < 2; round++) {
            assertEquals(want, DataBlob.encode(data, 0, data.length, true).plainDigest("c", data.length));
            assertEquals(want, DataBlob.wrap(blobWithoutContentSize(data), "n").plainDigest("n", data.length));
            assertEquals(Digest.sha256(rnd), DataBlob.encode(rnd, 0, rnd.length, false).plainDigest("u", rnd.length));
            byte[] small = text(1000);
            assertEquals(Digest.sha256(small), DataBlob.encode(small, 0, small.length, true).plainDigest("s", 1000));
        }
    }

    @Test
    void plainDigestRejectsWrongSizesCorruptionAndEncryption() throws Exception {
        byte[] data = text(1 << 20);
        DataBlob z = DataBlob.encode(data, 0, data.length, true);
        CorruptDataException shorter = assertThrows(CorruptDataException.class, () -> z.plainDigest("chunk x", data.length - 1));
        assertTrue(shorter.getMessage().startsWith("chunk x: "), shorter.getMessage());
        CorruptDataException longer = assertThrows(CorruptDataException.class, () -> z.plainDigest("chunk x", data.length + 1));
        assertTrue(longer.getMessage().contains("differs from expected"), longer.getMessage());
        DataBlob u = DataBlob.encode(random(1000, 3), 0, 1000, false);
        assertThrows(CorruptDataException.class, () -> u.plainDigest("u", 999));
        byte[] bad = z.raw().clone();
        bad[bad.length - 1] ^= 1;
        assertThrows(CorruptDataException.class, () -> DataBlob.wrap(bad, "bad").plainDigest("bad", data.length));
        byte[] whole = DataBlob.encode(text(5000), 0, 5000, true).raw();
        byte[] frame = Arrays.copyOf(whole, whole.length - 3); // a truncated zstd frame with a matching CRC
        setCrc(frame, 12);
        DataBlob broken = DataBlob.wrap(frame, "broken");
        assertThrows(CorruptDataException.class, () -> broken.plainDigest("broken", 5000));
        var crypt = org.jpbs.core.crypto.CryptConfig.of(new byte[32]);
        DataBlob enc = DataBlob.encodeEncrypted(data, 0, data.length, true, crypt);
        assertThrows(EncryptedDataException.class, () -> enc.plainDigest("e", data.length));
    }
}
