package org.jpbs.client.restore;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;

/**
 * Restores an index from an asynchronous {@link ChunkFetcher} (a remote reader session) with
 * the network window decoupled from the CPU work: up to {@code fetchConcurrency} chunk fetches
 * are in flight (default 16), and a pool of {@code workers} threads (default: available
 * processors) decodes each arrived chunk (CRC, zstd, decryption), verifies it against its
 * digest (as {@link ImageRestore} does) and hands it on. At most {@code fetchConcurrency +
 * workers} chunks are held in memory. Zero chunks of a fixed index are recognised by their
 * digest and never fetched. Progress counts the plaintext bytes of finished chunks.
 *
 * <p>Targets: a {@link ChunkConsumer} (out of order, several threads), a {@link FileChannel}
 * (positional writes as chunks arrive; {@code sparse} skips zero chunks: the target must
 * already read as zeros and have its final length) or an {@link OutputStream} (in order). The
 * loop is {@link RestoreRun}'s, shared with {@link ImageRestore}.
 */
public final class PipelinedRestore extends RestoreSettings<PipelinedRestore> {
    /** Default number of chunk fetches in flight. */
    public static final int DEFAULT_FETCH_CONCURRENCY = 16;

    private int fetchConcurrency = DEFAULT_FETCH_CONCURRENCY;

    /** Creates an engine with the defaults. */
    public PipelinedRestore() {}

    /** Chunk fetches in flight, at least 1. */
    public PipelinedRestore fetchConcurrency(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("fetch concurrency must be at least 1, got " + n);
        }
        this.fetchConcurrency = n;
        return this;
    }

    /** The configured fetch concurrency. */
    public int fetchConcurrency() {
        return fetchConcurrency;
    }

    /**
     * Restores to a consumer: each chunk is handed over as soon as it is decoded, out of order,
     * from the worker threads; zero chunks as {@code null}.
     *
     * @throws org.jpbs.core.errors.CorruptDataException if a chunk has the wrong length or content
     * @throws IOException if a fetch or the consumer fails
     */
    public RestoreStats restore(IndexFile index, ChunkFetcher fetcher, ChunkConsumer consumer, String resource)
            throws IOException {
        RestoreRun run = newRun(index, resource);
        return run.toConsumer(loader(run, fetcher), fetchConcurrency + workers, consumer);
    }

    /**
     * Restores into a channel with positional writes (the channel position is not used).
     *
     * @throws org.jpbs.core.errors.CorruptDataException if a chunk has the wrong length or content
     * @throws IOException if a fetch or a write fails
     */
    public RestoreStats restore(IndexFile index, ChunkFetcher fetcher, FileChannel target, String resource)
            throws IOException {
        RestoreRun run = newRun(index, resource);
        return run.toChannel(loader(run, fetcher), fetchConcurrency + workers, sparse, target);
    }

    /**
     * Restores into a stream, strictly in order, with up to {@code fetchConcurrency} fetches and
     * {@code fetchConcurrency + workers} chunks ahead. The stream is flushed, not closed.
     *
     * @throws org.jpbs.core.errors.CorruptDataException if a chunk has the wrong length or content
     * @throws IOException if a fetch or a write fails
     */
    public RestoreStats restore(IndexFile index, ChunkFetcher fetcher, OutputStream out, String resource)
            throws IOException {
        RestoreRun run = newRun(index, resource);
        return run.toStream(loader(run, fetcher), fetchConcurrency + workers, out);
    }

    /** Fetch (at most {@code fetchConcurrency} at once), then decode and check on a worker. */
    private RestoreRun.Loader loader(RestoreRun run, ChunkFetcher fetcher) {
        Semaphore fetchSlots = new Semaphore(fetchConcurrency);
        return i -> {
            Digest d = run.index.digest(i);
            fetchSlots.acquire();
            CompletableFuture<DataBlob> f;
            try {
                f = fetcher.fetch(d);
            } catch (RuntimeException e) {
                fetchSlots.release();
                throw e;
            }
            return f.whenComplete((b, e) -> fetchSlots.release()).thenApplyAsync(blob -> run.checkedOrThrow(i,
                    () -> blob.decode("chunk " + d.hex(), run.index.chunkLength(i), run.crypt())), run.pool);
        };
    }
}
