package org.jpbs.datastore.gc;

import java.io.IOException;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.chunks.ChunkStore;

/**
 * The mark of a chunk store that is not a directory ({@code docs/gc.md#any-chunk-store}):
 * {@link ChunkStore#touch} marks a chunk used now. Corrupt copies set aside by verify are not
 * listed by such a store, so there is nothing to mark for them.
 */
final class StoreMarker implements GcFs.Marker {
    private final ChunkStore store;
    private long calls;

    StoreMarker(ChunkStore store) {
        this.store = store;
    }

    @Override
    public boolean touch(Digest digest) throws IOException {
        calls++;
        return store.touch(digest);
    }

    @Override
    public boolean touchBad(Digest digest, int n) {
        return false;
    }

    @Override
    public long calls() {
        return calls;
    }

    @Override
    public void close() {}
}
