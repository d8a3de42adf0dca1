package org.jpbs.core.pipeline;

import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** Worker pools for the engines and rethrowing a worker's failure. */
public final class Workers {
    private Workers() {}

    /**
     * A fixed pool of {@code n} daemon platform threads named {@code prefix-1..n} (CPU work:
     * hashing, compression). The caller shuts it down.
     */
    public static ExecutorService pool(int n, String prefix) {
        AtomicInteger seq = new AtomicInteger();
        return Executors.newFixedThreadPool(n,
                r -> Thread.ofPlatform().daemon().name(prefix + "-" + seq.incrementAndGet()).unstarted(r));
    }

    /**
     * Rethrows a failure recorded by a worker: IOExceptions, RuntimeExceptions and Errors as
     * they are (after unwrapping {@link CompletionException} and {@link ExecutionException}),
     * anything else wrapped in an IOException. Does nothing for {@code null}.
     */
    public static void rethrow(Throwable t) throws IOException {
        switch (unwrap(t)) {
            case null -> { }
            case IOException e -> throw e;
            case RuntimeException e -> throw e;
            case Error e -> throw e;
            case Throwable e -> throw new IOException(e.toString(), e);
        }
    }

    /** The cause inside {@link CompletionException}s and {@link ExecutionException}s. */
    public static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
