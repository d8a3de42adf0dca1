package org.jpbs.datastore.gc;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.jpbs.datastore.chunks.ChunkStore;

/**
 * Phase 2 of garbage collection on a chunk store that is not a directory
 * ({@code docs/gc.md#any-chunk-store}): {@link ChunkStore#forEachChunk} lists every chunk with
 * its last use; one older than {@code minAtime} is removed with
 * {@link ChunkStore#removeIfUnused}, which re-checks the last use under the store's lock for
 * the digest (a chunk an insert or touch of this process uses at that moment stays); one older
 * than the oldest running writer is "pending", the rest is in use. Removals run on
 * {@code threads} threads (each is a request to an object store). With {@code dryRun} nothing
 * is removed. The counters are those of {@link SweepPhase}.
 */
final class StoreSweep {
    private final ChunkStore store;
    private final Instant minAtime;
    private final Instant pendingBefore;
    private final boolean dryRun;
    private final GcListener listener;
    private final LongAdder diskBytes = new LongAdder();
    private final LongAdder diskChunks = new LongAdder();
    private final LongAdder removedBytes = new LongAdder();
    private final LongAdder removedChunks = new LongAdder();
    private final LongAdder pendingBytes = new LongAdder();
    private final LongAdder pendingChunks = new LongAdder();

    StoreSweep(ChunkStore store, Instant minAtime, Instant oldestWriter, boolean dryRun, GcListener listener) {
        this.store = store;
        this.minAtime = minAtime;
        this.pendingBefore = oldestWriter.minus(SweepPhase.TIMESTAMP_SLACK);
        this.dryRun = dryRun;
        this.listener = listener;
    }

    SweepPhase.Result run(int nThreads) throws IOException {
        List<ChunkStore.StoredChunk> candidates = new ArrayList<>();
        long[] entries = new long[1];
        store.forEachChunk(c -> {
            entries[0]++;
            if (c.lastUsed().isBefore(minAtime)) {
                candidates.add(c);
            } else {
                count(c);
            }
        });
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<IOException> failure = new AtomicReference<>();
        Runnable work = () -> {
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
        };
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < Math.max(1, nThreads) && t < candidates.size(); t++) {
            threads.add(Thread.ofPlatform().name("jpbs-gc-sweep-" + t).daemon(true).start(work));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure.compareAndSet(null, new java.io.InterruptedIOException("garbage collection interrupted"));
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        return new SweepPhase.Result(diskBytes.sum(), diskChunks.sum(), removedBytes.sum(), removedChunks.sum(),
                pendingBytes.sum(), pendingChunks.sum(), 0, 0, 0, entries[0]);
    }

    private void remove(ChunkStore.StoredChunk c) throws IOException {
        if (dryRun) {
            removedChunks.increment();
            removedBytes.add(c.size());
            return;
        }
        switch (store.removeIfUnused(c.digest(), minAtime)) {
            case REMOVED -> {
                removedChunks.increment();
                removedBytes.add(c.size());
            }
            case KEPT -> { // used since it was listed: in use now
                diskChunks.increment();
                diskBytes.add(c.size());
            }
            case ABSENT -> { }
        }
    }

    private void count(ChunkStore.StoredChunk c) {
        if (c.lastUsed().isBefore(pendingBefore)) {
            pendingChunks.increment();
            pendingBytes.add(c.size());
        } else {
            diskChunks.increment();
            diskBytes.add(c.size());
        }
    }
}
