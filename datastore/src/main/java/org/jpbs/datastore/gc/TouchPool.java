package org.jpbs.datastore.gc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.DigestScan;

/**
 * The marking threads. The walking thread reads index files and hands out slices of their
 * entries; each thread claims the digests of its slice in the shared {@link DigestCache}
 * (a digest some thread already claimed in this run is skipped), optionally sorts what it
 * claimed by name (directory order), and touches those chunks through its own
 * {@link GcFs.Marker}. So both the per-entry work (reading digests, cache lookups) and the
 * touches run on all threads, and the walking thread is never the bottleneck. The queue is
 * bounded: at most {@code 2·threads+2} slices are waiting.
 *
 * <p>A missing chunk is a warning ("unable to access non-existent chunk …, required by …") and
 * its {@code .0.bad} … {@code .9.bad} copies are touched instead ({@code docs/gc.md#garbage-collection}, {@code docs/gc.md#errors}); any other error stops the pool and is rethrown
 * by {@link #submit} or {@link #finish}.
 */
final class TouchPool {
    /** Index entries per slice. */
    static final int SLICE = 4096;

    /** Work for the threads. */
    sealed interface Task permits Slice, Refs, Stop {}

    /** Entries {@code [from, to)} of an index. */
    record Slice(DigestScan scan, int from, int to, Path index) implements Task {}

    /** Digests referenced by something other than an index file (a running backup). */
    record Refs(List<Digest> digests, Path from) implements Task {}

    private record Stop() implements Task {}

    private static final Stop STOP = new Stop();

    /** Opens one marker per thread: the directory fast path ({@link GcFs#openMarker}) or {@link StoreMarker}. */
    @FunctionalInterface
    interface Markers {
        GcFs.Marker open() throws IOException;
    }

    private final GcFs fs;
    private final Markers markers;
    private final Path chunksDir;
    private final DigestCache cache;
    private final boolean sorted;
    private final GcListener listener;
    private final BlockingQueue<Task> queue;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong missing = new AtomicLong();
    private final AtomicReference<IOException> failure = new AtomicReference<>();
    private boolean finished;

    /**
     * @param chunksDir the {@code .chunks} directory of a directory store (a chunk a killed GC left
     *                  half-removed is put back), or null for any other store
     */
    TouchPool(GcFs fs, Markers markers, Path chunksDir, int nThreads, DigestCache cache, boolean sorted,
              GcListener listener) {
        this.fs = fs;
        this.markers = markers;
        this.chunksDir = chunksDir;
        this.cache = cache;
        this.sorted = sorted;
        this.listener = listener;
        this.queue = new ArrayBlockingQueue<>(2 * nThreads + 2);
        for (int i = 0; i < nThreads; i++) {
            Thread t = Thread.ofPlatform().name("jpbs-gc-mark-" + i).daemon(true).unstarted(this::work);
            threads.add(t);
            t.start();
        }
    }

    /** Hands the entries of an index to the threads, in slices; blocks while the queue is full. */
    void submitIndex(DigestScan scan, Path index) throws IOException {
        for (int from = 0; from < scan.count(); from += SLICE) {
            submit(new Slice(scan, from, Math.min(scan.count(), from + SLICE), index));
        }
    }

    /** Hands a task to the threads; blocks while the queue is full. */
    void submit(Task task) throws IOException {
        checkFailure();
        try {
            while (!queue.offer(task, 100, TimeUnit.MILLISECONDS)) {
                checkFailure();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("garbage collection interrupted");
        }
    }

    /** Waits until every submitted digest is touched; rethrows the first error. Idempotent. */
    void finish() throws IOException {
        if (!finished) {
            finished = true;
            try {
                for (int i = 0; i < threads.size(); i++) {
                    queue.put(STOP);
                }
                for (Thread t : threads) {
                    t.join();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("garbage collection interrupted");
            }
        }
        checkFailure();
    }

    /** Stops the threads after an error elsewhere (does not wait for queued work). */
    void abort() {
        failure.compareAndSet(null, new IOException("garbage collection aborted"));
        queue.clear();
        for (int i = 0; i < threads.size(); i++) {
            queue.offer(STOP);
        }
    }

    private void checkFailure() throws IOException {
        IOException e = failure.get();
        if (e != null) {
            throw e;
        }
    }

    private void work() {
        GcFs.Marker m = null;
        try {
            m = markers.open();
        } catch (IOException e) {
            failure.compareAndSet(null, e);
        }
        try {
            while (true) {
                Task task = queue.take();
                if (task == STOP) {
                    return;
                }
                if (m == null || failure.get() != null) {
                    continue; // keep draining so that nobody blocks on a full queue
                }
                try {
                    run(m, task);
                } catch (java.nio.file.AccessDeniedException e) {
                    failure.compareAndSet(null, new IOException(
                            "cannot continue garbage-collection safely, permission denied on " + e.getFile(), e));
                } catch (IOException e) {
                    failure.compareAndSet(null, e);
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, new IOException("marking thread failed: " + e, e));
                }
            }
        } catch (InterruptedException e) {
            failure.compareAndSet(null, new java.io.InterruptedIOException("garbage collection interrupted"));
        } finally {
            if (m != null) {
                calls.addAndGet(m.calls());
                m.close();
            }
        }
    }

    private void run(GcFs.Marker m, Task task) throws IOException {
        List<Digest> claimed = new ArrayList<>();
        Path from;
        if (task instanceof Slice s) {
            from = s.index();
            DigestScan scan = s.scan();
            for (int i = s.from(); i < s.to(); i++) {
                if (!cache.insert(scan.word(i, 0), scan.word(i, 1), scan.word(i, 2), scan.word(i, 3))) {
                    claimed.add(scan.digest(i));
                }
            }
        } else if (task instanceof Refs r) {
            from = r.from();
            for (Digest d : r.digests()) {
                if (!cache.insert(d)) {
                    claimed.add(d);
                }
            }
        } else {
            return;
        }
        if (sorted) {
            claimed.sort(null); // by name: chunk directory by chunk directory
        }
        for (Digest d : claimed) {
            if (!m.touch(d) && !(recoverRemoving(d) && m.touch(d))) {
                missing.incrementAndGet();
                listener.warning("unable to access non-existent chunk " + d.hex() + ", required by " + from);
                for (int n = 0; n <= 9; n++) {
                    m.touchBad(d, n);
                }
            }
        }
    }

    /**
     * A referenced chunk is missing: if a killed GC left it renamed to
     * {@code <digest>.gc-removing} (see {@code SweepPhase}), put it back. True if put back.
     */
    private boolean recoverRemoving(Digest d) {
        if (chunksDir == null) {
            return false; // not a directory store: it has no half-removed chunks
        }
        Path file = chunksDir.resolve(d.prefix()).resolve(d.hex());
        Path removing = chunksDir.resolve(d.prefix()).resolve(d.hex() + SweepPhase.REMOVING);
        try {
            try {
                fs.link(removing, file);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // a copy exists again
            }
            fs.delete(removing);
            listener.info("put back chunk " + d.hex() + " left half-removed by a killed garbage collection");
            return true;
        } catch (IOException e) {
            return false; // no such leftover (the usual case), or it cannot be restored: reported as missing
        }
    }

    /** Atime updates made (valid after {@link #finish}). */
    long calls() {
        return calls.get();
    }

    /** Referenced chunks that did not exist. */
    long missing() {
        return missing.get();
    }
}
