package org.jpbs.core.index;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;

/**
 * The digests of an index file read in place, without one object per chunk: for passes over
 * millions of index entries (garbage collection marks every chunk of every index, {@code docs/gc.md#garbage-collection}). Validates the file exactly as {@link FixedIndex#read} and
 * {@link DynamicIndex#read} do (magic, lengths, increasing end offsets) and exposes each digest
 * as four big-endian 64-bit words, or as a {@link Digest} on demand. Immutable view of the buffer.
 */
public final class DigestScan {
    private final ByteBuffer be;
    private final int count;
    private final int first;
    private final int stride;
    private final long size;

    private DigestScan(ByteBuffer be, int count, int first, int stride, long size) {
        this.be = be;
        this.count = count;
        this.first = first;
        this.stride = stride;
        this.size = size;
    }

    /**
     * Scans a whole {@code .fidx} file (buffer position to limit).
     *
     * @throws CorruptDataException as {@link FixedIndex#read}
     */
    public static DigestScan fixed(ByteBuffer whole, String resource) throws CorruptDataException {
        ByteBuffer b = IndexHeader.view(whole, FileFormats.FIXED_INDEX_MAGIC, "fixed index", resource);
        long size = b.getLong(FixedIndex.SIZE_OFFSET);
        long chunkSize = b.getLong(FixedIndex.CHUNK_SIZE_OFFSET);
        if (size < 0) {
            throw new CorruptDataException(resource, FixedIndex.SIZE_OFFSET,
                    "image size out of range: " + Long.toUnsignedString(size));
        }
        if (chunkSize <= 0 || chunkSize > (1L << 30) || Long.bitCount(chunkSize) != 1) {
            throw new CorruptDataException(resource, FixedIndex.CHUNK_SIZE_OFFSET,
                    "chunk size is not a power of two: " + Long.toUnsignedString(chunkSize));
        }
        long count = (size + chunkSize - 1) / chunkSize;
        long expected = FileFormats.INDEX_HEADER_SIZE + count * Digest.LENGTH;
        if (count > Integer.MAX_VALUE || b.remaining() != expected) {
            throw new CorruptDataException(resource, b.remaining(), "file length " + b.remaining()
                    + " does not match " + count + " chunks (expected " + expected + " bytes)");
        }
        return new DigestScan(b.order(ByteOrder.BIG_ENDIAN), (int) count, FileFormats.INDEX_HEADER_SIZE,
                Digest.LENGTH, size);
    }

    /**
     * Scans a whole {@code .didx} file (buffer position to limit).
     *
     * @throws CorruptDataException as {@link DynamicIndex#read}
     */
    public static DigestScan dynamic(ByteBuffer whole, String resource) throws CorruptDataException {
        ByteBuffer b = IndexHeader.view(whole, FileFormats.DYNAMIC_INDEX_MAGIC, "dynamic index", resource);
        int body = b.remaining() - FileFormats.INDEX_HEADER_SIZE;
        if (body % DynamicIndex.ENTRY_SIZE != 0) {
            throw new CorruptDataException(resource, b.remaining(),
                    "body length " + body + " is not a multiple of " + DynamicIndex.ENTRY_SIZE);
        }
        int count = body / DynamicIndex.ENTRY_SIZE;
        long prev = 0;
        for (int i = 0; i < count; i++) {
            int at = FileFormats.INDEX_HEADER_SIZE + i * DynamicIndex.ENTRY_SIZE;
            long end = b.getLong(at);
            if (end <= prev) {
                throw new CorruptDataException(resource, at, "end offset " + Long.toUnsignedString(end)
                        + " of entry " + i + " is not greater than the previous (" + prev + ")");
            }
            prev = end;
        }
        return new DigestScan(b.order(ByteOrder.BIG_ENDIAN), count, FileFormats.INDEX_HEADER_SIZE + 8,
                DynamicIndex.ENTRY_SIZE, prev);
    }

    /** Number of chunks. */
    public int count() {
        return count;
    }

    /** Logical size in bytes the index describes ({@link IndexFile#size()}). */
    public long size() {
        return size;
    }

    /** Word {@code w} (0..3, big-endian) of digest {@code i}. */
    public long word(int i, int w) {
        return be.getLong(first + i * stride + w * 8);
    }

    /** Digest {@code i} as an object. */
    public Digest digest(int i) {
        byte[] d = new byte[Digest.LENGTH];
        be.get(first + i * stride, d);
        return Digest.of(d);
    }
}
