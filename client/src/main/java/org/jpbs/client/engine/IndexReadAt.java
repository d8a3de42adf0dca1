package org.jpbs.client.engine;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.jpbs.client.pxar.ReadAt;
import org.jpbs.core.ChunkSource;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.snapshot.SnapshotSource;

/**
 * Positional reads of an archive stored as an index ({@code docs/pxar.md#split-archives}): the
 * chunk holding a position is read from the source, decrypted if needed, checked against its
 * digest and kept among the last few chunks read, so sequential and nearby reads (a pxar
 * accessor walking goodbye tables, a payload stream read file by file) read each chunk once.
 * Thread-safe (reads are serialized).
 */
public final class IndexReadAt implements ReadAt {
    private static final int CACHED_CHUNKS = 8;

    private final IndexFile index;
    private final ChunkSource source;
    private final CryptConfig key;
    private final String resource;
    private final Map<Integer, byte[]> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, byte[]> eldest) {
            return size() > CACHED_CHUNKS;
        }
    };
    private final Map<Integer, CompletableFuture<DataBlob>> ahead = new HashMap<>();
    private long chunksRead;
    private int prefetch;

    /**
     * @param key      the key of an encrypted archive (null for plain chunks)
     * @param resource the archive's name for messages
     */
    public IndexReadAt(IndexFile index, ChunkSource source, CryptConfig key, String resource) {
        this.index = index;
        this.source = source;
        this.key = key;
        this.resource = resource;
    }

    @Override
    public long size() {
        return index.size();
    }

    @Override
    public synchronized int read(long pos, byte[] b, int off, int len) throws IOException {
        if (pos >= index.size()) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int i = index.findChunk(pos);
        byte[] c = chunk(i);
        int at = (int) (pos - index.chunkStart(i));
        int n = Math.min(len, c.length - at);
        System.arraycopy(c, at, b, off, n);
        return n;
    }

    /** Chunks read from the source so far. */
    public synchronized long chunksRead() {
        return chunksRead;
    }

    /**
     * Reads up to {@code n} chunks ahead of the one asked for, when the source is a server
     * ({@link SnapshotSource.ChunkAccess#ASYNC}): for a stream read front to back.
     */
    public synchronized IndexReadAt prefetch(int n) {
        this.prefetch = n;
        return this;
    }

    private byte[] chunk(int i) throws IOException {
        byte[] c = cache.get(i);
        if (c != null) {
            return c;
        }
        Digest d = index.digest(i);
        int len = index.chunkLength(i);
        c = prefetch > 0 && source instanceof SnapshotSource s && s.chunkAccess() == SnapshotSource.ChunkAccess.ASYNC
                ? fetched(s, i) : source.readChunk(d, len, key);
        if (c.length != len || !EncodedChunk.digest(c, 0, c.length, key).equals(d)) {
            throw new CorruptDataException(resource + ": chunk " + d.hex(), -1, "content does not match its digest");
        }
        chunksRead++;
        cache.put(i, c);
        return c;
    }

    /** Chunk {@code i} from the fetches in flight, starting those up to {@code prefetch} ahead. */
    private byte[] fetched(SnapshotSource s, int i) throws IOException {
        ahead.keySet().removeIf(k -> k < i);
        for (int j = i; j <= Math.min(i + prefetch, index.chunkCount() - 1); j++) {
            ahead.computeIfAbsent(j, k -> s.fetchChunk(index.digest(k)));
        }
        Digest d = index.digest(i);
        try {
            return ahead.remove(i).join().decode(resource + ": chunk " + d.hex(), index.chunkLength(i), key);
        } catch (CompletionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause().getMessage(), e.getCause());
        }
    }
}
