package org.jpbs.client.restore;

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
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.pipeline.Workers;

/**
 * Random access to the byte stream of an index ({@code docs/pxar.md#mount}): a read at any
 * offset fetches only the chunks it touches, each decoded and checked against its digest
 * ({@link RestoreRun#check}), and keeps them in a chunk cache of bounded size (least recently
 * used chunks are dropped first). Concurrent readers of one chunk share one fetch. A read that
 * continues where the previous one ended starts fetching the next {@code readAhead} chunks in
 * the background, so a sequential reader (a file copied out of a mount) does not wait for each
 * chunk in turn. Zero chunks of a fixed index are known by digest and never fetched.
 * Thread-safe.
 */
public final class IndexReader implements AutoCloseable {
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
    /** Chunk number to its (possibly still running) fetch, in access order. */
    private final LinkedHashMap<Integer, CompletableFuture<byte[]>> cache = new LinkedHashMap<>(64, 0.75f, true);
    private long cached;
    private volatile long lastEnd = -1;
    /** The chunk whose successors were last requested ahead (once per chunk). */
    private volatile int aheadOf = -1;

    /**
     * @param index      the index to read
     * @param source     where chunks come from (a local datastore or a server's reader session)
     * @param crypt      the key of an encrypted archive, or null
     * @param verify     check each chunk's digest
     * @param cacheBytes the chunk cache's size in bytes (at least one chunk is always kept)
     * @param readAhead  chunks fetched ahead of a sequential reader (0: none)
     * @param resource   the archive's name for messages
     */
    public IndexReader(IndexFile index, ChunkSource source, CryptConfig crypt, boolean verify, long cacheBytes,
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

    /** The length of the stream. */
    public long size() {
        return index.size();
    }

    /** Chunks fetched from the source so far (zero chunks and cache hits not counted). */
    public long chunksFetched() {
        return fetched.sum();
    }

    /**
     * Reads up to {@code len} bytes at {@code pos} (never across more than one chunk).
     *
     * @return bytes read, or -1 if {@code pos} is at or past the end
     * @throws org.jpbs.core.errors.CorruptDataException if a chunk has the wrong length or content
     */
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
        return n;
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
            return zeros.buffer(len); // at least len bytes of zeros, shared
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
                RestoreRun.check(index, i, data, verify, crypt, resource);
                fetched.increment();
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

    @Override
    public void close() {
        if (prefetch != null) {
            prefetch.shutdownNow();
        }
    }
}
