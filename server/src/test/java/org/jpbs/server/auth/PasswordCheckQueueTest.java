package org.jpbs.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The bounded pool of password checks: runs checks, refuses at once when full. */
class PasswordCheckQueueTest {
    @Test
    void verifiesOnThePool() {
        PasswordCheckQueue q = new PasswordCheckQueue();
        String stored = PasswordHash.hash("secret1", 1000);
        assertTrue(q.verify("secret1", stored));
        assertFalse(q.verify("wrong", stored));
    }

    @Test
    void fullPoolAndQueueRefuseAtOnce() throws Exception {
        PasswordCheckQueue q = new PasswordCheckQueue(1, 1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
        CompletableFuture<Boolean> running = CompletableFuture.supplyAsync(() -> q.run(() -> {
            started.countDown();
            release.await();
            return true;
        }), callers);
        started.await();
        CompletableFuture<Boolean> queued = CompletableFuture.supplyAsync(() -> q.run(() -> false), callers);
        // the queued check occupies the one queue slot once submitted; wait for that without timing
        while (!queued.isDone() && !submitted(q)) {
            Thread.sleep(1);
        }
        PasswordCheckQueue.LoginBusyException e = assertThrows(PasswordCheckQueue.LoginBusyException.class,
                () -> q.run(() -> true));
        assertEquals("too many login attempts in progress - try again later", e.getMessage());
        release.countDown();
        assertTrue(running.get());
        assertFalse(queued.get());
        assertTrue(q.run(() -> true), "accepts again once there is room");
        callers.shutdown();
    }

    private static boolean submitted(PasswordCheckQueue q) {
        return q.queued() == 1;
    }
}
