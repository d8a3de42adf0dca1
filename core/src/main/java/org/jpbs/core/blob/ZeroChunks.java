package org.jpbs.core.blob;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;

/**
 * All-zero chunks ({@code docs/formats.md#chunks-and-digests}): a fixed index stores an empty region as an
 * ordinary chunk whose digest is SHA-256 of {@code size} zero bytes. Digests and compressed
 * blobs are computed once per size and cached.
 */
public final class ZeroChunks {
    private ZeroChunks() {}

    /** Digest of 4 MiB (4,194,304) zero bytes: {@code bb9f8df6…3af8}. */
    public static final Digest ZERO_4M =
            Digest.parse("bb9f8df61474d25e71fa00722318cd387396ca1736605e1248821cc0de3d3af8");

    private static final int SLICE = 64 * 1024;
    private static final byte[] ZEROS = new byte[SLICE];
    private static final ConcurrentHashMap<Integer, Digest> DIGESTS = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Integer, DataBlob> BLOBS = new ConcurrentHashMap<>();

    static {
        DIGESTS.put(FileFormats.DEFAULT_FIXED_CHUNK_SIZE, ZERO_4M);
    }

    /**
     * SHA-256 of {@code size} zero bytes (cached).
     *
     * @param size length in bytes, 0..{@link FileFormats#MAX_BLOB_SIZE}
     */
    public static Digest digest(int size) {
        checkSize(size);
        return DIGESTS.computeIfAbsent(size, s -> Digest.sha256(new byte[s]));
    }

    /** The zstd-compressed, unencrypted blob of {@code size} zero bytes (cached; share, do not modify). */
    public static DataBlob blob(int size) {
        checkSize(size);
        return BLOBS.computeIfAbsent(size, s -> DataBlob.encode(new byte[s], 0, s, true));
    }

    /** The encoded zero chunk of {@code size} bytes: digest, compressed blob and size. */
    public static EncodedChunk chunk(int size) {
        return new EncodedChunk(digest(size), blob(size), size);
    }

    /** True if {@code b[off, off+len)} holds only zero bytes (vectorised comparison). */
    public static boolean isZero(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        int end = off + len;
        int p = off;
        while (p < end) {
            int n = Math.min(SLICE, end - p);
            if (Arrays.mismatch(b, p, p + n, ZEROS, 0, n) >= 0) {
                return false;
            }
            p += n;
        }
        return true;
    }

    private static void checkSize(int size) {
        if (size < 0 || size > FileFormats.MAX_BLOB_SIZE) {
            throw new IllegalArgumentException("zero chunk size out of range: " + size);
        }
    }
}
