package org.jpbs.core.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.UUID;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;

/**
 * A fixed-size chunk index ({@code .fidx}, {@code docs/formats.md#fixed-index-fidx}), used for images.
 * Header (4096 bytes, LE): magic, uuid (offset 8), ctime i64 (24), index csum (32), image size
 * u64 (64), chunk size u64 (72). Body: {@code ceil(size / chunkSize)} digests of 32 bytes, no
 * offsets; chunk {@code i} covers {@code [i*chunkSize, min((i+1)*chunkSize, size))}. The index
 * csum is SHA-256 of the body. Immutable.
 */
public final class FixedIndex implements IndexFile {
    static final int SIZE_OFFSET = 64;
    static final int CHUNK_SIZE_OFFSET = 72;

    private final UUID uuid;
    private final long ctime;
    private final long size;
    private final int chunkSize;
    private final int shift;
    private final Digest[] digests;
    private final Digest storedCsum;
    private volatile Digest csum;

    /**
     * @param uuid          index uuid (16 bytes in the header)
     * @param ctimeEpochSec creation time, epoch seconds
     * @param size          image size in bytes (>= 0)
     * @param chunkSize     chunk size in bytes, a power of two
     * @param digests       exactly {@code chunkCount(size, chunkSize)} digests (copied)
     * @throws IllegalArgumentException if the shapes do not match
     */
    public FixedIndex(UUID uuid, long ctimeEpochSec, long size, int chunkSize, Digest[] digests) {
        this(uuid, ctimeEpochSec, size, chunkSize, digests.clone(), null);
    }

    private FixedIndex(UUID uuid, long ctime, long size, int chunkSize, Digest[] digests, Digest storedCsum) {
        this.uuid = Objects.requireNonNull(uuid, "uuid");
        checkChunkSize(chunkSize);
        if (size < 0) {
            throw new IllegalArgumentException("fixed index size must not be negative: " + size);
        }
        int count = chunkCount(size, chunkSize);
        if (digests.length != count) {
            throw new IllegalArgumentException("fixed index of " + size + " bytes with chunk size " + chunkSize
                    + " needs " + count + " digests, got " + digests.length);
        }
        for (int i = 0; i < digests.length; i++) {
            if (digests[i] == null) {
                throw new IllegalArgumentException("fixed index digest " + i + " is null");
            }
        }
        this.ctime = ctime;
        this.size = size;
        this.chunkSize = chunkSize;
        this.shift = Integer.numberOfTrailingZeros(chunkSize);
        this.digests = digests;
        this.storedCsum = storedCsum;
    }

