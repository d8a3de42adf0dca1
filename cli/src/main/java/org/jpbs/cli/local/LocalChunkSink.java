package org.jpbs.cli.local;

import java.io.IOException;
import java.util.Set;
import org.jpbs.client.ChunkSink;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.datastore.chunks.ChunkStore;

/**
 * A {@link ChunkSink} over a local {@link ChunkStore}. "Known" chunks are the digests of the
 * previous snapshot's index of the same archive (handed in), provided the chunk file still
 * exists; reusing one touches it (atime, so garbage collection keeps it, {@code docs/gc.md#garbage-collection}). Thread-safe: the store is, and the known set is only read.
 */
public final class LocalChunkSink implements ChunkSink {
    private final ChunkStore store;
    private final Set<Digest> known;

    /**
     * @param store the datastore's chunk store
     * @param known digests listed by the previous snapshot (not modified; may be empty)
     */
    public LocalChunkSink(ChunkStore store, Set<Digest> known) {
        this.store = store;
        this.known = known;
    }

    @Override
    public boolean isKnown(Digest digest) {
        return known.contains(digest) && store.exists(digest);
    }

    @Override
    public void reuse(Digest digest) throws IOException {
        if (!store.touch(digest)) {
            throw new MissingChunkException(digest, "vanished from " + store.location(digest)
                    + " during the backup");
        }
    }

    @Override
    public boolean insert(EncodedChunk chunk) throws IOException {
        return !store.insert(chunk.digest(), chunk.blob()).duplicate();
    }
}
