package org.jpbs.vma;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jpbs.vma.format.ExtentHeader;
import org.jpbs.vma.format.Vma;
import org.jpbs.vma.format.VmaConfig;
import org.jpbs.vma.format.VmaDevice;
import org.jpbs.vma.format.VmaHeader;

/**
 * Writes a VMA archive strictly sequentially to a stream ({@code docs/vma.md#main-header}, {@code docs/vma.md#extents}, {@code docs/vma.md#zero-blocks-order-and-vmstate}, {@code docs/vma.md#writer}), as QEMU's writer does: configs and devices are registered first; clusters
 * of 64 KiB are then added in any order; all-zero 4 KiB blocks and blocks past the device end
 * are left out (mask bit clear), bytes past the end inside the last block are stored as zeros;
 * an extent is flushed when {@link #clustersPerExtent} slots are full (58 like QEMU by
 * default, up to 59); the header goes out with the first extent. {@link #finish} flushes the
 * last extent (or, with no data at all, the header and one empty extent) and checks that every
 * device got all its clusters.
 *
 * <p>Errors: {@link IllegalArgumentException} for a config over 65,535 bytes, more than 256
 * configs or 254 devices, an empty device, an unknown device or a cluster out of range;
 * {@link IllegalStateException} for a registration after data or a cluster written twice;
 * {@link IOException} from the stream or for an incomplete device at {@link #finish}.
 * Not thread-safe. The caller closes the stream.
 */
public final class VmaWriter {
    private static final byte[] ZERO_BLOCK = new byte[Vma.BLOCK_SIZE];

    private final OutputStream out;
    private final UUID uuid;
    private final long ctime;
    private final List<VmaConfig> configs = new ArrayList<>();
    private final List<VmaDevice> devices = new ArrayList<>();
    private final VmaDevice[] byId = new VmaDevice[Vma.DEVICE_SLOTS];
    private final ClusterSet[] written = new ClusterSet[Vma.DEVICE_SLOTS];
    private final long[] nextVmstate = new long[Vma.DEVICE_SLOTS];
    private final byte[] payload = new byte[Vma.MAX_EXTENT_DATA];
    private final List<ExtentHeader.Entry> entries = new ArrayList<>();
    private int payloadLength;
    private int clustersPerExtent = Vma.QEMU_CLUSTERS_PER_EXTENT;
    private boolean headerWritten;
    private boolean dataStarted;
    private boolean finished;
    private long bytesWritten;
    private long extentsWritten;
    private long zeroBytes;
    private long dataBytes;

    /**
     * @param out   where the archive goes (not closed by this writer)
     * @param uuid  archive uuid (also in every extent header)
     * @param ctime creation time in seconds since the epoch
     */
    public VmaWriter(OutputStream out, UUID uuid, long ctime) {
        this.out = Objects.requireNonNull(out, "out");
        this.uuid = Objects.requireNonNull(uuid, "uuid");
        this.ctime = ctime;
    }

    /** Clusters per extent, 1..59 (default 58, as QEMU). Call before writing data. */
    public VmaWriter clustersPerExtent(int n) {
        if (n < 1 || n > Vma.SLOTS_PER_EXTENT) {
            throw new IllegalArgumentException("clusters per extent must be 1..59, got " + n);
        }
        this.clustersPerExtent = n;
        return this;
    }

    /**
     * Registers a config file (stored in the header).
     *
     * @param name file name, e.g. {@code qemu-server.conf}
     * @param data content, at most 65,535 bytes
     */
    public void addConfig(String name, byte[] data) {
        checkRegistration();
        if (name.isEmpty() || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("invalid config name '" + name + "'");
        }
        if (data.length > Vma.MAX_BLOB_SIZE) {
            throw new IllegalArgumentException("config '" + name + "' is " + data.length
                    + " bytes; a VMA archive stores configs of at most " + Vma.MAX_BLOB_SIZE + " bytes");
        }
        if (configs.size() >= Vma.MAX_CONFIGS) {
            throw new IllegalArgumentException("too many configs (at most " + Vma.MAX_CONFIGS + ")");
        }
        if (configs.stream().anyMatch(c -> c.name().equals(name))) {
            throw new IllegalArgumentException("config '" + name + "' was already added");
        }
        configs.add(new VmaConfig(name, data.clone()));
    }

