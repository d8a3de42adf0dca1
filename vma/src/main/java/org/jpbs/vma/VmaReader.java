package org.jpbs.vma;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Objects;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.vma.format.ExtentHeader;
import org.jpbs.vma.format.Vma;
import org.jpbs.vma.format.VmaDevice;
import org.jpbs.vma.format.VmaHeader;

/**
 * Reads a VMA archive strictly sequentially from a stream ({@code docs/vma.md#format}): the header on first use, then one extent per {@link #next} call until the end of the
 * stream. Nothing seeks, so the input may be a pipe or a decompressing stream.
 *
 * <p>Every check of the spec is made, each failure a {@link CorruptDataException} naming the
 * byte offset in the (uncompressed) archive: header magic, version, sizes and MD5, blob
 * pointers and NUL-terminated names ({@link VmaHeader#parse}); extent magic, reserved field,
 * uuid, MD5 and block count ({@link ExtentHeader#parse}); for every entry a known dev_id, a
 * cluster inside the device (not for {@code vmstate}, whose clusters must come in order
 * instead), and no cluster seen twice ("duplicated cluster"); a stream that ends inside a
 * header or payload ("truncated archive"). {@link #checkComplete} adds the end-of-stream check
 * that every cluster of a device was seen ("missing cluster"), which a restore needs and a
 * verify does not.
 *
 * <p>Not thread-safe. The caller closes the stream (or this reader).
 */
public final class VmaReader implements AutoCloseable {
    private final InputStream in;
    private final String resource;
    private VmaHeader header;
    private ClusterSet[] seen;
    private long[] nextVmstateCluster;
    private long position;
    private long extents;
    private byte[] scratch;

    /**
     * @param in       the archive, positioned at its first byte (uncompressed VMA)
     * @param resource name of the archive for messages (e.g. the path)
     */
    public VmaReader(InputStream in, String resource) {
        this.in = Objects.requireNonNull(in, "in");
        this.resource = resource;
    }

    /** Name of the archive used in messages. */
    public String resource() {
        return resource;
    }

    /**
     * The header, read and checked on the first call.
     *
     * @throws CorruptDataException for a bad or truncated header
     * @throws IOException if reading fails
     */
    public VmaHeader header() throws IOException {
        if (header == null) {
            byte[] fixed = new byte[Vma.HEADER_FIXED_SIZE];
            int n = readFully(fixed, 0, fixed.length);
            if (n < fixed.length) {
                if (n >= 4 && ByteBuffer.wrap(fixed).getInt(0) != Vma.MAGIC) {
                    VmaHeader.headerSize(fixed, resource); // reports the bad magic
                }
                throw new CorruptDataException(resource, n, n == 0 ? "empty archive (no VMA header)"
                        : "truncated archive: the header ends after " + n + " bytes");
            }
            int size = VmaHeader.headerSize(fixed, resource);
            byte[] whole = java.util.Arrays.copyOf(fixed, size);
            int m = readFully(whole, fixed.length, size - fixed.length);
            if (m < size - fixed.length) {
                throw new CorruptDataException(resource, fixed.length + m, "truncated archive: the header ends after "
                        + (fixed.length + m) + " of " + size + " bytes");
            }
            header = VmaHeader.parse(whole, resource);
            position = size;
            seen = new ClusterSet[Vma.DEVICE_SLOTS];
            nextVmstateCluster = new long[Vma.DEVICE_SLOTS];
            for (VmaDevice d : header.devices()) {
                seen[d.id()] = new ClusterSet();
            }
        }
        return header;
    }

    /** Bytes of the archive consumed so far. */
    public long position() {
        return position;
    }

    /** Extents read so far. */
    public long extents() {
        return extents;
    }

