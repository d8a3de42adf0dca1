package org.jpbs.s3.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import org.jpbs.core.digest.Digest;

/**
 * The chunk uploads of an {@link S3ChunkStore} that run in the background
 * ({@code docs/s3.md#chunks}): at most {@code maxCount} at a time and {@code maxKiB} KiB of
 * bodies in flight (an insert waits for room, so a fast backup cannot queue more than that in
 * memory). While a digest's upload runs, every other operation on that digest waits for it
 * ({@link #await}); an upload that failed is remembered per digest until the digest is stored
 * after all, so that {@link #check} refuses an index naming it: a snapshot is never finished
 * with a chunk that is not in the bucket.
 */
final class PendingUploads {
    private final Map<Digest, CompletableFuture<Void>> running = new ConcurrentHashMap<>();
    private final Map<Digest, String> failed = new ConcurrentHashMap<>();
    private final Semaphore count;
    private final Semaphore kib;
    private final int maxKiB;

    PendingUploads(int maxCount, int maxKiB) {
        this.count = new Semaphore(maxCount, true);
        this.kib = new Semaphore(maxKiB, true);
        this.maxKiB = maxKiB;
    }

    private int kib(long bytes) {
        return (int) Math.min(maxKiB, (bytes + 1023) / 1024);
    }

    /** Waits for room for an upload of {@code bytes}; {@link #release} gives it back. */
    void reserve(long bytes) throws InterruptedIOException {
        try {
            count.acquire();
            try {
                kib.acquire(kib(bytes));
            } catch (InterruptedException e) {
                count.release();
                throw e;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for room among the running chunk uploads");
        }
    }

    /** Gives back what {@link #reserve} took. */
    void release(long bytes) {
        kib.release(kib(bytes));
        count.release();
    }

    /** True while an upload of the digest runs. */
    boolean running(Digest d) {
        return running.containsKey(d);
    }

    /** Registers the upload of {@code d} (under the digest's lock, after {@link #running} said no). */
    void start(Digest d) {
        running.put(d, new CompletableFuture<>());
    }

    /** Ends the upload of {@code d}: stored ({@code failure} null) or not. */
    void finish(Digest d, IOException failure) {
        if (failure == null) {
            failed.remove(d);
        } else {
            failed.put(d, String.valueOf(failure.getMessage())); // the message only: kept until d is stored
        }
        CompletableFuture<Void> f = running.remove(d);
        if (f != null) {
            f.complete(null);
        }
    }

    /** Forgets a failure of {@code d} (the digest was stored by a later write). */
    void stored(Digest d) {
        failed.remove(d);
    }

    /** Waits until no upload of {@code d} runs. */
    void await(Digest d) throws InterruptedIOException {
        CompletableFuture<Void> f = running.get(d);
        if (f != null) {
            join(f);
        }
    }

    /** Waits for every upload running now. */
    void awaitAll() throws InterruptedIOException {
        for (CompletableFuture<Void> f : List.copyOf(running.values())) {
            join(f);
        }
    }

    /**
     * Waits for the uploads of {@code digests} and fails if one of them was not stored.
     *
     * @throws IOException {@code "chunk <digest> is not stored: <why>"}
     */
    void check(Iterable<Digest> digests) throws IOException {
        for (Digest d : digests) {
            await(d);
            String why = failed.get(d);
            if (why != null) {
                throw new IOException("chunk " + d.hex() + " is not stored: " + why);
            }
        }
    }

    private static void join(CompletableFuture<Void> f) throws InterruptedIOException {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a chunk upload");
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause()); // never: futures are only completed normally
        }
    }
}