    /**
     * Registers a device.
     *
     * @param name device name, e.g. {@code drive-scsi0} ({@code vmstate} for a VM state stream)
     * @param size size in bytes, at least 1
     * @return its dev_id (1, 2, ... in registration order)
     */
    public int addDevice(String name, long size) {
        checkRegistration();
        if (name.isEmpty() || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("invalid device name '" + name + "'");
        }
        if (size <= 0) {
            throw new IllegalArgumentException("device '" + name + "' has size " + size
                    + "; a VMA archive cannot hold an empty device");
        }
        if (Vma.clusterCount(size) > 1L << 32) {
            throw new IllegalArgumentException("device '" + name + "' is too large for VMA (" + size + " bytes)");
        }
        if (devices.size() >= Vma.MAX_DEVICE_ID) {
            throw new IllegalArgumentException("too many devices (at most " + Vma.MAX_DEVICE_ID + ")");
        }
        if (devices.stream().anyMatch(d -> d.name().equals(name))) {
            throw new IllegalArgumentException("device '" + name + "' was already added");
        }
        VmaDevice d = new VmaDevice(devices.size() + 1, name, size);
        new VmaHeader(uuid, ctime, List.of(), List.of(d)); // checks the name length
        devices.add(d);
        byId[d.id()] = d;
        written[d.id()] = new ClusterSet();
        return d.id();
    }

    private void checkRegistration() {
        if (dataStarted || finished) {
            throw new IllegalStateException("configs and devices must be added before any data is written");
        }
    }

    /** The header as it will be (or was) written. */
    public VmaHeader header() {
        return new VmaHeader(uuid, ctime, configs, devices);
    }

    /**
     * Adds one cluster.
     *
     * @param devId   a registered dev_id
     * @param cluster cluster number, below {@code ceil(size / 65536)} (for {@code vmstate}: the next one in order)
     * @param data    the cluster's bytes at {@code data[off, off + 65536)}; in the last cluster
     *                the bytes past the device end are ignored (stored as zeros)
     * @throws IOException if writing to the stream fails
     */
    public void writeCluster(int devId, long cluster, byte[] data, int off) throws IOException {
        if (finished) {
            throw new IllegalStateException("writer already finished");
        }
        Objects.checkFromIndexSize(off, Vma.CLUSTER_SIZE, data.length);
        VmaDevice d = devId > 0 && devId < byId.length ? byId[devId] : null;
        if (d == null) {
            throw new IllegalArgumentException("unknown dev_id " + devId);
        }
        if (d.isVmstate()) {
            if (cluster != nextVmstate[devId]) {
                throw new IllegalArgumentException("non sequential vmstate write: cluster " + cluster + ", expected "
                        + nextVmstate[devId]);
            }
        } else if (cluster < 0 || cluster >= d.clusterCount()) {
            throw new IllegalArgumentException("cluster " + cluster + " is outside device '" + d.name() + "' ("
                    + d.clusterCount() + " clusters)");
        }
        dataStarted = true;
        if (!written[devId].add(cluster)) {
            throw new IllegalStateException("cluster " + cluster + " of device '" + d.name() + "' written twice");
        }
        if (d.isVmstate()) {
            nextVmstate[devId]++;
        }
        long base = cluster * Vma.CLUSTER_SIZE;
        long valid = d.isVmstate() ? Vma.CLUSTER_SIZE : Math.min(Vma.CLUSTER_SIZE, d.size() - base);
        int mask = 0;
        for (int i = 0; i < Vma.BLOCKS_PER_CLUSTER; i++) {
            int blockStart = i * Vma.BLOCK_SIZE;
            if (blockStart >= valid) {
                break; // past the device end: absent
            }
            int n = (int) Math.min(Vma.BLOCK_SIZE, valid - blockStart);
            int src = off + blockStart;
            if (Arrays.mismatch(data, src, src + n, ZERO_BLOCK, 0, n) < 0) {
                zeroBytes += n;
                continue;
            }
            mask |= 1 << i;
            System.arraycopy(data, src, payload, payloadLength, n);
            if (n < Vma.BLOCK_SIZE) {
                Arrays.fill(payload, payloadLength + n, payloadLength + Vma.BLOCK_SIZE, (byte) 0);
            }
            payloadLength += Vma.BLOCK_SIZE;
            dataBytes += n;
        }
        entries.add(new ExtentHeader.Entry(entries.size(), devId, cluster, mask));
        if (entries.size() >= clustersPerExtent) {
            flush();
        }
    }

