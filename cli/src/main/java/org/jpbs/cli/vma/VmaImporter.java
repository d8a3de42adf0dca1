package org.jpbs.cli.vma;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.jpbs.client.backup.BackupStats;
import org.jpbs.client.backup.ChunkProcessor;
import org.jpbs.core.FileFormats;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.FixedIndexBuilder;
import org.jpbs.core.pipeline.BoundedPipeline;
import org.jpbs.core.pipeline.Workers;
import org.jpbs.vma.VmaExtent;
import org.jpbs.vma.VmaReader;
import org.jpbs.vma.format.ExtentHeader;
import org.jpbs.vma.format.Vma;
import org.jpbs.vma.format.VmaDevice;

/**
 * Streams a VMA archive into fixed indexes of 4 MiB chunks, one per device, without a
 * temporary copy: each 4 MiB chunk is assembled from its 64 clusters as they arrive (in any
 * order; absent blocks are zeros) and, once complete, handed to a pool of workers running the
 * device's {@link ChunkProcessor} (from the backup engine: SHA-256, zero chunk recognised and
 * stored once, zstd, insert) in a {@link BoundedPipeline}.
 *
 * <p>Memory: a chunk gets a buffer only when its first stored block arrives (an all-zero chunk
 * never gets one); at most {@value #MAX_PARTIAL} chunks may be incomplete at once (256 MiB),
 * which covers the interleaving of QEMU's 16 copy workers many times over; more fails with a
 * clear error instead of growing without bound. Complete chunks in the workers' hands are
 * bounded by {@code 2 * workers + 2}. {@code vmstate} devices are not imported.
 */
final class VmaImporter {
    /** Incomplete chunks with a buffer at most. */
    static final int MAX_PARTIAL = 64;
    private static final int CHUNK = FileFormats.DEFAULT_FIXED_CHUNK_SIZE;
    private static final int CLUSTERS_PER_CHUNK = CHUNK / Vma.CLUSTER_SIZE;
    private static final byte[] ZERO_CHUNK = new byte[CHUNK];

    private final Function<VmaDevice, ChunkProcessor> processors;
    private final int workers;

    /** Result: an index per device name (in dev_id order) and the counters. */
    record Result(Map<String, FixedIndex> indexes, BackupStats stats) {}

    /**
     * @param processors the chunk processor of each device's index (from the backup engine)
     * @param workers    threads hashing and compressing
     */
    VmaImporter(Function<VmaDevice, ChunkProcessor> processors, int workers) {
        this.processors = processors;
        this.workers = workers;
    }

    private static final class Partial {
        byte[] buf;
        int clusters;
    }

    private static final class Device {
        final VmaDevice d;
        final FixedIndexBuilder builder;
        final ChunkProcessor processor;
        final Map<Long, Partial> partial = new HashMap<>();

        Device(VmaDevice d, ChunkProcessor processor) {
            this.d = d;
            this.builder = new FixedIndexBuilder(d.size(), CHUNK);
            this.processor = processor;
        }

        int chunkLength(long chunk) {
            return (int) Math.min(CHUNK, d.size() - chunk * CHUNK);
        }

        int clustersIn(long chunk) {
            return (int) Vma.clusterCount(chunkLength(chunk));
        }
    }

