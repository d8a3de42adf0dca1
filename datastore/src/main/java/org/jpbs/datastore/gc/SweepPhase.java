package org.jpbs.datastore.gc;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.jpbs.datastore.os.DirHandle;
import org.jpbs.datastore.os.FileStat;

/**
 * Phase 2 of garbage collection, sweep ({@code docs/gc.md#garbage-collection}): threads take
 * the chunk directories {@code 0000}…{@code ffff} in runs of 64 and classify every chunk file
 * ({@code <64 hex>}) and bad copy ({@code <64 hex>.<n>.bad}) by its atime: older than
 * {@code minAtime} is removed, older than {@code oldestWriter} (by more than
 * {@link #TIMESTAMP_SLACK}) is "pending", the rest is in use.
 * Before removing, the entry is stat-ed again under the chunk store's lock for that digest, so
 * an insert or touch of the same chunk in this JVM cannot lose its file. Chunk temp files
 * ({@code *.tmp_XXXXXX}) of killed writers are removed when their mtime is older than
 * {@code minAtime}. With {@code dryRun} nothing is removed and "removed" means "would be removed".
 * A directory that cannot be read, or a file that cannot be removed, aborts the phase.
 */
final class SweepPhase {
    private static final int RUN = 64;
    /** Suffix of a chunk being removed ({@link DirectoryChunkStore#removeLocked}). */
    static final String REMOVING = DirectoryChunkStore.GC_REMOVING;

    /** Counters of one sweep. */
    record Result(long diskBytes, long diskChunks, long removedBytes, long removedChunks, long pendingBytes,
                  long pendingChunks, long removedBad, long stillBad, long removedTempFiles, long entries) {}

    private final GcFs fs;
    private final DirectoryChunkStore store;
    private final Path chunksDir;
    private final Instant minAtime;
    /**
     * File times come from the kernel's coarse clock, which lags {@link Instant#now()} by up to a
     * tick (a few ms): a chunk touched right after phase 1 started can carry an atime just before
     * {@code oldestWriter}. It is in use, not pending, so "pending" means older than
     * {@code oldestWriter} by more than this slack (only the statistic depends on it; what is
     * removed is decided by {@code minAtime} alone).
     */
    static final java.time.Duration TIMESTAMP_SLACK = java.time.Duration.ofSeconds(1);
    private final boolean dryRun;
    private final GcListener listener;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger dirsDone = new AtomicInteger();
    private final AtomicReference<IOException> failure = new AtomicReference<>();
    private final SweepCounters counters;

    SweepPhase(GcFs fs, DirectoryChunkStore store, Instant minAtime, Instant oldestWriter, boolean dryRun, GcListener listener) {
        this.fs = fs;
        this.store = store;
        this.chunksDir = store.root().resolve(".chunks");
        this.minAtime = minAtime;
        this.counters = new SweepCounters(oldestWriter);
        this.dryRun = dryRun;
        this.listener = listener;
    }

    Result run(int nThreads) throws IOException {
        onThreads(nThreads, this::work, failure);
        return counters.result();
    }

