package org.jpbs.client.engine;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jpbs.client.backup.BackupStats;
import org.jpbs.core.chunker.ChunkingOutputStream;
import org.jpbs.core.chunker.PayloadChunker;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.DynamicIndexBuilder;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.FileEntry;

/**
 * A dynamic archive written as a byte stream ({@code docs/pxar.md#backup-and-restore}): what is
 * written is cut by the buzhash chunker (PBS's 4 MiB average for archives, 512 KiB for the catalog) and every chunk is hashed,
 * reused or compressed and stored by the archive's processor on {@code workers} threads, at
 * most {@code 2 * workers} chunks in flight; the digests enter the index in stream order.
 * {@link #finish} ends the index and returns its manifest entry. Not thread-safe (one producer).
 */
public final class DynamicArchiveStream extends OutputStream {
    /** The average chunk size of PBS's file archives. */
    public static final int AVERAGE_CHUNK_SIZE = 4 * 1024 * 1024;
    /** The average chunk size of PBS's catalog. */
    public static final int CATALOG_CHUNK_SIZE = 512 * 1024;

    private record Pending(long end, Future<Digest> digest) {}

    private final BackupEngine.Archive archive;
    private final ChunkingOutputStream chunks;
    private final PayloadChunker payloadChunker;
    private final DynamicIndexBuilder builder = new DynamicIndexBuilder();
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /** Chunk buffers free for reuse (at most {@code inFlight + 1}). */
    private final ArrayDeque<byte[]> free = new ArrayDeque<>();
    private final ExecutorService pool;
    private final int inFlight;
    private final long started = System.nanoTime();
    private boolean done;
    /** Bytes of injected chunks (not seen by the chunker). */
    private long injected;

    DynamicArchiveStream(BackupEngine.Archive archive, int averageChunkSize, int workers) {
        this(archive, averageChunkSize, workers, false);
    }

    /**
     * @param payload cut with the payload chunker (buzhash plus suggested boundaries,
     *                {@link #suggestBoundary}) of a split archive's payload stream
     */
    DynamicArchiveStream(BackupEngine.Archive archive, int averageChunkSize, int workers, boolean payload) {
        this.archive = archive;
        this.pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "jpbs-dynamic-" + archive.writer().serverName());
            t.setDaemon(true);
            return t;
        });
        this.inFlight = 2 * workers;
        if (payload) {
            payloadChunker = new PayloadChunker(averageChunkSize);
            this.chunks = new ChunkingOutputStream(payloadChunker, payloadChunker.maxSize(), this::chunk);
        } else {
            payloadChunker = null;
            this.chunks = ChunkingOutputStream.buzhash(averageChunkSize, this::chunk);
        }
    }

    /**
     * Suggests a chunk boundary at stream offset {@code offset} (not before the current
     * position), e.g. where a file's payload starts; only a payload stream takes suggestions.
     */
    public void suggestBoundary(long offset) {
        if (payloadChunker != null) {
            payloadChunker.suggest(offset - injected);
        }
    }

    /** The archive's result: its manifest entry and counters. */
    public record Result(FileEntry entry, BackupStats stats) {}

    /** Bytes written so far (injected chunks included). */
    public long position() {
        return chunks.position() + injected;
    }

    /**
     * Ends the current chunk and appends chunks {@code [from, to)} of {@code previous} (an index
     * of the group's previous snapshot whose chunks the target knows) as they are, without
     * reading them: a split archive's reused payload ({@code docs/pxar.md#split-archives}).
     *
     * @return the stream offset where the first injected chunk starts
     */
    public long inject(IndexFile previous, int from, int to) throws IOException {
        chunks.cut();
        long start = position();
        for (int i = from; i < to; i++) {
            Digest d = previous.digest(i);
            int len = previous.chunkLength(i);
            archive.processor().reuseKnown(d, len);
            injected += len;
            pending.add(new Pending(position(), CompletableFuture.completedFuture(d)));
        }
        while (pending.size() > inFlight) {
            drainOne();
        }
        return start;
    }

    @Override
    public void write(int b) throws IOException {
        chunks.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        chunks.write(b, off, len);
    }

    private void chunk(byte[] data, int len, long end) throws IOException {
        byte[] copy = buffer(len);
        System.arraycopy(data, 0, copy, 0, len);
        pending.add(new Pending(end + injected, pool.submit(() -> {
            try {
                return archive.processor().process(copy, len);
            } finally {
                recycle(copy);
            }
        })));
        while (pending.size() > inFlight) {
            drainOne();
        }
    }

    /**
     * A buffer for a chunk of {@code len} bytes, reused from a chunk already processed if one is
     * large enough: chunks of megabytes, allocated anew each time, are what the garbage collector
     * handles worst (humongous objects, collections forced by their allocation).
     */
    private byte[] buffer(int len) {
        byte[] b;
        synchronized (free) {
            b = free.poll();
        }
        return b != null && b.length >= len ? b : new byte[Integer.highestOneBit(Math.max(len - 1, 1)) << 1];
    }

    private void recycle(byte[] b) {
        synchronized (free) {
            if (free.size() <= inFlight) {
                free.push(b);
            }
        }
    }

    private void drainOne() throws IOException {
        Pending p = pending.poll();
        try {
            builder.append(p.end(), p.digest().get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while storing chunks of " + archive.writer().serverName());
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause().getMessage(), e.getCause());
        }
    }

    /**
     * Cuts the last chunk, waits for every chunk and ends the index.
     *
     * @throws IOException if storing a chunk or the index failed
     */
    public Result finish() throws IOException {
        if (done) {
            throw new IllegalStateException(archive.writer().serverName() + " already finished");
        }
        done = true;
        try {
            chunks.close();
            while (!pending.isEmpty()) {
                drainOne();
            }
        } finally {
            pool.shutdownNow();
        }
        FileEntry e = archive.close(builder.build(UUID.randomUUID(), Instant.now().getEpochSecond()));
        return new Result(e, archive.processor().stats(builder.size(), builder.chunkCount(), System.nanoTime() - started));
    }

    /** Stops the workers without ending the index (the snapshot is to be aborted). */
    @Override
    public void close() {
        pool.shutdownNow();
    }
}
