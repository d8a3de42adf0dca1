package org.jpbs.core.blob;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.jpbs.core.FileFormats;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CryptoException;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.EncryptedDataException;

/**
 * An immutable wrapper of the raw bytes of a DataBlob ({@code docs/formats.md#datablob}): a
 * {@code *.blob} file or a chunk file. Layout: magic (8 bytes), CRC32 of everything after the
 * header (u32 LE at offset 8), then the payload; the header is 12 bytes for unencrypted blobs
 * and 44 bytes (plus IV 16 and GCM tag 16) for encrypted ones. The payload is the data itself
 * or one zstd frame.
 *
 * <p>The raw array is shared, not copied: callers must not modify what {@link #raw()} returns
 * or the array given to {@link #wrap}.
 */
public final class DataBlob {
    private static final ThreadLocal<ZstdCompressCtx> COMPRESS = ThreadLocal.withInitial(() -> {
        ZstdCompressCtx c = new ZstdCompressCtx();
        c.setLevel(1);
        c.setContentSize(true);
        return c;
    });
    /** Per-thread work buffer, reused so a chunk costs no fresh zeroed 4 MiB array. */
    private static final ThreadLocal<byte[][]> SCRATCH = ThreadLocal.withInitial(() -> new byte[1][]);
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
    private static final ThreadLocal<ZstdDecompressCtx> DECOMPRESS = ThreadLocal.withInitial(ZstdDecompressCtx::new);

    private final byte[] raw;
    private final long magic;

    private DataBlob(byte[] raw, long magic) {
        this.raw = raw;
        this.magic = magic;
    }

    /**
     * Encodes {@code data[off, off+len)} as an unencrypted blob. With {@code compress}, the data
     * is compressed with zstd level 1 and the compressed form is kept only if it is strictly
     * smaller than the data; otherwise the uncompressed magic is used.
     *
     * @throws IllegalArgumentException if {@code len} exceeds {@link FileFormats#MAX_BLOB_SIZE} (128 MiB)
     */
    public static DataBlob encode(byte[] data, int off, int len, boolean compress) {
        checkLength(data, off, len);
        int h = FileFormats.BLOB_HEADER_SIZE;
        if (compress) {
            byte[] scratch = scratch(h + len);
            int n = compressInto(data, off, len, scratch, h);
            if (n > 0) {
                byte[] raw = Arrays.copyOf(scratch, h + n);
                return finish(raw, FileFormats.COMPRESSED_BLOB_MAGIC);
            }
        }
        byte[] out = new byte[h + len];
        System.arraycopy(data, off, out, h, len);
        return finish(out, FileFormats.UNCOMPRESSED_BLOB_MAGIC);
    }

    /**
     * Encodes {@code data[off, off+len)} as an encrypted blob ({@code docs/formats.md#datablob}): compressed first (zstd
     * level 1, kept only if strictly shorter than the data), then AES-256-GCM with a random
     * 16-byte IV; header = magic, CRC32 of the ciphertext, IV, tag (44 bytes).
     *
     * @param crypt the key
     * @throws IllegalArgumentException if {@code len} exceeds {@link FileFormats#MAX_BLOB_SIZE} (128 MiB)
     */
    public static DataBlob encodeEncrypted(byte[] data, int off, int len, boolean compress, CryptConfig crypt) {
        checkLength(data, off, len);
        java.util.Objects.requireNonNull(crypt, "crypt");
        int h = FileFormats.ENCRYPTED_BLOB_HEADER_SIZE;
        byte[] src = data;
        int srcOff = off;
        int n = len;
        long magic = FileFormats.ENCRYPTED_BLOB_MAGIC;
        if (compress) {
            byte[] scratch = scratch(len);
            int c = compressInto(data, off, len, scratch, 0);
            if (c > 0) {
                src = scratch;
                srcOff = 0;
                n = c;
                magic = FileFormats.ENCR_COMPR_BLOB_MAGIC;
            }
        }
        byte[] raw = new byte[h + n];
        byte[] iv = new byte[CryptConfig.IV_LENGTH];
        RANDOM.nextBytes(iv);
        System.arraycopy(iv, 0, raw, 12, CryptConfig.IV_LENGTH);
        crypt.encrypt(iv, src, srcOff, n, raw, h, raw, 28);
        FileFormats.putMagic(raw, 0, magic);
        putIntLe(raw, 8, crc(raw, h));
        return new DataBlob(raw, magic);
    }

    /**
     * Encodes as {@link #encodeEncrypted} if {@code crypt} is given, else as {@link #encode}.
     *
     * @param crypt the key, or null for an unencrypted blob
     */
    public static DataBlob encode(byte[] data, int off, int len, boolean compress, CryptConfig crypt) {
        return crypt == null ? encode(data, off, len, compress) : encodeEncrypted(data, off, len, compress, crypt);
    }

