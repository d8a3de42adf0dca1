package org.jpbs.vma.restore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.jpbs.vma.VmaExtent;
import org.jpbs.vma.format.ExtentHeader;
import org.jpbs.vma.format.Vma;

/**
 * Turns the entries of one extent into write requests on the device targets, per
 * {@link WriteMode} ({@code docs/vma.md#restore-merged-and-sorted-writes}).
 *
 * <p>Merged modes keep one pending run (target, start offset, pieces). A piece is a stretch of
 * payload or of zeros (absent blocks of a target that writes zeroes). A piece that continues
 * the run on the same target is appended; anything else (another target, a gap, the end of the
 * extent) issues the run as one request first. A run of one piece is written straight from the
 * payload buffer; a longer run is copied into an aligned run buffer and written at once.
 * Not thread-safe.
 */
final class ExtentWriter {
    private static final int MAX_PIECES = Vma.SLOTS_PER_EXTENT * Vma.BLOCKS_PER_CLUSTER;

    private final WriteMode mode;
    private final DeviceTarget[] targets;
    private final ByteBuffer zeros;
    private final ByteBuffer run;
    // pending run
    private DeviceTarget runTarget;
    private long runStart;
    private long runEnd;
    private int pieces;
    private final int[] pieceOffset = new int[MAX_PIECES]; // payload offset, or -1 for zeros
    private final int[] pieceLength = new int[MAX_PIECES];
    private ByteBuffer payload;

    /**
     * @param mode      how to issue writes
     * @param targets   target per dev_id (index 0..255), null where the device is not restored
     * @param alignment buffer alignment in bytes (at least the targets' {@link DeviceTarget#alignment()})
     */
    ExtentWriter(WriteMode mode, DeviceTarget[] targets, int alignment) {
        this.mode = mode;
        this.targets = targets;
        this.zeros = alignedBuffer(Vma.MAX_EXTENT_DATA, alignment);
        this.run = alignedBuffer(Vma.MAX_EXTENT_DATA, alignment);
    }

    /** A zero-filled direct buffer of {@code size} bytes whose address is a multiple of {@code alignment}. */
    static ByteBuffer alignedBuffer(int size, int alignment) {
        int a = Math.max(alignment, 4096);
        return ByteBuffer.allocateDirect(size + a).alignedSlice(a).limit(size).slice();
    }

    /** Writes every entry of the extent whose device has a target. */
    void write(VmaExtent e) throws IOException {
        payload = e.payload();
        List<ExtentHeader.Entry> entries = e.entries();
        Integer[] order = new Integer[entries.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        if (mode == WriteMode.SORTED) {
            java.util.Arrays.sort(order, (a, b) -> {
                ExtentHeader.Entry x = entries.get(a);
                ExtentHeader.Entry y = entries.get(b);
                return x.devId() != y.devId() ? Integer.compare(x.devId(), y.devId()) : Long.compare(x.cluster(), y.cluster());
            });
        }
        for (int i : order) {
            ExtentHeader.Entry entry = entries.get(i);
            DeviceTarget t = targets[entry.devId()];
            if (t == null) {
                continue;
            }
            if (mode == WriteMode.CLUSTER) {
                writeCluster(t, entry, e.dataOffset(i));
            } else {
                queueCluster(t, entry, e.dataOffset(i));
            }
        }
        flush();
        payload = null;
    }

    /** Upstream's pattern: one request per full cluster, per stored block, per zero block. */
    private void writeCluster(DeviceTarget t, ExtentHeader.Entry entry, int dataOffset) throws IOException {
        long base = entry.cluster() * Vma.CLUSTER_SIZE;
        if (entry.mask() == Vma.FULL_MASK) {
            t.write(slice(payload, dataOffset, Vma.CLUSTER_SIZE), base);
            return;
        }
        int off = dataOffset;
        for (int b = 0; b < Vma.BLOCKS_PER_CLUSTER; b++) {
            long pos = base + (long) b * Vma.BLOCK_SIZE;
            if ((entry.mask() & 1 << b) != 0) {
                t.write(slice(payload, off, Vma.BLOCK_SIZE), pos);
                off += Vma.BLOCK_SIZE;
            } else if (t.writeZeroes()) {
                t.write(slice(zeros, 0, Vma.BLOCK_SIZE), pos);
            }
        }
    }

    /** Queues a cluster's stored blocks (and zero blocks when the target writes zeroes) as runs. */
    private void queueCluster(DeviceTarget t, ExtentHeader.Entry entry, int dataOffset) throws IOException {
        long base = entry.cluster() * Vma.CLUSTER_SIZE;
        int mask = entry.mask();
        int off = dataOffset;
        int b = 0;
        while (b < Vma.BLOCKS_PER_CLUSTER) {
            boolean present = (mask & 1 << b) != 0;
            int end = b + 1;
            while (end < Vma.BLOCKS_PER_CLUSTER && ((mask & 1 << end) != 0) == present) {
                end++;
            }
            int len = (end - b) * Vma.BLOCK_SIZE;
            long pos = base + (long) b * Vma.BLOCK_SIZE;
            if (present) {
                add(t, pos, off, len);
                off += len;
            } else if (t.writeZeroes()) {
                add(t, pos, -1, len);
            }
            b = end;
        }
    }

    private void add(DeviceTarget t, long pos, int offset, int len) throws IOException {
        if (pieces > 0 && (t != runTarget || pos != runEnd)) {
            flush();
        }
        if (pieces == 0) {
            runTarget = t;
            runStart = pos;
            runEnd = pos;
        }
        int last = pieces - 1;
        if (pieces > 0 && ((offset < 0 && pieceOffset[last] < 0)
                || (offset >= 0 && pieceOffset[last] >= 0 && pieceOffset[last] + pieceLength[last] == offset))) {
            pieceLength[last] += len; // continues the previous piece in its buffer
        } else {
            pieceOffset[pieces] = offset;
            pieceLength[pieces] = len;
            pieces++;
        }
        runEnd += len;
    }

    /** Issues the pending run as one request. */
    private void flush() throws IOException {
        if (pieces == 0) {
            return;
        }
        ByteBuffer src;
        if (pieces == 1) {
            src = pieceOffset[0] < 0 ? slice(zeros, 0, pieceLength[0]) : slice(payload, pieceOffset[0], pieceLength[0]);
        } else {
            run.clear();
            for (int i = 0; i < pieces; i++) {
                run.put(pieceOffset[i] < 0 ? slice(zeros, 0, pieceLength[i]) : slice(payload, pieceOffset[i], pieceLength[i]));
            }
            run.flip();
            src = run;
        }
        runTarget.write(src, runStart);
        pieces = 0;
        runTarget = null;
    }

    private static ByteBuffer slice(ByteBuffer b, int off, int len) {
        return b.slice(off, len);
    }
}
