package org.jpbs.client.pxar.fs;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that read entries ahead of the encoder ({@code docs/pxar.md#reading-a-directory-tree}),
 * each with its own {@link Sys} (closed when the thread ends), and the byte budget for the
 * contents they read ahead.
 */
final class ReadAheadPool implements AutoCloseable {
    private static final ThreadLocal<Sys> SYS = new ThreadLocal<>();

    private final ExecutorService exec;
    private final Semaphore bytes;
    final EntryRead.Budget budget;

    /**
     * @param threads     reading threads
     * @param budgetBytes most content bytes read ahead and not yet encoded
     */
    ReadAheadPool(int threads, int budgetBytes) {
        AtomicInteger seq = new AtomicInteger();
        this.exec = Executors.newFixedThreadPool(threads, r -> Thread.ofPlatform().daemon()
                .name("jpbs-pxar-read-" + seq.incrementAndGet()).unstarted(() -> {
                    Sys sys = new Sys();
                    SYS.set(sys);
                    try {
                        r.run();
                    } finally {
                        SYS.remove();
                        sys.close();
                    }
                }));
        this.bytes = new Semaphore(budgetBytes);
        this.budget = new EntryRead.Budget() {
            @Override
            public boolean tryTake(int n) {
                return bytes.tryAcquire(n);
            }

            @Override
            public void give(int n) {
                bytes.release(n);
            }
        };
    }

    /** Reads {@code r} (an entry of {@code dir}) on a pool thread, up to {@code ahead} content bytes. */
    CompletableFuture<EntryRead> read(EntryRead r, DirHandle dir, int ahead) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return r.read(SYS.get(), dir, ahead, budget);
            } catch (java.io.IOException e) {
                throw new CompletionException(e);
            }
        }, exec);
    }

    /**
     * Lets the threads end (each closes its {@link Sys}); the walker has waited for every task
     * it started before this is called.
     */
    @Override
    public void close() {
        exec.shutdown();
    }
}
