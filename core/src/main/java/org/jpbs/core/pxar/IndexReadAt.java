package org.jpbs.core.pxar;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.LongAdder;
import org.jpbs.core.ChunkSource;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.index.ChunkCheck;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.index.ZeroDigests;
import org.jpbs.core.pipeline.Workers;

/**
 * Random access to the byte stream of an index ({@code docs/pxar.md#random-access}): a
 * {@code NAME.pxar.didx}, a split archive's payload, a catalog, an image. A read at any offset
 * fetches only the chunks it touches from a {@link ChunkSource} (a local datastore, a server's
 * reader session), each checked ({@link ChunkCheck}: length, and the digest unless told
 * otherwise), and keeps them in a chunk cache of bounded size (least recently used chunks are
 * dropped first, the newest always kept), so the many small reads of a goodbye-table lookup cost
 * one fetch per chunk. Concurrent readers of one chunk share one fetch. A read that continues
 * where the previous one ended starts fetching the next {@code readAhead} chunks in the
 * background, so a sequential reader (a file copied out of a mount, a split archive's contents
 * during a restore) does not wait for each chunk in turn. Zero chunks of a fixed index are known
 * by digest and never fetched. Thread-safe; close it to stop the read-ahead threads.
 */
public final class IndexReadAt implements ReadAt, AutoCloseable {
    /** Default cache size: 64 MiB (16 chunks of PBS's 4 MiB). */
    public static final long DEFAULT_CACHE_BYTES = 64L << 20;

    private final IndexFile index;
    private final ChunkSource source;
    private final CryptConfig crypt;
    private final boolean verify;
    private final String resource;
    private final long cacheBytes;
    private final int readAhead;
    private final ZeroDigests zeros;
    private final ExecutorService prefetch;
    private final LongAdder fetched = new LongAdder();
    private final LongAdder fetchedBytes = new LongAdder();
    /** Chunk number to its (possibly still running) fetch, in access order. */
    private final LinkedHashMap<Integer, CompletableFuture<byte[]>> cache = new LinkedHashMap<>(64, 0.75f, true);
    private long cached;
    private volatile long lastEnd = -1;
    /** The chunk whose successors were last requested ahead (once per chunk). */
    private volatile int aheadOf = -1;

    /**
     * A reader with every chunk's digest checked, no read-ahead and a cache of
     * {@code cacheChunks} chunks of PBS's largest average size (4 MiB).
     */
    public IndexReadAt(IndexFile index, ChunkSource source, CryptConfig crypt, String resource, int cacheChunks) {
        this(index, source, crypt, true, Math.max(1, cacheChunks) * (4L << 20), 0, resource);
    }

    /**
     * @param index      the index to read
     * @param source     where chunks come from
     * @param crypt      the key of an encrypted archive, or null
     * @param verify     check each chunk's digest (its length is always checked)
     * @param cacheBytes the chunk cache's size in bytes (at least one chunk is always kept)
     * @param readAhead  chunks fetched ahead of a sequential reader (0: none)
     * @param resource   the archive's name for messages
     */
    public IndexReadAt(IndexFile index, ChunkSource source, CryptConfig crypt, boolean verify, long cacheBytes,
            int readAhead, String resource) {
        this.index = index;
        this.source = source;
        this.crypt = crypt;
        this.verify = verify;
        this.cacheBytes = cacheBytes;
        this.readAhead = readAhead;
        this.resource = resource;
        this.zeros = new ZeroDigests(index, crypt);
        this.prefetch = readAhead > 0 ? Workers.pool(Math.min(readAhead, 4), "read-ahead") : null;
    }

    @Override
    public long size() {
        return index.size();
    }

    /** Chunks fetched from the source so far (zero chunks and cache hits not counted). */
    public long chunksLoaded() {
        return fetched.sum();
    }

    /** The plaintext bytes of those chunks. */
    public long bytesLoaded() {
        return fetchedBytes.sum();
    }

    /**
     * Reads up to {@code len} bytes at {@code pos} (never across more than one chunk).
     *
     * @return bytes read, or -1 if {@code pos} is at or past the end
     * @throws org.jpbs.core.errors.CorruptDataException if a chunk has the wrong length or content
     */
    @Override
    public int read(long pos, byte[] b, int off, int len) throws IOException {
        if (pos < 0) {
            throw new IllegalArgumentException("negative position " + pos);
        }
        if (pos >= index.size()) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int i = index.findChunk(pos);
        boolean sequential = pos == lastEnd;
        byte[] data = chunk(i);
        int at = (int) (pos - index.chunkStart(i));
        int n = Math.min(len, index.chunkLength(i) - at);
        System.arraycopy(data, at, b, off, n);
        lastEnd = pos + n;
        if (sequential && prefetch != null && aheadOf != i) {
            aheadOf = i;
            readAhead(i);
        }
        return n;
    }

    private void readAhead(int i) {
        for (int k = i + 1; k <= i + readAhead && k < index.chunkCount(); k++) {
            int next = k;
            if (!isCached(next)) {
                prefetch.execute(() -> {
                    try {
                        chunk(next);
                    } catch (IOException | RuntimeException e) {
                        // the reader meets the error again when it gets there
                    }
                });
            }
        }
    }

    private boolean isCached(int i) {
        synchronized (cache) {
            return cache.containsKey(i);
        }
    }

    /**
     * The decoded chunk {@code i}, from the cache or fetched (one fetch per chunk at a time); a
     * zero chunk is a shared buffer that may be longer than the chunk.
     */
    private byte[] chunk(int i) throws IOException {
        int len = index.chunkLength(i);
        if (zeros.isZero(index.digest(i), len)) {
            return zeros.buffer(len);
        }
        CompletableFuture<byte[]> f;
        boolean mine = false;
        synchronized (cache) {
            f = cache.get(i);
            if (f == null) {
                f = new CompletableFuture<>();
                cache.put(i, f);
                cached += len;
                mine = true;
                evict();
            }
        }
        if (mine) {
            try {
                byte[] data = source.readChunk(index.digest(i), len, crypt);
                ChunkCheck.check(index, i, data, verify, crypt, resource);
                fetched.increment();
                fetchedBytes.add(len);
                f.complete(data);
            } catch (IOException | RuntimeException e) {
                f.completeExceptionally(e);
                synchronized (cache) {
                    if (cache.remove(i, f)) {
                        cached -= len;
                    }
                }
                throw e;
            }
        }
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading " + resource);
        } catch (ExecutionException e) {
            Workers.rethrow(e);
            throw new IllegalStateException(e); // not reached
        }
    }

    /** Drops the least recently used chunks beyond the budget, keeping the newest one. */
    private void evict() {
        Iterator<Map.Entry<Integer, CompletableFuture<byte[]>>> it = cache.entrySet().iterator();
        while (cached > cacheBytes && cache.size() > 1 && it.hasNext()) {
            Map.Entry<Integer, CompletableFuture<byte[]>> e = it.next();
            it.remove();
            cached -= index.chunkLength(e.getKey());
        }
    }

    /** Stops the read-ahead threads. */
    @Override
    public void close() {
        if (prefetch != null) {
            prefetch.shutdownNow();
        }
    }
}