    /**
     * Reads the next extent.
     *
     * @param payload where the payload goes, at absolute index 0; capacity at least
     *                {@value Vma#MAX_EXTENT_DATA} bytes (heap or direct)
     * @return the extent, or null at the end of the archive
     * @throws CorruptDataException for a bad or truncated extent, an unknown device, a cluster
     *         out of range, out of order ({@code vmstate}) or seen before
     * @throws IOException if reading fails
     */
    public VmaExtent next(ByteBuffer payload) throws IOException {
        if (payload.capacity() < Vma.MAX_EXTENT_DATA) {
            throw new IllegalArgumentException("payload buffer holds " + payload.capacity() + " bytes, needs "
                    + Vma.MAX_EXTENT_DATA);
        }
        header();
        long start = position;
        byte[] h = new byte[Vma.EXTENT_HEADER_SIZE];
        int n = readFully(h, 0, h.length);
        if (n == 0) {
            return null;
        }
        if (n < h.length) {
            throw new CorruptDataException(resource, start + n, "truncated archive: the extent at byte " + start
                    + " ends inside its header (" + n + " of 512 bytes)");
        }
        position += n;
        ExtentHeader eh = ExtentHeader.parse(h, start, header.uuid(), resource);
        int len = eh.payloadSize();
        int got = readPayload(payload, len);
        position += got;
        if (got < len) {
            throw new CorruptDataException(resource, position, "truncated archive: the extent at byte " + start
                    + " has " + eh.blockCount() + " blocks (" + len + " bytes) but the data ends after " + got
                    + " bytes");
        }
        for (ExtentHeader.Entry e : eh.entries()) {
            account(e, start);
        }
        extents++;
        return new VmaExtent(start, eh, payload);
    }

    private void account(ExtentHeader.Entry e, long extentOffset) throws CorruptDataException {
        long at = extentOffset + e.headerOffset();
        VmaDevice d = header.device(e.devId());
        if (d == null) {
            throw new CorruptDataException(resource, at, "extent entry for unknown dev_id " + e.devId()
                    + " (cluster " + e.cluster() + ")");
        }
        if (d.isVmstate()) {
            if (e.cluster() != nextVmstateCluster[d.id()]) {
                throw new CorruptDataException(resource, at, "found out of order vmstate data: cluster " + e.cluster()
                        + ", expected " + nextVmstateCluster[d.id()]);
            }
            nextVmstateCluster[d.id()]++;
        } else if (e.cluster() >= d.clusterCount()) {
            throw new CorruptDataException(resource, at, "cluster " + e.cluster() + " is beyond the end of device "
                    + d.name() + " (" + d.size() + " bytes, " + d.clusterCount() + " clusters)");
        }
        if (!seen[d.id()].add(e.cluster())) {
            throw new CorruptDataException(resource, at, "found duplicated cluster " + e.cluster() + " of device "
                    + d.name() + " (dev_id " + d.id() + ")");
        }
    }

    /**
     * The end-of-stream check of a restore: every cluster of every given device was seen
     * ({@code vmstate} is exempt, its length is not known in clusters).
     *
     * @param devices devices to check (e.g. those being restored)
     * @throws CorruptDataException naming the first missing cluster and how many are missing,
     *         at the offset where the archive ended
     */
    public void checkComplete(Collection<VmaDevice> devices) throws IOException {
        header();
        for (VmaDevice d : devices) {
            if (d.isVmstate()) {
                continue;
            }
            ClusterSet s = seen[d.id()];
            long first = s.firstMissing(d.clusterCount());
            if (first >= 0) {
                long missing = d.clusterCount() - s.count();
                throw new CorruptDataException(resource, position, "detected missing cluster " + first + " of device "
                        + d.name() + " (dev_id " + d.id() + "; " + missing + " of " + d.clusterCount()
                        + " clusters missing, the archive is incomplete)");
            }
        }
    }

    /** Clusters of the device seen so far. */
    public long clustersSeen(int devId) {
        return seen == null || seen[devId] == null ? 0 : seen[devId].count();
    }

    private int readPayload(ByteBuffer payload, int len) throws IOException {
        if (payload.hasArray()) {
            return readFully(payload.array(), payload.arrayOffset(), len);
        }
        if (scratch == null) {
            scratch = new byte[1 << 20];
        }
        int done = 0;
        while (done < len) {
            int want = Math.min(scratch.length, len - done);
            int n = readFully(scratch, 0, want);
            payload.put(done, scratch, 0, n);
            done += n;
            if (n < want) {
                break;
            }
        }
        return done;
    }

    /** Reads until {@code len} bytes or the end of the stream; returns the count read. */
    private int readFully(byte[] b, int off, int len) throws IOException {
        int done = 0;
        while (done < len) {
            int n = in.read(b, off + done, len - done);
            if (n < 0) {
                break;
            }
            done += n;
        }
        return done;
    }

    /** Closes the stream. */
    @Override
    public void close() throws IOException {
        in.close();
    }
}
