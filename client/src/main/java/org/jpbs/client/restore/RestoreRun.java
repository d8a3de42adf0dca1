package org.jpbs.client.restore;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.locks.ReentrantLock;
import org.jpbs.client.progress.ProgressListener;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.blob.ZeroChunks;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.ChunkCheck;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.index.ZeroDigests;
import org.jpbs.core.pipeline.BoundedPipeline;
import org.jpbs.core.pipeline.Workers;

/**
 * One restore of one index: the loop both engines share. It walks the index, settles zero
 * chunks by their digest without loading them, starts a {@link Loader} for every other chunk
 * with at most {@code permits} chunks between start and write, and writes each verified chunk
 * out of order (to a channel or a {@link ChunkConsumer}, from the worker threads) or strictly
 * in order (to a stream). Progress counts the plaintext bytes of finished chunks. Single use.
 */
final class RestoreRun {
    /**
     * Starts loading chunk {@code i}; the future completes, on a worker thread, with its decoded
     * plaintext checked by {@link #checked}, or exceptionally with the {@link IOException}.
     */
    @FunctionalInterface
    interface Loader {
        CompletableFuture<byte[]> load(int i) throws InterruptedException;
    }

    /** Where an unordered restore puts a chunk; {@code data} null = zero chunk known by digest. */
    @FunctionalInterface
    interface Sink {
        void write(int i, byte[] data, int len) throws IOException;
    }

    final IndexFile index;
    final String resource;
    final ExecutorService pool;
    final Counters counters = new Counters();
    final ZeroDigests zeros;
    private final boolean verify;
    private final CryptConfig crypt;
    private final ProgressListener progress;

    RestoreRun(IndexFile index, String resource, int workers, boolean verify, CryptConfig crypt,
               ProgressListener progress) {
        this.index = index;
        this.resource = resource;
        this.verify = verify;
        this.crypt = crypt;
        this.progress = progress;
        this.zeros = new ZeroDigests(index, crypt);
        this.pool = Workers.pool(workers, "jpbs-restore-worker");
    }

    /** The key of this run (null: none). */
    CryptConfig crypt() {
        return crypt;
    }

    /**
     * Checks a decoded chunk (length, and with {@code verify} its digest) and counts it as fetched.
     *
     * @throws CorruptDataException naming the chunk, its number and offset
     */
    byte[] checked(int i, byte[] data) throws CorruptDataException {
        ChunkCheck.check(index, i, data, verify, crypt, resource);
        counters.fetchedChunks.increment();
        counters.fetchedBytes.add(index.chunkLength(i));
        return data;
    }

    /** {@link #checked} for use inside futures: wraps the exception in a {@link CompletionException}. */
    byte[] checkedOrThrow(int i, IoSupplier load) {
        try {
            return checked(i, load.get());
        } catch (IOException e) {
            throw new CompletionException(e);
        }
    }

    /** A chunk read that may fail. */
    @FunctionalInterface
    interface IoSupplier {
        byte[] get() throws IOException;
    }

    /**
     * Restores out of order into a channel with positional writes; with {@code sparse}, zero
     * chunks (by digest or by content) are skipped.
     */
    RestoreStats toChannel(Loader loader, int permits, boolean sparse, FileChannel target) throws IOException {
        ReentrantLock writing = new ReentrantLock();
        return unordered(loader, permits, sparse, (i, data, len) -> {
            if (data == null) {
                data = zeros.buffer(len);
            } else if (sparse && ZeroChunks.isZero(data, 0, len)) {
                counters.zero(len);
                counters.skippedBytes.add(len);
                return;
            }
            // one write at a time: concurrent writes to one file spin on its inode lock in the kernel
            writing.lock();
            try {
                writeFully(target, data, len, index.chunkStart(i));
            } finally {
                writing.unlock();
            }
        });
    }

    /** Restores out of order into a consumer (zero chunks as null). */
    RestoreStats toConsumer(Loader loader, int permits, ChunkConsumer consumer) throws IOException {
        return unordered(loader, permits, false, (i, data, len) -> consumer.accept(index.chunkStart(i), data, len));
    }

    private RestoreStats unordered(Loader loader, int permits, boolean skipZeros, Sink sink) throws IOException {
        long start = System.nanoTime();
        int n = index.chunkCount();
        try (BoundedPipeline pipeline = new BoundedPipeline("restore of " + resource, permits, pool)) {
            for (int i = 0; i < n; i++) {
                int idx = i;
                int len = index.chunkLength(i);
                boolean accepted;
                if (zeros.isZero(index.digest(i), len)) {
                    counters.zero(len);
                    if (skipZeros) {
                        counters.skippedBytes.add(len);
                        progress.advance(len);
                        continue;
                    }
                    accepted = pipeline.submit(() -> {
                        sink.write(idx, null, len);
                        progress.advance(len);
                    });
                } else {
                    accepted = pipeline.<byte[]>submitAsync(() -> loader.load(idx), data -> {
                        sink.write(idx, data, len);
                        progress.advance(len);
                    });
                }
                if (!accepted) {
                    break;
                }
            }
            pipeline.finish();
        }
        return counters.stats(index, System.nanoTime() - start);
    }

    /**
     * Restores into a stream strictly in order, with up to {@code permits} chunks loading ahead.
     * The stream is flushed, not closed.
     */
    RestoreStats toStream(Loader loader, int permits, OutputStream out) throws IOException {
        long start = System.nanoTime();
        try {
            BoundedPipeline.<byte[]>inOrder("restore of " + resource, index.chunkCount(), permits,
                    i -> zeros.isZero(index.digest(i), index.chunkLength(i))
                            ? CompletableFuture.completedFuture(null) : loader.load(i),
                    (i, data) -> {
                        int len = index.chunkLength(i);
                        if (data == null) {
                            counters.zero(len);
                            data = zeros.buffer(len);
                        }
                        out.write(data, 0, len);
                        progress.advance(len);
                    });
            out.flush();
        } finally {
            pool.shutdownNow();
        }
        return counters.stats(index, System.nanoTime() - start);
    }

    /** Writes {@code data[0, len)} at {@code offset} with positional writes. */
    static void writeFully(FileChannel target, byte[] data, int len, long offset) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(data, 0, len);
        while (bb.hasRemaining()) {
            target.write(bb, offset + bb.position());
        }
    }
}
