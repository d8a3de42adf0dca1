package org.jpbs.vma.restore;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.LongConsumer;
import org.jpbs.vma.VmaExtent;
import org.jpbs.vma.VmaReader;
import org.jpbs.vma.format.ExtentHeader;
import org.jpbs.vma.format.Vma;
import org.jpbs.vma.format.VmaDevice;
import org.jpbs.vma.format.VmaHeader;

/**
 * Restores (or, without targets, verifies) a VMA archive: one thread reads and checks extents
 * ({@link VmaReader}, decompression included) into a small ring of aligned payload buffers,
 * the calling thread writes them with an {@link ExtentWriter} in the configured
 * {@link WriteMode}. Every extent is read and checked, also where no device is restored.
 * After the end of the archive, with {@code checkComplete}, every cluster of every restored
 * device must have been seen ("missing cluster", {@code docs/vma.md#zero-blocks-order-and-vmstate}), and
 * each target is flushed ({@code fdatasync}).
 */
public final class VmaRestore {
    private static final Object END = new Object();

    private WriteMode mode = WriteMode.SORTED;
    private int buffers = 4;
    private LongConsumer progress = n -> { };

    /**
     * Counters of one run.
     *
     * @param archiveBytes  uncompressed archive bytes read
     * @param extents       extents read
     * @param clusters      clusters of restored devices processed
     * @param dataBytes     bytes of stored (non-zero) blocks of restored devices
     * @param zeroBytes     bytes of absent (zero) blocks of restored devices
     * @param writeRequests write requests issued (pwrite calls)
     * @param writtenBytes  bytes written, zeros included
     * @param nanos         wall-clock duration, flush included
     */
    public record Result(long archiveBytes, long extents, long clusters, long dataBytes, long zeroBytes,
            long writeRequests, long writtenBytes, long nanos) {
        /** Average request size in bytes (0 without requests). */
        public double averageRequest() {
            return writeRequests == 0 ? 0 : (double) writtenBytes / writeRequests;
        }
    }

    /** The write mode (default {@link WriteMode#SORTED}). */
    public VmaRestore mode(WriteMode m) {
        this.mode = m;
        return this;
    }

    /** Extent buffers between the reading and the writing thread, at least 2 (default 4, ~3.7 MiB each). */
    public VmaRestore buffers(int n) {
        if (n < 2) {
            throw new IllegalArgumentException("buffers must be at least 2, got " + n);
        }
        this.buffers = n;
        return this;
    }

    /** Receives the device bytes of each processed cluster of a restored device (called on the writing thread). */
    public VmaRestore progress(LongConsumer listener) {
        this.progress = listener;
        return this;
    }

    /**
     * Reads the whole archive and writes the devices that have a target.
     *
     * @param reader        the archive (its header may already have been read)
     * @param targets       target per dev_id; devices not in the map are checked but not written
     * @param checkComplete fail with "missing cluster" if a restored device lacks clusters
     * @return the counters
     * @throws org.jpbs.core.errors.CorruptDataException for a damaged, truncated or incomplete archive
     * @throws IOException if reading or writing fails
     */
    public Result run(VmaReader reader, Map<Integer, DeviceTarget> targets, boolean checkComplete) throws IOException {
        long start = System.nanoTime();
        VmaHeader header = reader.header();
        DeviceTarget[] byId = new DeviceTarget[Vma.DEVICE_SLOTS];
        int alignment = 4096;
        List<VmaDevice> restored = new ArrayList<>();
        for (Map.Entry<Integer, DeviceTarget> t : targets.entrySet()) {
            VmaDevice d = header.device(t.getKey());
            if (d == null) {
                throw new IllegalArgumentException("the archive has no dev_id " + t.getKey());
            }
            byId[t.getKey()] = t.getValue();
            alignment = Math.max(alignment, t.getValue().alignment());
            restored.add(d);
        }
        ExtentWriter writer = new ExtentWriter(mode, byId, alignment);
        BlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(buffers);
        BlockingQueue<Object> full = new ArrayBlockingQueue<>(buffers + 1);
        for (int i = 0; i < buffers; i++) {
            free.add(ExtentWriter.alignedBuffer(Vma.MAX_EXTENT_DATA, alignment));
        }
        Thread readerThread = Thread.ofPlatform().daemon().name("jpbs-vma-reader").start(() -> {
            try {
                while (true) {
                    ByteBuffer buf = free.take();
                    VmaExtent e = reader.next(buf);
                    if (e == null) {
                        full.put(END);
                        return;
                    }
                    full.put(e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                full.offer(t);
            }
        });
        long clusters = 0;
        long data = 0;
        long zero = 0;
        boolean done = false;
        try {
            while (true) {
                Object o = full.take();
                if (o == END) {
                    break;
                }
                if (o instanceof Throwable t) {
                    rethrow(t);
                }
                VmaExtent e = (VmaExtent) o;
                writer.write(e);
                for (ExtentHeader.Entry entry : e.entries()) {
                    DeviceTarget t = byId[entry.devId()];
                    if (t != null) {
                        clusters++;
                        long base = entry.cluster() * Vma.CLUSTER_SIZE;
                        long len = Math.max(0, Math.min(Vma.CLUSTER_SIZE, t.size() - base));
                        long stored = Math.min((long) entry.blocks() * Vma.BLOCK_SIZE, len);
                        data += stored;
                        zero += len - stored;
                        progress.accept(len);
                    }
                }
                free.add(e.payload());
            }
            done = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("restore of " + reader.resource() + " interrupted");
        } finally {
            if (!done) {
                readerThread.interrupt();
            }
        }
        if (checkComplete) {
            reader.checkComplete(restored);
        }
        long requests = 0;
        long written = 0;
        for (DeviceTarget t : targets.values()) {
            t.flush();
            requests += t.requests();
            written += t.bytes();
        }
        return new Result(reader.position(), reader.extents(), clusters, data, zero, requests, written,
                System.nanoTime() - start);
    }

    private static void rethrow(Throwable t) throws IOException {
        switch (t) {
            case IOException e -> throw e;
            case RuntimeException e -> throw e;
            case Error e -> throw e;
            default -> throw new IOException(t.toString(), t);
        }
    }
}
