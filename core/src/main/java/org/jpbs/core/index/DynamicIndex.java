package org.jpbs.core.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;

/**
 * A dynamic chunk index ({@code .didx}, {@code docs/formats.md#dynamic-index-didx}), used for pxar archives
 * and catalogs. Header (4096 bytes): magic, uuid (offset 8), ctime i64 LE (24), index csum
 * (32). Body: 40-byte entries {@code end_offset u64 LE, digest[32]}; end offsets are exclusive,
 * strictly increasing, the first chunk starts at 0, and the last end offset is the stream size.
 * The index csum is SHA-256 of the body bytes. Immutable.
 */
public final class DynamicIndex implements IndexFile {
    /** Bytes per body entry: end offset 8 + digest 32. */
    public static final int ENTRY_SIZE = 40;

    private final UUID uuid;
    private final long ctime;
    private final long[] ends;
    private final Digest[] digests;
    private final Digest storedCsum;
    private volatile Digest csum;

    /**
     * @param uuid    index uuid
     * @param ctime   creation time, epoch seconds
     * @param ends    exclusive end offsets in bytes, strictly increasing, first > 0 (copied)
     * @param digests one digest per chunk (copied)
     * @throws IllegalArgumentException if lengths differ or offsets are not strictly increasing
     */
    public DynamicIndex(UUID uuid, long ctime, long[] ends, Digest[] digests) {
        this(uuid, ctime, ends.clone(), digests.clone(), null);
        String bad = checkEnds(this.ends);
        if (bad != null) {
            throw new IllegalArgumentException(bad);
        }
    }

    private DynamicIndex(UUID uuid, long ctime, long[] ends, Digest[] digests, Digest storedCsum) {
        this.uuid = Objects.requireNonNull(uuid, "uuid");
        if (ends.length != digests.length) {
            throw new IllegalArgumentException("dynamic index has " + ends.length + " offsets but "
                    + digests.length + " digests");
        }
        for (int i = 0; i < digests.length; i++) {
            if (digests[i] == null) {
                throw new IllegalArgumentException("dynamic index digest " + i + " is null");
            }
        }
        this.ctime = ctime;
        this.ends = ends;
        this.digests = digests;
        this.storedCsum = storedCsum;
    }

    /** Returns a message for the first offset that breaks strict increase from 0, or null. */
    private static String checkEnds(long[] ends) {
        long prev = 0;
        for (int i = 0; i < ends.length; i++) {
            if (ends[i] <= prev) {
                return "dynamic index end offset " + i + " (" + ends[i] + ") is not greater than the previous ("
                        + prev + ")";
            }
            prev = ends[i];
        }
        return null;
    }

    /**
     * Parses a whole {@code .didx} file (from the buffer's position to its limit; the buffer's
     * position is not changed).
     *
     * @throws CorruptDataException on a short file, a wrong magic, a body that is not a multiple
     *                              of 40 bytes, or end offsets that are not strictly increasing
     */
    public static DynamicIndex read(ByteBuffer whole, String resource) throws CorruptDataException {
        ByteBuffer b = IndexHeader.view(whole, FileFormats.DYNAMIC_INDEX_MAGIC, "dynamic index", resource);
        int body = b.remaining() - FileFormats.INDEX_HEADER_SIZE;
        if (body % ENTRY_SIZE != 0) {
            throw new CorruptDataException(resource, b.remaining(),
                    "body length " + body + " is not a multiple of " + ENTRY_SIZE);
        }
        int count = body / ENTRY_SIZE;
        long[] ends = new long[count];
        Digest[] digests = new Digest[count];
        b.position(FileFormats.INDEX_HEADER_SIZE);
        long prev = 0;
        for (int i = 0; i < count; i++) {
            int at = b.position();
            long end = b.getLong();
            if (end <= prev) {
                throw new CorruptDataException(resource, at, "end offset " + Long.toUnsignedString(end)
                        + " of entry " + i + " is not greater than the previous (" + prev + ")");
            }
            ends[i] = end;
            digests[i] = Digest.read(b);
            prev = end;
        }
        return new DynamicIndex(IndexHeader.uuid(b), b.getLong(IndexHeader.CTIME_OFFSET), ends, digests,
                IndexHeader.csum(b));
    }

    /**
     * Reads and parses a {@code .didx} file.
     *
     * @throws CorruptDataException if the content is invalid (see {@link #read})
     * @throws IOException          if the file cannot be read
     */
    public static DynamicIndex open(Path path) throws IOException {
        return read(IndexHeader.readFile(path), path.toString());
    }

    /** The complete file: 4096-byte header (csum at 32) followed by the entries. */
    public byte[] encode() {
        byte[] out = new byte[FileFormats.INDEX_HEADER_SIZE + ends.length * ENTRY_SIZE];
        ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        b.position(FileFormats.INDEX_HEADER_SIZE);
        for (int i = 0; i < ends.length; i++) {
            b.putLong(ends[i]);
            digests[i].writeTo(b);
        }
        MessageDigest md = Digest.newSha256();
        md.update(out, FileFormats.INDEX_HEADER_SIZE, out.length - FileFormats.INDEX_HEADER_SIZE);
        Digest c = Digest.of(md.digest());
        csum = c;
        IndexHeader.write(out, FileFormats.DYNAMIC_INDEX_MAGIC, uuid, ctime, c);
        return out;
    }

    @Override
    public Digest computeCsum() {
        Digest c = csum;
        if (c == null) {
            MessageDigest md = Digest.newSha256();
            ByteBuffer tmp = ByteBuffer.allocate(ENTRY_SIZE * 256).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < ends.length; i++) {
                if (!tmp.hasRemaining()) {
                    md.update(tmp.flip());
                    tmp.clear();
                }
                tmp.putLong(ends[i]);
                digests[i].writeTo(tmp);
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

    /** The uuid from the header. */
    public UUID uuid() {
        return uuid;
    }

    /** Creation time from the header, epoch seconds (not reliable, {@code docs/formats.md#dynamic-index-didx}). */
    public long ctime() {
        return ctime;
    }

    @Override
    public long size() {
        return ends.length == 0 ? 0 : ends[ends.length - 1];
    }

    @Override
    public int chunkCount() {
        return ends.length;
    }

    @Override
    public Digest digest(int i) {
        return digests[i];
    }

    @Override
    public long chunkStart(int i) {
        Objects.checkIndex(i, ends.length);
        return i == 0 ? 0 : ends[i - 1];
    }

    @Override
    public long chunkEnd(int i) {
        return ends[i];
    }

    @Override
    public int findChunk(long offset) {
        if (offset < 0 || offset >= size()) {
            throw new IndexOutOfBoundsException("offset " + offset + " outside the stream of " + size() + " bytes");
        }
        int p = Arrays.binarySearch(ends, offset);
        // an exact hit on an end offset means the byte starts the next chunk
        return p >= 0 ? p + 1 : -p - 1;
    }

    @Override
    public String toString() {
        return "DynamicIndex[size=" + size() + ", chunks=" + ends.length + "]";
    }
}