    /**
     * Runs {@code work} on {@code n} sweep threads (at least one) and waits for them; rethrows
     * the first failure they recorded in {@code failure}.
     */
    static void onThreads(int n, Runnable work, AtomicReference<IOException> failure) throws IOException {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < Math.max(1, n); i++) {
            threads.add(Thread.ofPlatform().name("jpbs-gc-sweep-" + i).daemon(true).start(work));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure.compareAndSet(null, new java.io.InterruptedIOException("garbage collection interrupted"));
            }
        }
        IOException e = failure.get();
        if (e != null) {
            throw e;
        }
    }

    private void work() {
        try {
            int start;
            while (failure.get() == null && (start = next.getAndAdd(RUN)) < 65536) {
                for (int p = start; p < start + RUN && failure.get() == null; p++) {
                    sweepDir(chunksDir.resolve(String.format("%04x", p)));
                    listener.progress(GcListener.Phase.SWEEP, dirsDone.incrementAndGet(), 65536);
                }
            }
        } catch (IOException e) {
            failure.compareAndSet(null, e);
        } catch (RuntimeException e) {
            failure.compareAndSet(null, new IOException("sweep thread failed: " + e, e));
        }
    }

    private void sweepDir(Path dir) throws IOException {
        GcFs.Dir d;
        try {
            d = fs.openDir(dir);
        } catch (NoSuchFileException e) {
            return;
        } catch (AccessDeniedException e) {
            throw new IOException("garbage collection cannot read chunk directory " + dir + ": permission denied", e);
        }
        try (d) {
            for (DirHandle.Entry e : d.entries()) {
                String name = e.name();
                if (e.type() != DirHandle.DT_REG && e.type() != DirHandle.DT_UNKNOWN) {
                    continue;
                }
                Digest digest = chunkDigest(name);
                if (digest != null) {
                    counters.entry();
                    sweepChunk(d, dir, name, digest, name.length() > 64);
                } else if (name.contains(".tmp_")) {
                    sweepTemp(d, dir, name);
                } else if (name.length() == 64 + REMOVING.length() && name.endsWith(REMOVING)
                        && Digest.isHex(name.substring(0, 64))) {
                    sweepRemoving(d, dir, name);
                }
            }
        } catch (NoSuchFileException e) {
            // the directory vanished: nothing to sweep
        }
    }

    /** The digest of {@code <64 hex>} or {@code <64 hex>.<n>.bad}, else null. */
    static Digest chunkDigest(String name) {
        int len = name.length();
        if (len == 64 || (len == 70 && name.charAt(64) == '.' && Character.isDigit(name.charAt(65))
                && name.endsWith(".bad"))) {
            String hex = name.substring(0, 64);
            return Digest.isHex(hex) ? Digest.parse(hex) : null;
        }
        return null;
    }

    /** The entry's stat, or null if it vanished or is not a regular file. */
    private static FileStat regularFile(GcFs.Dir d, String name) throws IOException {
        try {
            FileStat st = d.stat(name);
            return st.regular() ? st : null;
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private void sweepChunk(GcFs.Dir d, Path dir, String name, Digest digest, boolean bad) throws IOException {
        FileStat st = regularFile(d, name);
        if (st == null) {
            return;
        }
        classify:
        if (st.atimeBefore(minAtime)) {
            ReentrantLock lock = store.lockFor(digest);
            lock.lock();
            try {
                try {
                    st = d.stat(name); // again, under the lock: an insert may just have touched it
                } catch (NoSuchFileException e) {
                    return;
                }
                if (st.atimeBefore(minAtime)) {
                    if (!dryRun) {
                        FileStat after = bad ? null : store.removeLocked(digest, minAtime, fs);
                        if (after != null) {
                            st = after; // a writer of another process touched it at the last moment: kept
                            break classify;
                        }
                        if (bad) {
                            try {
                                fs.delete(dir.resolve(name));
                            } catch (IOException e) {
                                counters.stillBad();
                                throw new IOException("garbage collection could not remove " + dir.resolve(name)
                                        + ": " + e.getMessage(), e);
                            }
                        }
                    }
                    counters.removed(bad, st.size());
                    return;
                }
            } finally {
                lock.unlock();
            }
        }
        counters.kept(st.atimeBefore(counters.pendingBefore()), bad, st.size());
    }

    /** A {@code <digest>.gc-removing} left by a killed GC: put back if recently touched and no copy exists, else removed. */
    private void sweepRemoving(GcFs.Dir d, Path dir, String name) throws IOException {
        FileStat st = regularFile(d, name);
        if (st == null) {
            return;
        }
        Path file = dir.resolve(name.substring(0, 64));
        if (!dryRun) {
            if (st.atimeBefore(minAtime)) {
                fs.delete(dir.resolve(name));
            } else {
                DirectoryChunkStore.putBack(dir.resolve(name), file, fs);
            }
        }
        listener.info((dryRun ? "would handle" : "handled") + " leftover " + dir.resolve(name) + " of a killed garbage collection");
    }

    private void sweepTemp(GcFs.Dir d, Path dir, String name) throws IOException {
        FileStat st = regularFile(d, name);
        if (st != null && st.mtimeSec() < minAtime.getEpochSecond()) {
            if (!dryRun) {
                fs.delete(dir.resolve(name));
            }
            counters.removedTemp();
            listener.info((dryRun ? "would remove" : "removed") + " stale temporary chunk file " + dir.resolve(name));
        }
    }
}
