package org.jpbs.client.backup;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jpbs.core.snapshot.ChunkSink;
import org.jpbs.client.progress.ProgressListener;
import org.jpbs.core.FileFormats;
import org.jpbs.core.blob.ZeroChunks;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.FixedIndexBuilder;
import org.jpbs.core.pipeline.BoundedPipeline;
import org.jpbs.core.pipeline.Workers;

/**
 * Backs up a raw image (a file or block device, read through a {@link FileChannel}) as a fixed
 * index of equal-sized chunks ({@code docs/formats.md#fixed-index-fidx}; the last chunk may be shorter and
 * is hashed over its real length).
 *
 * <p>Pipeline: the calling thread hands out slices of {@code chunkSize} bytes in order; a pool of
 * {@code workers} threads each reads its slice with a positional read, computes SHA-256, detects
 * all-zero chunks ({@link ZeroChunks}), asks the sink whether the chunk is known (then only
 * {@link ChunkSink#reuse}), and otherwise compresses it (zstd, kept only if smaller) and calls
 * {@link ChunkSink#insert} ({@link ChunkProcessor}). Each result goes into its own slot of a {@link FixedIndexBuilder};
 * no lock is held across a chunk. A {@link BoundedPipeline} of {@code window} slots bounds the chunk
 * buffers in flight (default {@code 2 * workers + 2}), so memory is about
 * {@code window * chunkSize} bytes whatever the image size. The zero chunk blob is stored at most
 * once per run and chunk length.
 *
 * <p>Configure with the fluent setters, then call {@link #run}. An instance may be reused but not
 * shared between concurrent runs.
 */
public final class ImageBackup {
    private int chunkSize = FileFormats.DEFAULT_FIXED_CHUNK_SIZE;
    private int workers = Runtime.getRuntime().availableProcessors();
    private int window = -1;
    private boolean compress = true;
    private CryptConfig crypt;
    private ProgressListener progress = ProgressListener.NONE;

    /** Result of a run: the finished index and the counters. */
    public record Result(FixedIndex index, BackupStats stats) {}

    /**
     * Chunk size in bytes: a power of two from 4 KiB to 16 MiB (default 4 MiB; the PBS client
     * accepts 64 KiB .. 4 MiB).
     */
    public ImageBackup chunkSize(int bytes) {
        if (bytes < 4096 || bytes > FileFormats.MAX_CHUNK_SIZE || Integer.bitCount(bytes) != 1) {
            throw new IllegalArgumentException("chunk size must be a power of two between 4 KiB and 16 MiB, got " + bytes);
        }
        this.chunkSize = bytes;
        return this;
    }

    /** Number of hashing/compressing threads, at least 1 (default: available processors). */
    public ImageBackup workers(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + n);
        }
        this.workers = n;
        return this;
    }

    /** Chunk buffers in flight, at least 1 (default {@code 2 * workers + 2}). */
    public ImageBackup window(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + n);
        }
        this.window = n;
        return this;
    }

    /** Whether new chunks are zstd-compressed (default true; kept only if smaller). */
    public ImageBackup compress(boolean on) {
        this.compress = on;
        return this;
    }

    /**
     * Encrypts every chunk with this key (default null: unencrypted): digests become
     * SHA-256(data ‖ id_key), blobs are compressed, then AES-256-GCM encrypted ({@code docs/formats.md#datablob}, {@code docs/formats.md#chunks-and-digests}). The zero chunk is encrypted too (its digest depends on the key).
     */
    public ImageBackup crypt(CryptConfig key) {
        this.crypt = key;
        return this;
    }

    /** The key chunks are encrypted with, or null. */
    public CryptConfig crypt() {
        return crypt;
    }

    /** Receives the plaintext bytes of every finished chunk (default: none). */
    public ImageBackup progress(ProgressListener listener) {
        this.progress = listener == null ? ProgressListener.NONE : listener;
        return this;
    }

    /** The configured chunk size in bytes. */
    public int chunkSize() {
        return chunkSize;
    }

    /** The configured number of workers. */
    public int workers() {
        return workers;
    }

    /** The effective window (chunk buffers in flight). */
    public int window() {
        return window > 0 ? window : 2 * workers + 2;
    }

    /**
     * Backs up bytes {@code [0, size)} of {@code in}.
     *
     * @param in       the image, read with positional reads (its position is not changed)
     * @param size     image size in bytes (for block devices get it from the OS, not {@code in.size()})
     * @param sink     where chunks go
     * @param uuid     uuid written into the index header
     * @param ctime    creation time written into the index header, epoch seconds
     * @param resource name of the input for error messages (e.g. the path)
     * @return the complete index and the counters
     * @throws IOException if reading fails, the input ends before {@code size}, or the sink fails;
     *         chunks inserted before the failure stay in the sink
     * @throws InterruptedIOException if the calling thread is interrupted
     */
    public Result run(FileChannel in, long size, ChunkSink sink, UUID uuid, long ctime, String resource)
            throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException(resource + ": negative size " + size);
        }
        long start = System.nanoTime();
        int count = FixedIndex.chunkCount(size, chunkSize);
        FixedIndexBuilder builder = new FixedIndexBuilder(size, chunkSize);
        ChunkProcessor processor = new ChunkProcessor(sink, compress, crypt);
        ConcurrentLinkedQueue<byte[]> buffers = new ConcurrentLinkedQueue<>();
        try (BoundedPipeline pipeline = new BoundedPipeline("backup of " + resource, window(),
                Workers.pool(workers, "jpbs-backup-worker"))) {
            for (int i = 0; i < count && !pipeline.failed(); i++) {
                pipeline.reserve(); // a slot first: then a finished chunk's buffer is free
                byte[] buf = buffers.poll();
                long pos = (long) i * chunkSize;
                int len = (int) Math.min(chunkSize, size - pos);
                int index = i;
                byte[] data = buf != null ? buf : new byte[chunkSize];
                // each worker reads its own slice (positional reads are thread-safe),
                // so one worker is one thread and N workers read in parallel too
                boolean accepted = pipeline.submitReserved(() -> {
                    try {
                        readFully(in, data, len, pos, size, resource);
                        builder.set(index, processor.process(data, len));
                        progress.advance(len);
                    } finally {
                        buffers.add(data);
                    }
                });
                if (!accepted) {
                    break;
                }
            }
            pipeline.finish(); // all in-flight chunks finished; the first failure rethrown
        }
        FixedIndex index = builder.build(uuid, ctime);
        return new Result(index, processor.stats(size, count, System.nanoTime() - start));
    }

    private static void readFully(FileChannel in, byte[] buf, int len, long pos, long size, String resource)
            throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(buf, 0, len);
        while (bb.hasRemaining()) {
            int n = in.read(bb, pos + bb.position());
            if (n < 0) {
                throw new IOException(resource + ": unexpected end of input at byte " + (pos + bb.position())
                        + " (expected " + size + " bytes; did it shrink during the backup?)");
            }
        }
    }
}