    private static void checkLength(byte[] data, int off, int len) {
        if (len < 0 || len > FileFormats.MAX_BLOB_SIZE) {
            throw new IllegalArgumentException("blob data length " + len + " is out of range (max "
                    + FileFormats.MAX_BLOB_SIZE + " bytes)");
        }
        java.util.Objects.checkFromIndexSize(off, len, data.length);
    }

    /** The per-thread work buffer (compression output, {@link #plainDigest} plaintext), grown to at least {@code size} bytes. */
    private static byte[] scratch(int size) {
        byte[][] holder = SCRATCH.get();
        byte[] scratch = holder[0];
        if (scratch == null || scratch.length < size) {
            scratch = new byte[size];
            holder[0] = scratch;
        }
        return scratch;
    }

    /**
     * zstd level 1 of {@code data[off, off+len)} into {@code dst[dstOff..]}; returns the frame
     * length if it is strictly shorter than {@code len}, else -1.
     */
    private static int compressInto(byte[] data, int off, int len, byte[] dst, int dstOff) {
        if (len <= 16) {
            return -1;
        }
        try {
            // a destination one byte short of the data: zstd fails when the frame is not smaller
            int n = COMPRESS.get().compressByteArray(dst, dstOff, len - 1, data, off, len);
            return n > 0 && n < len ? n : -1;
        } catch (ZstdException e) {
            return -1; // did not fit: store uncompressed
        }
    }

    private static DataBlob finish(byte[] raw, long magic) {
        FileFormats.putMagic(raw, 0, magic);
        int crc = crc(raw, FileFormats.BLOB_HEADER_SIZE);
        putIntLe(raw, 8, crc);
        return new DataBlob(raw, magic);
    }

    /**
     * Wraps raw blob bytes read from a file or the network. Checks that the magic is one of the
     * four blob magics and that the array holds at least the header; does not check the CRC.
     *
     * @param raw      the whole blob (not copied)
     * @param resource file name or description, for error messages
     * @throws CorruptDataException if the bytes are too short or the magic is unknown
     */
    public static DataBlob wrap(byte[] raw, String resource) throws CorruptDataException {
        if (raw.length < FileFormats.BLOB_HEADER_SIZE) {
            throw new CorruptDataException(resource, raw.length,
                    "blob too short (" + raw.length + " bytes, header needs " + FileFormats.BLOB_HEADER_SIZE + ")");
        }
        long magic = FileFormats.magicAt(raw, 0);
        int header = headerSize(magic);
        if (header < 0) {
            throw new org.jpbs.core.errors.UnsupportedFormatException(resource, magic,
                    "unknown blob magic " + String.format("%016x", magic));
        }
        if (raw.length < header) {
            throw new CorruptDataException(resource, raw.length,
                    "encrypted blob too short (" + raw.length + " bytes, header needs " + header + ")");
        }
        return new DataBlob(raw, magic);
    }

    private static int headerSize(long magic) {
        if (magic == FileFormats.UNCOMPRESSED_BLOB_MAGIC || magic == FileFormats.COMPRESSED_BLOB_MAGIC) {
            return FileFormats.BLOB_HEADER_SIZE;
        }
        if (magic == FileFormats.ENCRYPTED_BLOB_MAGIC || magic == FileFormats.ENCR_COMPR_BLOB_MAGIC) {
            return FileFormats.ENCRYPTED_BLOB_HEADER_SIZE;
        }
        return -1;
    }

    /** The raw blob bytes (shared array: do not modify). */
    public byte[] raw() {
        return raw;
    }

    /** Length of the raw blob in bytes (header included). */
    public int rawLength() {
        return raw.length;
    }

    /** The magic as a big-endian long (compare with the {@link FileFormats} constants). */
    public long magic() {
        return magic;
    }

    /** True for the two encrypted magics (44-byte header). */
    public boolean isEncrypted() {
        return magic == FileFormats.ENCRYPTED_BLOB_MAGIC || magic == FileFormats.ENCR_COMPR_BLOB_MAGIC;
    }

    /** True for the two zstd-compressed magics. */
    public boolean isCompressed() {
        return magic == FileFormats.COMPRESSED_BLOB_MAGIC || magic == FileFormats.ENCR_COMPR_BLOB_MAGIC;
    }

    /** Header length in bytes: 12, or 44 for encrypted blobs. */
    public int headerSize() {
        return headerSize(magic);
    }

    /** The CRC32 stored at offset 8 (u32 LE, returned as the int bit pattern). */
    public int storedCrc() {
        return (raw[8] & 0xff) | (raw[9] & 0xff) << 8 | (raw[10] & 0xff) << 16 | (raw[11] & 0xff) << 24;
    }

    /** CRC32 (IEEE) of the bytes after the header, as the int bit pattern. */
    public int computeCrc() {
        return crc(raw, headerSize());
    }

