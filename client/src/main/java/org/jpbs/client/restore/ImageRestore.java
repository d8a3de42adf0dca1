package org.jpbs.client.restore;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import org.jpbs.client.Workers;
import org.jpbs.client.progress.ProgressListener;
import org.jpbs.core.ChunkSource;
import org.jpbs.core.blob.ZeroChunks;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.IndexFile;

/**
 * Restores the byte stream an index describes (a disk image for a fixed index, the
 * concatenated chunk stream, e.g. a pxar archive, for a dynamic index).
 *
 * <p>A pool of {@code workers} threads fetches and decodes chunks ({@link ChunkSource#readChunk}),
 * at most {@code window} at a time (default {@code 2 * workers + 2}). Every decoded chunk is
 * checked: its length must equal the index's chunk length and, if {@code verify} is on
 * (default), its SHA-256 (with a key: SHA-256(data ‖ id_key)) must equal its digest (spec
 * {@code pbs-formats.md} §2) — otherwise a {@link CorruptDataException} naming the chunk.
 *
 * <p>Two kinds of target:
 * <ul>
 * <li>a {@link FileChannel} (regular file, block device): each chunk is written at its offset
 *     with positional writes as soon as it is decoded (out of order). With {@code sparse} on,
 *     zero chunks are not written at all: the caller must give a target that already reads as
 *     zeros there and has the final length (a fresh file extended to the size);</li>
 * <li>an {@link OutputStream} (stdout, a pipe): fetched in parallel, written strictly in order;
 *     {@code sparse} has no effect.</li>
 * </ul>
 * Zero chunks of a fixed index are recognised by their digest ({@link ZeroChunks#digest}) and
 * are never fetched. Progress counts the plaintext bytes of finished chunks.
 */
public final class ImageRestore {
    private int workers = Runtime.getRuntime().availableProcessors();
    private int window = -1;
    private boolean sparse;
    private boolean verify = true;
    private CryptConfig crypt;
    private ProgressListener progress = ProgressListener.NONE;

