package org.jpbs.client.restore;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import org.jpbs.client.Workers;
import org.jpbs.client.progress.ProgressListener;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.ZeroChunks;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;

/**
 * Restores an index from an asynchronous {@link ChunkFetcher} (a remote reader session) with
 * the network window decoupled from the CPU work: up to {@code fetchConcurrency} chunk fetches
 * are in flight (default 16), and a pool of {@code workers} threads (default: available
 * processors) decodes each arrived chunk (CRC, zstd), verifies it against its digest (as
 * {@link ImageRestore} does) and hands it on. At most {@code fetchConcurrency + workers} chunks
 * are held in memory. Zero chunks of a fixed index are recognised by their digest and never
 * fetched. Progress counts the plaintext bytes of finished chunks.
 *
 * <p>Targets: a {@link ChunkConsumer} (out of order, several threads), a {@link FileChannel}
 * (positional writes as chunks arrive; {@code sparse} skips zero chunks: the target must
 * already read as zeros and have its final length) or an {@link OutputStream} (in order).
 */
public final class PipelinedRestore {
    /** Default number of chunk fetches in flight. */
    public static final int DEFAULT_FETCH_CONCURRENCY = 16;

    private int fetchConcurrency = DEFAULT_FETCH_CONCURRENCY;
    private int workers = Runtime.getRuntime().availableProcessors();
    private boolean sparse;
    private boolean verify = true;
    private CryptConfig crypt;
    private ProgressListener progress = ProgressListener.NONE;