    /**
     * Checks the stored CRC against the computed one.
     *
     * @throws CorruptDataException naming {@code resource} on mismatch
     */
    public void verifyCrc(String resource) throws CorruptDataException {
        int stored = storedCrc();
        int computed = computeCrc();
        if (stored != computed) {
            throw new CorruptDataException(resource, 8, String.format(
                    "blob CRC mismatch (stored %08x, computed %08x)", stored, computed));
        }
    }

    /**
     * Verifies the CRC and returns the plaintext.
     *
     * @param resource     file name or description, for error messages
     * @param expectedSize the plaintext length in bytes if known (then a different length is an
     *                     error), or -1 if unknown (zstd frames from the real client carry no
     *                     content size; decoding then streams, bounded by {@link FileFormats#MAX_BLOB_SIZE})
     * @return the decoded data (a new array)
     * @throws CorruptDataException   on CRC mismatch, an invalid zstd frame, or a wrong length
     * @throws EncryptedDataException if the blob is encrypted ("encrypted, key needed")
     */
    public byte[] decode(String resource, int expectedSize) throws CorruptDataException, EncryptedDataException {
        try {
            return decode(resource, expectedSize, null);
        } catch (CryptoException e) {
            throw new IllegalStateException(e); // cannot happen without a key
        }
    }

    /**
     * Verifies the CRC and returns the plaintext, decrypting (AES-256-GCM, tag checked) and then
     * decompressing an encrypted blob with {@code crypt}.
     *
     * @param resource     file name or description, for error messages
     * @param expectedSize the plaintext length in bytes if known, or -1
     * @param crypt        the key, or null (then an encrypted blob is an {@link EncryptedDataException})
     * @return the decoded data (a new array)
     * @throws CorruptDataException   on CRC mismatch, an invalid zstd frame, or a wrong length
     * @throws EncryptedDataException if the blob is encrypted and {@code crypt} is null
     * @throws CryptoException        if the GCM tag does not verify with {@code crypt} (wrong key or tampered data)
     */
    public byte[] decode(String resource, int expectedSize, CryptConfig crypt)
            throws CorruptDataException, EncryptedDataException, CryptoException {
        verifyCrc(resource);
        byte[] out;
        if (isEncrypted()) {
            if (crypt == null) {
                throw new EncryptedDataException(resource);
            }
            int h = FileFormats.ENCRYPTED_BLOB_HEADER_SIZE;
            byte[] iv = Arrays.copyOfRange(raw, 12, 28);
            byte[] tag = Arrays.copyOfRange(raw, 28, 44);
            byte[] plain;
            try {
                plain = crypt.decrypt(iv, tag, raw, h, raw.length - h);
            } catch (javax.crypto.AEADBadTagException e) {
                throw new CryptoException(resource + ": decryption failed (wrong key " + crypt.fingerprint().shortForm()
                        + "..., or the data was modified)", e);
            }
            out = isCompressed() ? decompress(plain, 0, plain.length, expectedSize, resource) : plain;
        } else {
            int h = FileFormats.BLOB_HEADER_SIZE;
            if (!isCompressed()) {
                out = Arrays.copyOfRange(raw, h, raw.length);
            } else {
                out = decompress(raw, h, raw.length - h, expectedSize, resource);
            }
        }
        if (expectedSize >= 0 && out.length != expectedSize) {
            throw new CorruptDataException(resource, -1,
                    "decoded size " + out.length + " differs from expected " + expectedSize);
        }
        return out;
    }

    /**
     * Verifies the CRC of an unencrypted blob and returns the SHA-256 of its plaintext, which must
     * be {@code expectedSize} bytes: what a server checks of an uploaded chunk
     * ({@code docs/protocol.md#chunk-upload-and-known-chunks}). Unlike {@link #decode} it keeps
     * no plaintext: a compressed payload is decompressed into a per-thread buffer reused from call
     * to call (no fresh zeroed array per chunk), an uncompressed one is hashed where it is.
     *
     * @throws CorruptDataException   on CRC mismatch, an invalid zstd frame, or a wrong length
     * @throws EncryptedDataException if the blob is encrypted (its plaintext cannot be hashed)
     */
    public Digest plainDigest(String resource, int expectedSize) throws CorruptDataException, EncryptedDataException {
        if (isEncrypted()) {
            throw new EncryptedDataException(resource);
        }
        if (expectedSize < 0 || expectedSize > FileFormats.MAX_BLOB_SIZE) {
            throw new IllegalArgumentException("expected size " + expectedSize + " out of range");
        }
        verifyCrc(resource);
        int h = FileFormats.BLOB_HEADER_SIZE;
        if (!isCompressed()) {
            if (raw.length - h != expectedSize) {
                throw new CorruptDataException(resource, -1,
                        "decoded size " + (raw.length - h) + " differs from expected " + expectedSize);
            }
            return Digest.sha256(raw, h, expectedSize);
        }
        byte[] out = scratch(expectedSize);
        int n;
        try {
            ZstdDecompressCtx ctx = DECOMPRESS.get();
            ctx.reset();
            n = ctx.decompressByteArray(out, 0, expectedSize, raw, h, raw.length - h);
        } catch (ZstdException e) {
            throw new CorruptDataException(resource, h,
                    "zstd decoding failed (expected " + expectedSize + " bytes): " + e.getMessage(), e);
        }
        if (n != expectedSize) {
            throw new CorruptDataException(resource, -1, "decoded size " + n + " differs from expected " + expectedSize);
        }
        return Digest.sha256(out, 0, n);
    }

