package org.jpbs.datastore.gc;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jpbs.datastore.chunks.ChunkStore;

/**
 * Phase 2 of garbage collection on a chunk store that is not a directory
 * ({@code docs/gc.md#any-chunk-store}): {@link ChunkStore#forEachChunk} lists every chunk with
 * its last use; one older than {@code minAtime} is removed with
 * {@link ChunkStore#removeIfUnused}, which re-checks the last use under the store's lock for
 * the digest (a chunk an insert or touch of this process uses at that moment stays); one older
 * than the oldest running writer is "pending", the rest is in use. Removals run on
 * {@code threads} threads (each is a request to an object store). With {@code dryRun} nothing
 * is removed. The counters ({@link SweepCounters}) and the threads are those of {@link SweepPhase}.
 */
final class StoreSweep {
    private final ChunkStore store;
    private final Instant minAtime;
    private final boolean dryRun;
    private final GcListener listener;
    private final SweepCounters counters;

    StoreSweep(ChunkStore store, Instant minAtime, Instant oldestWriter, boolean dryRun, GcListener listener) {
        this.store = store;
        this.minAtime = minAtime;
        this.counters = new SweepCounters(oldestWriter);
        this.dryRun = dryRun;
        this.listener = listener;
    }

    SweepPhase.Result run(int nThreads) throws IOException {
        List<ChunkStore.StoredChunk> candidates = new ArrayList<>();
        store.forEachChunk(c -> {
            counters.entry();
            if (c.lastUsed().isBefore(minAtime)) {
                candidates.add(c);
            } else {
                counters.kept(c.lastUsed().isBefore(counters.pendingBefore()), false, c.size());
            }
        });
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<IOException> failure = new AtomicReference<>();
        SweepPhase.onThreads(Math.min(nThreads, candidates.size()), () -> {
            int i;
            while (failure.get() == null && (i = next.getAndIncrement()) < candidates.size()) {
                try {
                    remove(candidates.get(i));
                } catch (IOException e) {
                    failure.compareAndSet(null, new IOException("garbage collection could not remove chunk "
                            + store.location(candidates.get(i).digest()) + ": " + e.getMessage(), e));
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, new IOException("sweeping thread failed: " + e, e));
                }
                listener.progress(GcListener.Phase.SWEEP, done.incrementAndGet(), candidates.size());
            }
        }, failure);
        return counters.result();
    }

    private void remove(ChunkStore.StoredChunk c) throws IOException {
        if (dryRun) {
            counters.removed(false, c.size());
            return;
        }
        switch (store.removeIfUnused(c.digest(), minAtime)) {
            case REMOVED -> counters.removed(false, c.size());
            case KEPT -> counters.kept(false, false, c.size()); // used since it was listed: in use now
            case ABSENT -> { }
        }
    }
}