    /** Chunk fetches in flight, at least 1. */
    public PipelinedRestore fetchConcurrency(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("fetch concurrency must be at least 1, got " + n);
        }
        this.fetchConcurrency = n;
        return this;
    }

    /** Decode/verify/write threads, at least 1. */
    public PipelinedRestore workers(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("restore workers must be at least 1, got " + n);
        }
        this.workers = n;
        return this;
    }

    /** Skip writing zero chunks to a {@link FileChannel} target (default off). */
    public PipelinedRestore sparse(boolean on) {
        this.sparse = on;
        return this;
    }

    /** Check each chunk's SHA-256 against its digest (default on). */
    public PipelinedRestore verify(boolean on) {
        this.verify = on;
        return this;
    }

    /**
     * Decrypts encrypted chunks with this key (default null: an encrypted chunk fails with
     * "encrypted, key needed"); digests are then checked as SHA-256(data ‖ id_key) and zero
     * chunks recognised by their keyed digest.
     */
    public PipelinedRestore crypt(CryptConfig key) {
        this.crypt = key;
        return this;
    }

    /** Receives the plaintext bytes of every finished chunk. */
    public PipelinedRestore progress(ProgressListener listener) {
        this.progress = listener == null ? ProgressListener.NONE : listener;
        return this;
    }

    /** The configured fetch concurrency. */
    public int fetchConcurrency() {
        return fetchConcurrency;
    }

    /** The configured number of workers. */
    public int workers() {
        return workers;
    }

    /** Where an unordered restore puts a chunk; {@code data} null = zero chunk known by digest. */
    private interface Sink {
        void write(int i, byte[] data, int len, Counters c) throws IOException;
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
        return run(index, fetcher, resource, false, (i, data, len, c) -> consumer.accept(index.chunkStart(i), data, len));
    }

    /**
     * Restores into a channel with positional writes (the channel position is not used).
     *
     * @throws org.jpbs.core.errors.CorruptDataException if a chunk has the wrong length or content
     * @throws IOException if a fetch or a write fails
     */
    public RestoreStats restore(IndexFile index, ChunkFetcher fetcher, FileChannel target, String resource)
            throws IOException {
        ZeroDigests zeros = new ZeroDigests(index, crypt);
        return run(index, fetcher, resource, sparse, (i, data, len, c) -> {
            if (data == null) {
                data = zeros.buffer(len);
            } else if (sparse && ZeroChunks.isZero(data, 0, len)) {
                c.zero(len);
                c.skippedBytes.add(len);
                return;
            }
            ImageRestore.writeFully(target, data, len, index.chunkStart(i));
        });
    }

    private RestoreStats run(IndexFile index, ChunkFetcher fetcher, String resource, boolean skipZeros, Sink sink)
            throws IOException {
        long start = System.nanoTime();
        int n = index.chunkCount();
        ZeroDigests zeros = new ZeroDigests(index, crypt);
        Counters c = new Counters();
        int permits = fetchConcurrency + workers;
        Semaphore window = new Semaphore(permits);
        Semaphore fetchSlots = new Semaphore(fetchConcurrency);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ExecutorService pool = Workers.pool(workers, "jpbs-restore-worker");
        try {
            for (int i = 0; i < n && failure.get() == null; i++) {
                int idx = i;
                int len = index.chunkLength(i);
                Digest d = index.digest(i);
                if (zeros.isZero(d, len)) {
                    c.zero(len);
                    if (skipZeros) {
                        c.skippedBytes.add(len);
                        progress.advance(len);
                        continue;
                    }
                    window.acquire();
                    pool.execute(() -> {
                        try {
                            sink.write(idx, null, len, c);
                            progress.advance(len);
                        } catch (Throwable t) {
                            failure.compareAndSet(null, t);
                        } finally {
                            window.release();
                        }
                    });
                    continue;
                }
                window.acquire();
                fetchSlots.acquire();
                CompletableFuture<DataBlob> f;
                try {
                    f = fetcher.fetch(d);
                } catch (RuntimeException e) {
                    fetchSlots.release();
                    window.release();
                    failure.compareAndSet(null, e);
                    break;
                }
                f.whenComplete((blob, err) -> {
                    fetchSlots.release();
                    if (err != null) {
                        failure.compareAndSet(null, err);
                        window.release();
                        return;
                    }
                    try {
                        pool.execute(() -> {
                            try {
                                byte[] data = decode(index, idx, blob, resource);
                                c.fetchedChunks.increment();
                                c.fetchedBytes.add(len);
                                sink.write(idx, data, len, c);
                                progress.advance(len);
                            } catch (Throwable t) {
                                failure.compareAndSet(null, t);
                            } finally {
                                window.release();
                            }
                        });
                    } catch (RejectedExecutionException e) {
                        failure.compareAndSet(null, e);
                        window.release();
                    }
                });
            }
            window.acquire(permits);
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("restore of " + resource + " interrupted");
        } finally {
            pool.shutdown();
        }
        Workers.rethrow(unwrap(failure.get()));
        return c.stats(index, System.nanoTime() - start);
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
        long start = System.nanoTime();
        int n = index.chunkCount();
        ZeroDigests zeros = new ZeroDigests(index, crypt);
        Counters c = new Counters();
        int permits = fetchConcurrency + workers;
        Semaphore fetchSlots = new Semaphore(fetchConcurrency);
        ArrayDeque<CompletableFuture<byte[]>> ahead = new ArrayDeque<>();
        ExecutorService pool = Workers.pool(workers, "jpbs-restore-worker");
        int next = 0;
        try {
            for (int i = 0; i < n; i++) {
                while (next < n && ahead.size() < permits) {
                    int idx = next++;
                    int len = index.chunkLength(idx);
                    Digest d = index.digest(idx);
                    if (zeros.isZero(d, len)) {
                        ahead.add(CompletableFuture.completedFuture(null));
                        continue;
                    }
                    fetchSlots.acquire();
                    CompletableFuture<DataBlob> f;
                    try {
                        f = fetcher.fetch(d);
                    } catch (RuntimeException e) {
                        fetchSlots.release();
                        throw e;
                    }
                    ahead.add(f.whenComplete((b, e) -> fetchSlots.release()).thenApplyAsync(blob -> {
                        try {
                            byte[] data = decode(index, idx, blob, resource);
                            c.fetchedChunks.increment();
                            c.fetchedBytes.add(len);
                            return data;
                        } catch (IOException e) {
                            throw new CompletionException(e);
                        }
                    }, pool));
                }
                byte[] data = ahead.poll().get();
                int len = index.chunkLength(i);
                if (data == null) {
                    c.zero(len);
                    data = zeros.buffer(len);
                }
                out.write(data, 0, len);
                progress.advance(len);
            }
            out.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("restore of " + resource + " interrupted");
        } catch (ExecutionException e) {
            Workers.rethrow(unwrap(e.getCause()));
        } finally {
            ahead.forEach(f -> f.cancel(true));
            pool.shutdownNow();
        }
        return c.stats(index, System.nanoTime() - start);
    }

    private byte[] decode(IndexFile index, int i, DataBlob blob, String resource) throws IOException {
        Digest d = index.digest(i);
        byte[] data = blob.decode("chunk " + d.hex(), index.chunkLength(i), crypt);
        ImageRestore.check(index, i, data, verify, crypt, resource);
        return data;
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