    /**
     * Decompresses one or more zstd frames at {@code src[off, off+len)}, producing at most
     * {@code MAX_BLOB_SIZE} bytes.
     */
    static byte[] decompress(byte[] src, int off, int len, int expectedSize, String resource)
            throws CorruptDataException {
        int max = FileFormats.MAX_BLOB_SIZE;
        if (expectedSize > max) {
            throw new CorruptDataException(resource, -1, "expected size " + expectedSize + " exceeds the blob limit");
        }
        ZstdDecompressCtx ctx = DECOMPRESS.get();
        int known = expectedSize;
        if (known < 0) {
            long fcs;
            try {
                fcs = Zstd.getFrameContentSize(src, off, len);
            } catch (RuntimeException e) {
                fcs = -1;
            }
            // only trust the frame's content size if the frame holds all the data (single frame)
            if (fcs >= 0 && fcs <= max) {
                known = (int) fcs;
            }
        }
        if (known >= 0) {
            byte[] out = new byte[known];
            int n;
            try {
                ctx.reset();
                n = ctx.decompressByteArray(out, 0, known, src, off, len);
            } catch (ZstdException e) {
                if (expectedSize < 0) {
                    return stream(ctx, src, off, len, resource); // content size lied or several frames
                }
                throw new CorruptDataException(resource, FileFormats.BLOB_HEADER_SIZE,
                        "zstd decoding failed (expected " + known + " bytes): " + e.getMessage(), e);
            }
            if (n != known) {
                if (expectedSize < 0) {
                    return Arrays.copyOf(out, n);
                }
                throw new CorruptDataException(resource, -1,
                        "decoded size " + n + " differs from expected " + expectedSize);
            }
            return out;
        }
        return stream(ctx, src, off, len, resource);
    }

    private static byte[] stream(ZstdDecompressCtx ctx, byte[] src, int off, int len, String resource)
            throws CorruptDataException {
        int max = FileFormats.MAX_BLOB_SIZE;
        ctx.reset();
        // zstd-jni's streaming API works on direct buffers (1.5.7-17: no heap variant); this path
        // only runs for frames without a content size or several frames, so the copies do not matter
        ByteBuffer in = ByteBuffer.allocateDirect(Math.max(1, len));
        in.put(src, off, len).flip();
        int cap = (int) Math.min(max, Math.max(64L * 1024, 4L * len));
        ByteBuffer out = ByteBuffer.allocateDirect(cap);
        try {
            while (true) {
                boolean done = ctx.decompressDirectByteBufferStream(out, in);
                if (done && !in.hasRemaining()) {
                    break;
                }
                if (!out.hasRemaining()) {
                    if (out.capacity() >= max) {
                        throw new CorruptDataException(resource, FileFormats.BLOB_HEADER_SIZE,
                                "decoded data exceeds the blob limit of " + max + " bytes");
                    }
                    int next = (int) Math.min(max, out.capacity() * 2L);
                    ByteBuffer bigger = ByteBuffer.allocateDirect(next);
                    out.flip();
                    bigger.put(out);
                    out = bigger;
                } else if (!in.hasRemaining() && !done) {
                    throw new CorruptDataException(resource, FileFormats.BLOB_HEADER_SIZE + len,
                            "zstd frame is truncated");
                } else if (done && in.hasRemaining()) {
                    ctx.reset(); // another frame follows
                }
            }
        } catch (ZstdException e) {
            throw new CorruptDataException(resource, FileFormats.BLOB_HEADER_SIZE,
                    "zstd decoding failed: " + e.getMessage(), e);
        }
        byte[] result = new byte[out.position()];
        out.flip().get(result);
        return result;
    }

    private static int crc(byte[] raw, int from) {
        CRC32 c = new CRC32();
        c.update(raw, from, raw.length - from);
        return (int) c.getValue();
    }

    private static void putIntLe(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }

    @Override
    public String toString() {
        return "DataBlob[" + (isEncrypted() ? "encrypted " : "") + (isCompressed() ? "zstd " : "")
                + raw.length + " bytes]";
    }
}
