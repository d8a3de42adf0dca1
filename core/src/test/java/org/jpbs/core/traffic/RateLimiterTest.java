package org.jpbs.core.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RateLimiterTest {
    /** A fake clock that advances only when the limiter sleeps; records every sleep. */
    private static final class FakeTime {
        final AtomicLong now = new AtomicLong(1_000_000_000L);
        final List<Long> sleeps = new ArrayList<>();

        RateLimiter limiter(long rate, long burst) {
            return new RateLimiter(rate, burst, now::get, n -> {
                sleeps.add(n);
                now.addAndGet(n);
            });
        }
    }

    @Test
    void aFullBucketPassesTheBurstAtOnceThenWaitsForTheRate() throws Exception {
        FakeTime t = new FakeTime();
        RateLimiter l = t.limiter(1000, 4000);
        l.acquire(4000);
        assertEquals(List.of(), t.sleeps, "the bucket starts full");
        l.acquire(500);
        assertEquals(List.of(500_000_000L), t.sleeps, "500 units at 1000/s: half a second");
        t.now.addAndGet(10_000_000_000L); // 10 s idle: the bucket refills, but only to the burst
        l.acquire(4000);
        assertEquals(1, t.sleeps.size());
        l.acquire(1000);
        assertEquals(1_000_000_000L, t.sleeps.get(1));
    }

    @Test
    void aRequestLargerThanTheBucketWaitsForItsShare() throws Exception {
        FakeTime t = new FakeTime();
        RateLimiter l = t.limiter(100, 100);
        l.acquire(350); // 100 in the bucket, 250 more at 100/s
        assertEquals(List.of(2_500_000_000L), t.sleeps);
    }

    @Test
    void withoutABurstTheBucketHoldsOneSecond() throws Exception {
        FakeTime t = new FakeTime();
        RateLimiter l = t.limiter(2048, 0);
        assertEquals(2048, l.burst());
        assertEquals(2048, RateLimiter.of(2048L, null).burst());
        assertEquals(10, RateLimiter.of(2048L, 10L).burst());
        l.acquire(2048);
        assertEquals(List.of(), t.sleeps);
        l.acquire(1024);
        assertEquals(List.of(500_000_000L), t.sleeps);
    }

    @Test
    void noRateIsNoLimiterAndABadRateIsRefused() {
        assertNull(RateLimiter.of(null, 5L));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RateLimiter(0, 10));
        assertEquals("rate must be positive, got 0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RateLimiter.of(-1L, null));
    }

    @Test
    void realTimeThreadsShareOneBucket() throws Exception {
        RateLimiter l = new RateLimiter(200_000, 1);
        l.acquire(1); // empty the bucket
        long start = System.nanoTime();
        Thread[] ts = new Thread[4];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = Thread.ofPlatform().start(() -> {
                try {
                    for (int k = 0; k < 5; k++) {
                        l.acquire(2_000);
                    }
                } catch (InterruptedIOException e) {
                    throw new AssertionError(e);
                }
            });
        }
        for (Thread th : ts) {
            th.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        // 40,000 units at 200,000/s take at least 0.2 s however the four threads interleave
        assertTrue(seconds >= 0.19, "took " + seconds + " s");
    }

    @Test
    void anInterruptedWaitFailsAndKeepsTheFlag() throws Exception {
        RateLimiter l = new RateLimiter(1, 1);
        l.acquire(1);
        Thread.currentThread().interrupt();
        try {
            InterruptedIOException e = assertThrows(InterruptedIOException.class, () -> l.acquire(100));
            assertTrue(e.getMessage().contains("rate limit"), e.getMessage());
            assertTrue(Thread.interrupted(), "the interrupt flag is set again");
        } finally {
            Thread.interrupted();
        }
    }
}
