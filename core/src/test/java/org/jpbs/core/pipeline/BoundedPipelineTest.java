package org.jpbs.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BoundedPipelineTest {
    @Test
    void neverMoreThanTheWindowInFlightAndEveryTaskRuns() throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger max = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        try (BoundedPipeline p = new BoundedPipeline("test", 3, Workers.pool(8, "t"))) {
            for (int i = 0; i < 200; i++) {
                assertTrue(p.submit(() -> {
                    max.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    Thread.sleep(1);
                    inFlight.decrementAndGet();
                    done.incrementAndGet();
                }));
            }
            p.finish();
        }
        assertEquals(200, done.get());
        assertTrue(max.get() <= 3, "at most 3 in flight, saw " + max.get());
    }

    @Test
    void firstFailureWinsStopsSubmissionsAndIsRethrown() throws Exception {
        IOException first = new IOException("first");
        CountDownLatch failed = new CountDownLatch(1);
        AtomicInteger ranAfter = new AtomicInteger();
        IOException thrown;
        try (BoundedPipeline p = new BoundedPipeline("test", 4, Workers.pool(2, "t"))) {
            assertTrue(p.submit(() -> {
                failed.countDown();
                throw first;
            }));
            failed.await();
            while (!p.failed()) {
                Thread.onSpinWait();
            }
            p.fail(new IOException("second")); // later failures lose
            assertFalse(p.submit(ranAfter::incrementAndGet));
            thrown = assertThrows(IOException.class, p::finish);
        }
        assertSame(first, thrown);
        assertEquals(0, ranAfter.get());
    }

    @Test
    void asyncWorkHoldsItsSlotUntilHandledAndFailuresUnwrap() throws Exception {
        List<Integer> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        try (BoundedPipeline p = new BoundedPipeline("test", 2, Workers.pool(2, "t"))) {
            for (int i = 0; i < 10; i++) {
                int n = i;
                assertTrue(p.<Integer>submitAsync(() -> CompletableFuture.supplyAsync(() -> n, p.pool()), seen::add));
            }
            p.finish();
        }
        assertEquals(10, seen.size());
        IllegalStateException bug = new IllegalStateException("bug");
        try (BoundedPipeline p = new BoundedPipeline("test", 2, Workers.pool(1, "t"))) {
            p.<Integer>submitAsync(() -> CompletableFuture.failedFuture(bug), seen::add);
            assertSame(bug, assertThrows(IllegalStateException.class, p::finish));
        }
    }

    @Test
    void inOrderConsumesInOrderWithBoundedLookahead() throws Exception {
        List<Integer> out = new ArrayList<>();
        AtomicInteger started = new AtomicInteger();
        var pool = Workers.pool(4, "t");
        try {
            BoundedPipeline.<Integer>inOrder("test", 50, 5, i -> {
                assertTrue(started.incrementAndGet() - out.size() <= 5);
                return CompletableFuture.supplyAsync(() -> i * 2, pool);
            }, (i, v) -> {
                assertEquals(i * 2, v);
                out.add(i);
            });
        } finally {
            pool.shutdown();
        }
        assertEquals(50, out.size());
        assertEquals(List.copyOf(out), out.stream().sorted().toList());
        IOException boom = new IOException("boom");
        assertSame(boom, assertThrows(IOException.class, () -> BoundedPipeline.<Integer>inOrder("test", 5, 2,
                i -> i == 3 ? CompletableFuture.failedFuture(boom) : CompletableFuture.completedFuture(i), (i, v) -> { })));
    }

    @Test
    void interruptedProducerGetsInterruptedIoException() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        try (BoundedPipeline p = new BoundedPipeline("backup of x", 1, Workers.pool(1, "t"))) {
            p.submit(hold::await);
            Thread.currentThread().interrupt();
            InterruptedIOException e = assertThrows(InterruptedIOException.class, () -> p.submit(() -> { }));
            assertEquals("backup of x interrupted", e.getMessage());
            assertTrue(Thread.interrupted());
        } finally {
            hold.countDown();
        }
    }
}
