package org.jpbs.vma;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.function.LongConsumer;
import org.jpbs.vma.format.Vma;

/**
 * Feeds a disk image (file or block device) into a {@link VmaWriter} cluster by cluster, as
 * {@code vma create} does ({@code docs/vma.md#the-vma-tool}): positional reads of 1 MiB,
 * the last cluster zero-padded.
 *
 * <p>{@link #interleave(int)} imitates a live QEMU backup, where {@code N} block-copy workers
 * copy 1 MiB tasks at once and the writer takes one 64 KiB cluster at a time from whichever
 * worker comes next ({@code docs/vma.md#zero-blocks-order-and-vmstate}): the clusters of {@code N} consecutive 1 MiB tasks are written
 * round-robin, so an extent holds {@code N} interleaved runs. With 1 (the default) clusters
 * come in order. The archive is valid either way; the order only matters to a restore.
 */
public final class VmaCreator {
    private static final int TASK = 1 << 20;
    private static final int CLUSTERS_PER_TASK = TASK / Vma.CLUSTER_SIZE;

    private int interleave = 1;

    /** Simulated parallel copy tasks of 1 MiB, 1..64 (default 1: clusters in order). */
    public VmaCreator interleave(int tasks) {
        if (tasks < 1 || tasks > 64) {
            throw new IllegalArgumentException("interleave must be 1..64, got " + tasks);
        }
        this.interleave = tasks;
        return this;
    }

    /**
     * Writes all clusters of one device.
     *
     * @param writer   the archive writer; {@code devId} registered with {@code size}
     * @param devId    the device
     * @param in       the image, read with positional reads
     * @param size     bytes to read (the device size)
     * @param resource name of the image for messages
     * @param progress receives the device bytes of each written cluster
     * @throws IOException if reading fails or the image is shorter than {@code size}
     */
    public void writeDevice(VmaWriter writer, int devId, FileChannel in, long size, String resource,
            LongConsumer progress) throws IOException {
        long clusters = Vma.clusterCount(size);
        byte[] window = new byte[interleave * TASK];
        ByteBuffer bb = ByteBuffer.wrap(window);
        for (long first = 0; first < clusters; first += (long) interleave * CLUSTERS_PER_TASK) {
            long pos = first * Vma.CLUSTER_SIZE;
            int want = (int) Math.min(window.length, size - pos);
            bb.clear().limit(want);
            while (bb.hasRemaining()) {
                int n = in.read(bb, pos + bb.position());
                if (n < 0) {
                    throw new IOException(resource + ": unexpected end of input at byte " + (pos + bb.position())
                            + " (expected " + size + " bytes)");
                }
            }
            Arrays.fill(window, want, window.length, (byte) 0);
            int windowClusters = (int) Math.min((long) interleave * CLUSTERS_PER_TASK, clusters - first);
            for (int step = 0; step < CLUSTERS_PER_TASK; step++) {
                for (int task = 0; task < interleave; task++) {
                    int c = task * CLUSTERS_PER_TASK + step;
                    if (c < windowClusters) {
                        writer.writeCluster(devId, first + c, window, c * Vma.CLUSTER_SIZE);
                        progress.accept(Math.min(Vma.CLUSTER_SIZE, size - (first + c) * Vma.CLUSTER_SIZE));
                    }
                }
            }
        }
    }
}
