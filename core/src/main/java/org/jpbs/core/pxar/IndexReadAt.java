package org.jpbs.core.pxar;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.core.ChunkSource;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.IndexFile;

/**
 * Positional reads of the byte stream a chunk index describes (a {@code NAME.pxar.didx} or
 * {@code catalog.pcat1.didx}), loading only the chunks a read touches, from any
 * {@link ChunkSource} (a local datastore, a server's reader session). Each loaded chunk is
 * checked (length, and SHA-256 against its digest) and the last {@code cacheChunks} are kept,
 * so the many small reads of a goodbye-table lookup cost one load per chunk. This is what makes
 * a single-file restore read a few chunks instead of the archive ({@code docs/pxar.md#random-access}).
 * Thread-safe: a chunk may be loaded twice by concurrent readers, never handed out unchecked.
 */
public final class IndexReadAt implements ReadAt {
    private final IndexFile index;
    private final ChunkSource source;
    private final CryptConfig crypt;
    private final String resource;
    private final Map<Integer, byte[]> cache;
    private final AtomicLong loaded = new AtomicLong();
    private final AtomicLong loadedBytes = new AtomicLong();

    /**
     * @param index       the archive's index
     * @param source      where its chunks are read
     * @param crypt       the key of an encrypted archive, or null
     * @param resource    the archive's name for messages
     * @param cacheChunks how many decoded chunks to keep (at least 1)
     */
    public IndexReadAt(IndexFile index, ChunkSource source, CryptConfig crypt, String resource, int cacheChunks) {
        this.index = index;
        this.source = source;
        this.crypt = crypt;
        this.resource = resource;
        int max = Math.max(1, cacheChunks);
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, byte[]> eldest) {
                return size() > max;
            }
        };
    }

    @Override
    public long size() {
        return index.size();
    }

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
        byte[] chunk = chunk(i);
        int inChunk = (int) (pos - index.chunkStart(i));
        int n = Math.min(len, chunk.length - inChunk);
        System.arraycopy(chunk, inChunk, b, off, n);
        return n;
    }

    /** How many chunks were loaded from the source so far (cache hits not counted). */
    public long chunksLoaded() {
        return loaded.get();
    }

    /** How many plaintext bytes those chunks had. */
    public long bytesLoaded() {
        return loadedBytes.get();
    }

    private byte[] chunk(int i) throws IOException {
        synchronized (cache) {
            byte[] c = cache.get(i);
            if (c != null) {
                return c;
            }
        }
        Digest d = index.digest(i);
        int len = index.chunkLength(i);
        byte[] data = source.readChunk(d, len, crypt);
        if (data.length != len) {
            throw new CorruptDataException("chunk " + d.hex(), -1, "decoded to " + data.length + " bytes, but "
                    + resource + " expects " + len + " (chunk #" + i + ")");
        }
        if (!EncodedChunk.digest(data, 0, len, crypt).equals(d)) {
            throw new CorruptDataException("chunk " + d.hex(), -1, "content does not match its digest ("
                    + resource + " chunk #" + i + " at byte " + index.chunkStart(i) + ")");
        }
        loaded.incrementAndGet();
        loadedBytes.addAndGet(len);
        synchronized (cache) {
            cache.put(i, data);
        }
        return data;
    }
}
