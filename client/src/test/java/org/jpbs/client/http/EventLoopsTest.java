package org.jpbs.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link EventLoops#shutdown()}: the loops' threads (which idle inside {@code epoll_wait}, a
 * native call the JVM's exit waits up to 300 ms for) are gone afterwards, and a later connection
 * gets fresh loops.
 */
class EventLoopsTest {
    @Test
    void shutdownEndsTheLoopThreadsAndALaterUseStartsNewOnes() throws Exception {
        EventLoopGroup first = EventLoops.group();
        // start a loop thread: it then waits in the selector
        assertEquals(42, first.submit(() -> 42).get(5, TimeUnit.SECONDS));
        assertFalse(first.isTerminated());

        EventLoops.shutdown();
        assertTrue(first.isTerminated(), "every loop thread has ended when shutdown() returns");

        EventLoopGroup second = EventLoops.group();
        assertNotSame(first, second);
        assertFalse(second.isShuttingDown());
        assertEquals(7, second.submit(() -> 7).get(5, TimeUnit.SECONDS));
        EventLoops.shutdown();
        EventLoops.shutdown();   // twice, and with no loops started: nothing to do
        assertTrue(second.isTerminated());
    }
}
