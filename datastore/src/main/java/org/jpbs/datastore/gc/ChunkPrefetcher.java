package org.jpbs.datastore.gc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.datastore.os.DirHandle;

/**
 * Chunk metadata prefetch (tuning {@code gc-chunk-metadata-prefetch}): threads that walk the
 * 65,536 chunk directories in name order while the mark phase runs, reading each directory and
 * stat-ing its entries (in inode order when asked), so that directory blocks and inodes are in
 * memory by the time a touch needs them. On a cold disk this turns the mark phase's random
 * metadata reads into a sequential, parallel scan; on a warm store it costs CPU only. Errors are
 * ignored: the prefetch is a hint, the mark phase does the real work.
 */
final class ChunkPrefetcher implements AutoCloseable {
    private final GcFs fs;
    private final Path chunksDir;
    private final boolean inodeOrder;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicLong statted = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stop;

    ChunkPrefetcher(GcFs fs, Path chunksDir, int nThreads, boolean inodeOrder) {
        this.fs = fs;
        this.chunksDir = chunksDir;
        this.inodeOrder = inodeOrder;
        for (int i = 0; i < nThreads; i++) {
            Thread t = Thread.ofPlatform().name("jpbs-gc-prefetch-" + i).daemon(true).unstarted(this::work);
            threads.add(t);
            t.start();
        }
    }

    private void work() {
        int p;
        while (!stop && (p = next.getAndIncrement()) < 65536) {
            Path dir = chunksDir.resolve(String.format("%04x", p));
            try (GcFs.Dir d = fs.openDir(dir)) {
                List<DirHandle.Entry> entries = new ArrayList<>(d.entries());
                if (inodeOrder) {
                    entries.sort(Comparator.comparingLong(DirHandle.Entry::inode));
                }
                for (DirHandle.Entry e : entries) {
                    if (stop) {
                        return;
                    }
                    try {
                        d.stat(e.name());
                        statted.incrementAndGet();
                    } catch (IOException ignored) {
                        // vanished or unreadable: the mark phase will find out
                    }
                }
            } catch (IOException | RuntimeException ignored) {
                // a hint only
            }
        }
    }

    /** Files stat-ed so far. */
    long statted() {
        return statted.get();
    }

    /** True once every directory has been scanned. */
    boolean done() {
        return next.get() >= 65536 && threads.stream().noneMatch(Thread::isAlive);
    }

    /** Stops the threads and waits for them. */
    @Override
    public void close() {
        stop = true;
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