    /** Fetch/decode threads, at least 1 (default: available processors). */
    public ImageRestore workers(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("fetch workers must be at least 1, got " + n);
        }
        this.workers = n;
        return this;
    }

    /** Chunks in flight, at least 1 (default {@code 2 * workers + 2}). */
    public ImageRestore window(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + n);
        }
        this.window = n;
        return this;
    }

    /** Skip writing zero chunks to a {@link FileChannel} target (default off). */
    public ImageRestore sparse(boolean on) {
        this.sparse = on;
        return this;
    }

    /** Check each decoded chunk's SHA-256 against its digest (default on; off only for encrypted data). */
    public ImageRestore verify(boolean on) {
        this.verify = on;
        return this;
    }

    /**
     * Decrypts encrypted chunks with this key (default null: an encrypted chunk fails with
     * "encrypted, key needed"); digests are then checked as SHA-256(data ‖ id_key) and zero
     * chunks recognised by their keyed digest.
     */
    public ImageRestore crypt(CryptConfig key) {
        this.crypt = key;
        return this;
    }

    /** Receives the plaintext bytes of every finished chunk (default: none). */
    public ImageRestore progress(ProgressListener listener) {
        this.progress = listener == null ? ProgressListener.NONE : listener;
        return this;
    }

    /** The effective window. */
    public int window() {
        return window > 0 ? window : 2 * workers + 2;
    }

    /**
     * Restores into a channel with positional writes (the channel position is not used).
     *
     * @param index    the index to restore
     * @param source   where chunks come from
     * @param target   a writable channel; for {@code sparse}, pre-sized and reading as zeros
     * @param resource name of the archive for error messages (e.g. {@code disk.img.fidx})
     * @throws CorruptDataException if a chunk has the wrong length or content
     * @throws IOException if fetching or writing fails (e.g. {@code MissingChunkException},
     *         {@code EncryptedDataException})
     */
    public RestoreStats restore(IndexFile index, ChunkSource source, FileChannel target, String resource)
            throws IOException {
        long start = System.nanoTime();
        int n = index.chunkCount();
        ZeroDigests zeros = new ZeroDigests(index, crypt);
        Counters c = new Counters();
        int permits = window();
        Semaphore slots = new Semaphore(permits);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ExecutorService pool = Workers.pool(workers, "jpbs-restore-worker");
        try {
            for (int i = 0; i < n && failure.get() == null; i++) {
                int len = index.chunkLength(i);
                boolean zero = zeros.isZero(index.digest(i), len);
                if (zero && sparse) {
                    c.zero(len);
                    c.skippedBytes.add(len);
                    progress.advance(len);
                    continue;
                }
                slots.acquire();
                int idx = i;
                pool.execute(() -> {
                    try {
                        byte[] data = zero ? zeros.buffer(len) : fetch(index, idx, source, resource, c);
                        if (zero) {
                            c.zero(len);
                        } else if (sparse && ZeroChunks.isZero(data, 0, len)) {
                            c.zero(len);
                            c.skippedBytes.add(len);
                            progress.advance(len);
                            return;
                        }
                        writeFully(target, data, len, index.chunkStart(idx));
                        progress.advance(len);
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    } finally {
                        slots.release();
                    }
                });
            }
            slots.acquire(permits);
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("restore of " + resource + " interrupted");
        } finally {
            pool.shutdown();
        }
        Workers.rethrow(failure.get());
        return c.stats(index, System.nanoTime() - start);
    }

    /**
     * Restores into a stream, strictly in order, fetching up to {@code window} chunks ahead.
     * The stream is flushed, not closed.
     *
     * @throws CorruptDataException if a chunk has the wrong length or content
     * @throws IOException if fetching or writing fails
     */
    public RestoreStats restore(IndexFile index, ChunkSource source, OutputStream out, String resource)
            throws IOException {
        long start = System.nanoTime();
        int n = index.chunkCount();
        ZeroDigests zeros = new ZeroDigests(index, crypt);
        Counters c = new Counters();
        int permits = window();
        ArrayDeque<Future<byte[]>> ahead = new ArrayDeque<>();
        ExecutorService pool = Workers.pool(workers, "jpbs-restore-worker");
        int next = 0;
        try {
            for (int i = 0; i < n; i++) {
                while (next < n && ahead.size() < permits) {
                    int idx = next++;
                    int len = index.chunkLength(idx);
                    if (zeros.isZero(index.digest(idx), len)) {
                        ahead.add(CompletableFuture.completedFuture(null));
                    } else {
                        ahead.add(pool.submit(() -> fetch(index, idx, source, resource, c)));
                    }
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
            Workers.rethrow(e.getCause());
        } finally {
            ahead.forEach(f -> f.cancel(true));
            pool.shutdownNow();
        }
        return c.stats(index, System.nanoTime() - start);
    }

    private byte[] fetch(IndexFile index, int i, ChunkSource source, String resource, Counters c)
            throws IOException {
        byte[] data = source.readChunk(index.digest(i), index.chunkLength(i), crypt);
        check(index, i, data, verify, crypt, resource);
        c.fetchedChunks.increment();
        c.fetchedBytes.add(index.chunkLength(i));
        return data;
    }

    /**
     * Checks a decoded chunk: its length must be the index's chunk length and, with
     * {@code verify}, its SHA-256 must be its digest.
     *
     * @throws CorruptDataException naming the chunk, its number and offset
     */
    static void check(IndexFile index, int i, byte[] data, boolean verify, CryptConfig crypt, String resource)
            throws CorruptDataException {
        Digest d = index.digest(i);
        int len = index.chunkLength(i);
        if (data.length != len) {
            throw new CorruptDataException("chunk " + d.hex(), -1, "decoded to " + data.length
                    + " bytes, but " + resource + " expects " + len + " (chunk #" + i + ")");
        }
        if (verify) {
            Digest actual = org.jpbs.core.blob.EncodedChunk.digest(data, 0, len, crypt);
            if (!actual.equals(d)) {
                throw new CorruptDataException("chunk " + d.hex(), -1, "content does not match its digest (hashes to "
                        + actual.hex() + "; " + resource + " chunk #" + i + " at byte " + index.chunkStart(i) + ")");
            }
        }
    }

    static void writeFully(FileChannel target, byte[] data, int len, long offset) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(data, 0, len);
        while (bb.hasRemaining()) {
            target.write(bb, offset + bb.position());
        }
    }
}
