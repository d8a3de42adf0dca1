package org.jpbs.datastore.gc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jpbs.core.digest.Digest;

/**
 * The marking threads: each owns a {@link GcFs.Marker} and touches the digests of the batches
 * handed to {@link #submit}. The queue is bounded, so the walking thread can never run far
 * ahead. A missing chunk is a warning ("unable to access non-existent chunk …, required by …")
 * and its {@code .0.bad} … {@code .9.bad} copies are touched instead (spec
 * {@code pbs-datastore-ops.md} §1.4 item 3, §1.7); any other error stops the pool and is
 * rethrown by {@link #submit} or {@link #finish}.
 */
final class TouchPool {
    /** A digest and the file that references it (for warnings). */
    record Ref(Digest digest, Path requiredBy) {}

    private static final List<Ref> POISON = new ArrayList<>();

    private final GcFs fs;
    private final Path chunksDir;
    private final GcListener listener;
    private final BlockingQueue<List<Ref>> queue;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong missing = new AtomicLong();
    private final AtomicReference<IOException> failure = new AtomicReference<>();
    private boolean finished;

    TouchPool(GcFs fs, Path chunksDir, int nThreads, GcListener listener) {
        this.fs = fs;
        this.chunksDir = chunksDir;
        this.listener = listener;
        this.queue = new ArrayBlockingQueue<>(2 * nThreads + 2);
        for (int i = 0; i < nThreads; i++) {
            Thread t = Thread.ofPlatform().name("jpbs-gc-mark-" + i).daemon(true).unstarted(this::work);
            threads.add(t);
            t.start();
        }
    }

    /** Hands a batch to the threads; blocks while the queue is full. */
    void submit(List<Ref> batch) throws IOException {
        checkFailure();
        if (batch.isEmpty()) {
            return;
        }
        try {
            while (!queue.offer(batch, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
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
            for (int i = 0; i < threads.size(); i++) {
                try {
                    queue.put(POISON);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("garbage collection interrupted");
                }
            }
            for (Thread t : threads) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("garbage collection interrupted");
                }
            }
        }
        checkFailure();
    }

    /** Stops the threads after an error elsewhere (does not wait for queued work). */
    void abort() {
        failure.compareAndSet(null, new IOException("garbage collection aborted"));
        queue.clear();
        for (int i = 0; i < threads.size(); i++) {
            queue.offer(POISON);
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
            m = fs.openMarker(chunksDir);
        } catch (IOException e) {
            failure.compareAndSet(null, e);
        }
        try {
            while (true) {
                List<Ref> batch = queue.take();
                if (batch == POISON) {
                    return;
                }
                if (m == null || failure.get() != null) {
                    continue; // keep draining so that nobody blocks on a full queue
                }
                try {
                    touchAll(m, batch);
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

    private void touchAll(GcFs.Marker m, List<Ref> batch) throws IOException {
        for (Ref r : batch) {
            if (!m.touch(r.digest())) {
                missing.incrementAndGet();
                listener.warning("unable to access non-existent chunk " + r.digest().hex()
                        + ", required by " + r.requiredBy());
                for (int n = 0; n <= 9; n++) {
                    m.touchBad(r.digest(), n);
                }
            }
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