    /**
     * Reads the whole archive.
     *
     * @param reader   the archive
     * @param devices  the devices to import (others are read and checked only)
     * @param progress receives device bytes per processed cluster
     * @throws CorruptDataException for a damaged or incomplete archive ("missing cluster"), or
     *         clusters too scattered to assemble in memory
     * @throws IOException if reading or storing fails
     */
    Result run(VmaReader reader, List<VmaDevice> devices, LongConsumer progress) throws IOException {
        long start = System.nanoTime();
        Device[] byId = new Device[Vma.DEVICE_SLOTS];
        for (VmaDevice d : devices) {
            byId[d.id()] = new Device(d, processors.apply(d));
        }
        int window = 2 * workers + 2;
        ArrayDeque<byte[]> pool = new ArrayDeque<>();
        int[] partialBuffers = {0};
        ByteBuffer payload = ByteBuffer.allocate(Vma.MAX_EXTENT_DATA);
        // a slot is taken when a chunk gets a buffer (or, for an all-zero chunk, when it is
        // complete) and freed when the worker has processed it
        try (BoundedPipeline pipeline = new BoundedPipeline("import of " + reader.resource(), MAX_PARTIAL + window,
                Workers.pool(workers, "jpbs-vma-import"))) {
            VmaExtent e;
            while ((e = reader.next(payload)) != null) {
                pipeline.rethrowIfFailed();
                for (int i = 0; i < e.entries().size(); i++) {
                    ExtentHeader.Entry en = e.entries().get(i);
                    Device dev = byId[en.devId()];
                    if (dev == null) {
                        continue;
                    }
                    long chunk = en.cluster() / CLUSTERS_PER_CHUNK;
                    Partial p = dev.partial.computeIfAbsent(chunk, k -> new Partial());
                    int len = dev.chunkLength(chunk);
                    if (en.mask() != 0) {
                        if (p.buf == null) {
                            if (partialBuffers[0] >= MAX_PARTIAL) {
                                throw new CorruptDataException(reader.resource(), e.offset(), "the clusters of the archive"
                                        + " are too scattered to import in one pass (more than " + MAX_PARTIAL
                                        + " chunks of 4 MiB incomplete at once)");
                            }
                            pipeline.reserve();
                            synchronized (pool) {
                                p.buf = pool.poll();
                            }
                            if (p.buf == null) {
                                p.buf = new byte[CHUNK];
                            }
                            java.util.Arrays.fill(p.buf, 0, len, (byte) 0);
                            partialBuffers[0]++;
                        }
                        copyBlocks(e, i, en, p.buf, len);
                    }
                    long clusterBytes = Math.min(Vma.CLUSTER_SIZE, dev.d.size() - en.cluster() * Vma.CLUSTER_SIZE);
                    if (++p.clusters == dev.clustersIn(chunk)) {
                        dev.partial.remove(chunk);
                        byte[] data = p.buf != null ? p.buf : ZERO_CHUNK;
                        boolean owned = p.buf != null;
                        if (owned) {
                            partialBuffers[0]--;
                        } else {
                            pipeline.reserve(); // bounds zero chunks in flight as well
                        }
                        int index = (int) chunk;
                        pipeline.submitReserved(() -> {
                            try {
                                dev.builder.set(index, dev.processor.process(data, len));
                            } finally {
                                if (owned) {
                                    synchronized (pool) {
                                        pool.add(data);
                                    }
                                }
                            }
                        });
                    }
                    progress.accept(clusterBytes);
                }
            }
            reader.checkComplete(devices);
            pipeline.finish(); // every chunk processed; the first failure rethrown
        }
        Map<String, FixedIndex> out = new LinkedHashMap<>();
        BackupStats stats = BackupStats.EMPTY;
        long ctime = reader.header().ctime();
        for (VmaDevice d : devices) {
            Device dev = byId[d.id()];
            FixedIndex idx = dev.builder.build(UUID.randomUUID(), ctime);
            out.put(d.name(), idx);
            stats = stats.plus(dev.processor.stats(d.size(), idx.chunkCount(), 0));
        }
        long nanos = System.nanoTime() - start;
        return new Result(out, new BackupStats(stats.totalBytes(), stats.chunks(), stats.newChunks(), stats.newBytes(),
                stats.reusedChunks(), stats.reusedBytes(), stats.zeroChunks(), stats.zeroBytes(), stats.storedBytes(), nanos));
    }

    /** Copies the stored blocks of entry {@code i} into the chunk buffer (bytes past the chunk end dropped). */
    private static void copyBlocks(VmaExtent e, int i, ExtentHeader.Entry en, byte[] buf, int len) {
        int base = (int) (en.cluster() % CLUSTERS_PER_CHUNK) * Vma.CLUSTER_SIZE;
        int src = e.dataOffset(i);
        ByteBuffer payload = e.payload();
        for (int b = 0; b < Vma.BLOCKS_PER_CLUSTER; b++) {
            if ((en.mask() & 1 << b) == 0) {
                continue;
            }
            int dst = base + b * Vma.BLOCK_SIZE;
            int n = Math.min(Vma.BLOCK_SIZE, len - dst);
            if (n > 0) {
                payload.get(src, buf, dst, n);
            }
            src += Vma.BLOCK_SIZE;
        }
    }

    /** The devices of an archive that are imported: all but {@code vmstate}. */
    static List<VmaDevice> importable(List<VmaDevice> all) {
        List<VmaDevice> out = new ArrayList<>();
        for (VmaDevice d : all) {
            if (!d.isVmstate()) {
                out.add(d);
            }
        }
        return out;
    }
}