    /**
     * A stream taking the bytes of one device in order from offset 0; each full 64 KiB becomes
     * a cluster, and {@link OutputStream#close()} pads and writes the last partial one. The
     * device must not get clusters by other means.
     */
    public OutputStream deviceStream(int devId) {
        VmaDevice d = byId[devId];
        if (d == null) {
            throw new IllegalArgumentException("unknown dev_id " + devId);
        }
        return new DeviceStream(d);
    }

    private void flush() throws IOException {
        if (!headerWritten) {
            byte[] h = header().encode();
            out.write(h);
            bytesWritten += h.length;
            headerWritten = true;
        }
        byte[] eh = ExtentHeader.encode(uuid, entries);
        out.write(eh);
        out.write(payload, 0, payloadLength);
        bytesWritten += eh.length + payloadLength;
        extentsWritten++;
        entries.clear();
        payloadLength = 0;
    }

    /**
     * Flushes the last extent and checks completeness; does not close the stream.
     *
     * @throws IOException if writing fails or a device did not get all its clusters
     *         ({@code "device 'NAME': only N of M clusters written"})
     */
    public void finish() throws IOException {
        if (finished) {
            return;
        }
        for (VmaDevice d : devices) {
            if (!d.isVmstate() && written[d.id()].count() != d.clusterCount()) {
                throw new IOException("device '" + d.name() + "': only " + written[d.id()].count() + " of "
                        + d.clusterCount() + " clusters written (incomplete stream)");
            }
        }
        if (!entries.isEmpty() || !headerWritten) {
            flush();
        }
        out.flush();
        finished = true;
    }

    /** Archive bytes written so far. */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** Extents written so far. */
    public long extentsWritten() {
        return extentsWritten;
    }

    /** Device bytes stored as data (present blocks, up to the device end). */
    public long dataBytes() {
        return dataBytes;
    }

    /** Device bytes left out as all-zero 4 KiB blocks. */
    public long zeroBytes() {
        return zeroBytes;
    }

    /** Sequential writer of one device, cluster by cluster. */
    private final class DeviceStream extends OutputStream {
        private final VmaDevice device;
        private final byte[] cluster = new byte[Vma.CLUSTER_SIZE];
        private int fill;
        private long next;
        private boolean closed;

        DeviceStream(VmaDevice device) {
            this.device = device;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            if (closed) {
                throw new IOException("device stream of '" + device.name() + "' is closed");
            }
            if (!device.isVmstate() && next * Vma.CLUSTER_SIZE + fill + len > device.size()) {
                throw new IOException("device '" + device.name() + "': more than its " + device.size() + " bytes written");
            }
            while (len > 0) {
                if (fill == 0 && len >= Vma.CLUSTER_SIZE) {
                    writeCluster(device.id(), next++, b, off);
                    off += Vma.CLUSTER_SIZE;
                    len -= Vma.CLUSTER_SIZE;
                    continue;
                }
                int n = Math.min(len, Vma.CLUSTER_SIZE - fill);
                System.arraycopy(b, off, cluster, fill, n);
                fill += n;
                off += n;
                len -= n;
                if (fill == Vma.CLUSTER_SIZE) {
                    writeCluster(device.id(), next++, cluster, 0);
                    fill = 0;
                }
            }
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            if (fill > 0) {
                Arrays.fill(cluster, fill, Vma.CLUSTER_SIZE, (byte) 0);
                writeCluster(device.id(), next++, cluster, 0);
                fill = 0;
            }
        }
    }
}
