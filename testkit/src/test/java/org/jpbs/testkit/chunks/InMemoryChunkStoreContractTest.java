package org.jpbs.testkit.chunks;

import java.time.Instant;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.chunks.ChunkStore;

/** The chunk-store contract against {@link InMemoryChunkStore} (a fresh store per test). */
class InMemoryChunkStoreContractTest extends ChunkStoreContract {
    private InMemoryChunkStore memory;

    @Override
    protected ChunkStore newStore() {
        memory = new InMemoryChunkStore("contract");
        return memory;
    }

    @Override
    protected void plant(Digest digest, byte[] raw) {
        memory.plant(digest, raw);
    }

    @Override
    protected void setLastUsed(Digest digest, Instant lastUsed) {
        memory.setLastUsed(digest, lastUsed);
    }
}
