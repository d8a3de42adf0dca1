package org.jpbs.client;

import org.jpbs.core.snapshot.ChunkSink;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jpbs.core.ChunkSource;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.core.index.IndexFile;

/** Test helper: a thread-safe in-memory chunk store that is both a sink and a source. */
public class MemoryChunkStore implements ChunkSink, ChunkSource {
    public final Map<Digest, DataBlob> chunks = new ConcurrentHashMap<>();
    public final Set<Digest> known = ConcurrentHashMap.newKeySet();
    public final AtomicInteger inserts = new AtomicInteger();
    public final AtomicInteger newInserts = new AtomicInteger();
    public final AtomicInteger reuses = new AtomicInteger();

    @Override
    public boolean isKnown(Digest digest) {
        return known.contains(digest);
    }

    @Override
    public void reuse(Digest digest) throws IOException {
        if (!chunks.containsKey(digest)) {
            throw new MissingChunkException(digest, "memory store");
        }
        reuses.incrementAndGet();
    }

    @Override
    public boolean insert(EncodedChunk chunk) {
        inserts.incrementAndGet();
        boolean fresh = chunks.putIfAbsent(chunk.digest(), chunk.blob()) == null;
        if (fresh) {
            newInserts.incrementAndGet();
        }
        return fresh;
    }

    @Override
    public byte[] readChunk(Digest digest, int expectedSize, CryptConfig crypt) throws IOException {
        DataBlob blob = chunks.get(digest);
        if (blob == null) {
            throw new MissingChunkException(digest, "memory store");
        }
        return blob.decode("chunk " + digest.hex(), expectedSize, crypt);
    }

    /** Marks every digest of the index as known (as a previous snapshot would). */
    public void knowAll(IndexFile index) {
        for (int i = 0; i < index.chunkCount(); i++) {
            known.add(index.digest(i));
        }
    }

    /** Resets the call counters. */
    public void resetCounters() {
        inserts.set(0);
        newInserts.set(0);
        reuses.set(0);
    }
}
