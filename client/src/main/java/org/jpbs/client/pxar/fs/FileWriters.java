package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jpbs.core.pxar.PxarEntry;

/**
 * The threads that write regular files for the {@link TreeExtractor} while it goes on decoding
 * ({@code docs/pxar.md#extracting}): the extractor hands over a file's parent directory
 * descriptor, name, contents (read into an array) and metadata; a writer creates the file,
 * writes it sparse, applies its metadata and closes it. Each writer has its own {@link Sys}.
 * What the extractor must order around them it waits for: a directory's own metadata until its
 * files are written ({@link Pending}), a hardlink and the end until all are ({@link #drain}).
 * A failure is kept with its entry's position in the archive; the extractor raises the
 * earliest.
 */
final class FileWriters implements AutoCloseable {
    /** Larger files are written by the extractor's own thread (no array of their size). */
    static final int MAX_FILE = 1 << 20;
    /** File contents held for the writers at most. */
    static final int BUDGET = 32 << 20;

    /** The files of one directory handed over and not yet written. */
    static final class Pending {
        final AtomicInteger files = new AtomicInteger();
    }

    /** One file to write; {@code seq} is its position among the extractor's entries. */
    record Job(long seq, PxarEntry entry, int parentFd, byte[] name, byte[] data, int initialFlags,
            MetadataWriter.Fresh fresh, Pending dir) {}

    /** A file a writer failed on. */
    record Failure(long seq, PxarEntry entry, IOException error) {}

    private static final Job STOP = new Job(-1, null, -1, null, null, 0, null, null);

    private final TreeExtractor.Options options;
    private final Consumer<String> warnings;
    private final BlockingQueue<Job> queue = new ArrayBlockingQueue<>(1024);
    private final Semaphore budget = new Semaphore(BUDGET);
    private final Object lock = new Object();
    private final Thread[] threads;
    private int inFlight;
    private Failure failure;
    private boolean closed;

    /** @param warnings must accept lines from any thread */
    FileWriters(int count, TreeExtractor.Options options, Consumer<String> warnings) {
        this.options = options;
        this.warnings = warnings;
        threads = new Thread[count];
        for (int i = 0; i < count; i++) {
            threads[i] = Thread.ofPlatform().name("jpbs-extract-writer-" + i).daemon().start(this::run);
        }
    }

    /** Hands a file over (waits while the writers hold {@link #BUDGET} bytes or many files). */
    void submit(Job job) throws IOException {
        try {
            budget.acquire(job.data().length);
            synchronized (lock) {
                inFlight++;
            }
            job.dir().files.incrementAndGet();
            queue.put(job);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while extracting");
        }
    }

    /** The earliest failure so far, or null. */
    Failure failure() {
        synchronized (lock) {
            return failure;
        }
    }

    /** Waits until every file handed over is written (or failed). */
    void drain() throws IOException {
        synchronized (lock) {
            try {
                while (inFlight > 0) {
                    lock.wait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while extracting");
            }
        }
    }

    private void run() {
        try (Sys sys = new Sys()) {
            ContentWriter content = new ContentWriter(sys);
            MetadataWriter meta = new MetadataWriter(sys, options, warnings);
            while (true) {
                Job job = queue.take();
                if (job == STOP) {
                    return;
                }
                try {
                    Failure earlier = failure();
                    if (earlier == null || job.seq() < earlier.seq()) { // files before a failure are still written
                        write(sys, content, meta, job);
                    }
                } catch (IOException | RuntimeException e) {
                    failed(job, e instanceof IOException io ? io : new IOException(e.toString(), e));
                } finally {
                    budget.release(job.data().length);
                    job.dir().files.decrementAndGet();
                    synchronized (lock) {
                        if (--inFlight == 0) {
                            lock.notifyAll();
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void write(Sys sys, ContentWriter content, MetadataWriter meta, Job job) throws IOException {
        if (options.overwrite()) {
            TreeExtractor.unlinkIfPresent(sys, job.parentFd(), job.name());
        }
        int fd = sys.openat(job.parentFd(), job.name(), Libc.O_WRONLY | Libc.O_CREAT | Libc.O_EXCL | Libc.O_NOFOLLOW
                | Libc.O_CLOEXEC, 0600);
        try {
            if (job.initialFlags() != 0) {
                sys.ioctlInt(fd, Libc.FS_IOC_SETFLAGS, job.initialFlags(), 0);
            }
            content.writeSparse(job.data(), fd, job.data().length);
            meta.applyToOpen(fd, job.entry().metadata(), job.fresh());
        } finally {
            sys.close(fd);
        }
    }

    private void failed(Job job, IOException e) {
        synchronized (lock) {
            if (failure == null || job.seq() < failure.seq()) {
                failure = new Failure(job.seq(), job.entry(), e);
            }
        }
    }

    /** Waits for the files handed over, then stops the threads. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            drain();
        } finally {
            for (Thread t : threads) {
                queue.offer(STOP);
            }
            for (Thread t : threads) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
    }
}