    /**
     * Number of chunks for an image: {@code ceil(size / chunkSize)}.
     *
     * @throws IllegalArgumentException if the chunk size is not a positive power of two, the size
     *                                  is negative, or the count does not fit an int
     */
    public static int chunkCount(long size, int chunkSize) {
        checkChunkSize(chunkSize);
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative: " + size);
        }
        long n = size / chunkSize + (size % chunkSize != 0 ? 1 : 0); // no overflow near Long.MAX_VALUE
        if (n > (Integer.MAX_VALUE - FileFormats.INDEX_HEADER_SIZE) / Digest.LENGTH) {
            throw new IllegalArgumentException("too many chunks: " + n + " for size " + size);
        }
        return (int) n;
    }

    private static void checkChunkSize(int chunkSize) {
        if (chunkSize <= 0 || Integer.bitCount(chunkSize) != 1) {
            throw new IllegalArgumentException("chunk size must be a positive power of two: " + chunkSize);
        }
    }

    /**
     * Parses a whole {@code .fidx} file (from the buffer's position to its limit; the buffer's
     * position is not changed).
     *
     * @throws CorruptDataException on a short file, a wrong magic, a chunk size that is not a
     *                              power of two, or a body length other than {@code 32*count}
     */
    public static FixedIndex read(ByteBuffer whole, String resource) throws CorruptDataException {
        ByteBuffer b = IndexHeader.view(whole, FileFormats.FIXED_INDEX_MAGIC, "fixed index", resource);
        long size = b.getLong(SIZE_OFFSET);
        long chunkSize = b.getLong(CHUNK_SIZE_OFFSET);
        if (size < 0) {
            throw new CorruptDataException(resource, SIZE_OFFSET, "image size out of range: " + Long.toUnsignedString(size));
        }
        if (chunkSize <= 0 || chunkSize > (1L << 30) || Long.bitCount(chunkSize) != 1) {
            throw new CorruptDataException(resource, CHUNK_SIZE_OFFSET,
                    "chunk size is not a power of two: " + Long.toUnsignedString(chunkSize));
        }
        long count = (size + chunkSize - 1) / chunkSize;
        long expected = FileFormats.INDEX_HEADER_SIZE + count * Digest.LENGTH;
        if (count > Integer.MAX_VALUE || b.remaining() != expected) {
            throw new CorruptDataException(resource, b.remaining(), "file length " + b.remaining()
                    + " does not match " + count + " chunks (expected " + expected + " bytes)");
        }
        Digest[] digests = new Digest[(int) count];
        b.position(FileFormats.INDEX_HEADER_SIZE);
        for (int i = 0; i < digests.length; i++) {
            digests[i] = Digest.read(b);
        }
        return new FixedIndex(IndexHeader.uuid(b), b.getLong(IndexHeader.CTIME_OFFSET), size, (int) chunkSize,
                digests, IndexHeader.csum(b));
    }

    /**
     * Reads and parses a {@code .fidx} file.
     *
     * @throws CorruptDataException if the content is invalid (see {@link #read})
     * @throws IOException          if the file cannot be read
     */
    public static FixedIndex open(Path path) throws IOException {
        return read(IndexHeader.readFile(path), path.toString());
    }

    /** The complete file: 4096-byte header (csum at 32) followed by the digests. */
    public byte[] encode() {
        byte[] out = new byte[FileFormats.INDEX_HEADER_SIZE + digests.length * Digest.LENGTH];
        IndexHeader.write(out, FileFormats.FIXED_INDEX_MAGIC, uuid, ctime, computeCsum());
        ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(SIZE_OFFSET, size).putLong(CHUNK_SIZE_OFFSET, chunkSize);
        b.position(FileFormats.INDEX_HEADER_SIZE);
        for (Digest d : digests) {
            d.writeTo(b);
        }
        return out;
    }

    @Override
    public Digest computeCsum() {
        Digest c = csum;
        if (c == null) {
            MessageDigest md = Digest.newSha256();
            ByteBuffer tmp = ByteBuffer.allocate(Digest.LENGTH * 256);
            for (Digest d : digests) {
                if (!tmp.hasRemaining()) {
                    md.update(tmp.flip());
                    tmp.clear();
                }
                d.writeTo(tmp);
            }
            md.update(tmp.flip());
            c = Digest.of(md.digest());
            csum = c;
        }
        return c;
    }

    /** The csum stored in the header when read from a file, else the computed one. */
    public Digest storedCsum() {
        return storedCsum != null ? storedCsum : computeCsum();
    }

    /** Chunk size in bytes (a power of two). */
    public int chunkSize() {
        return chunkSize;
    }

    /** The uuid from the header. */
    public UUID uuid() {
        return uuid;
    }

    /** Creation time from the header, epoch seconds. */
    public long ctime() {
        return ctime;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int chunkCount() {
        return digests.length;
    }

    @Override
    public Digest digest(int i) {
        return digests[i];
    }

    @Override
    public long chunkStart(int i) {
        Objects.checkIndex(i, digests.length);
        return (long) i << shift;
    }

    @Override
    public long chunkEnd(int i) {
        Objects.checkIndex(i, digests.length);
        return Math.min(((long) i + 1) << shift, size);
    }

    @Override
    public int findChunk(long offset) {
        if (offset < 0 || offset >= size) {
            throw new IndexOutOfBoundsException("offset " + offset + " outside the image of " + size + " bytes");
        }
        return (int) (offset >>> shift);
    }

    @Override
    public String toString() {
        return "FixedIndex[size=" + size + ", chunkSize=" + chunkSize + ", chunks=" + digests.length + "]";
    }
}
