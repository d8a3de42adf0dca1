package org.jpbs.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/**
 * Back-pressure of HTTP/2 connections: reading pauses while too many received bytes wait for
 * processing, on one connection or on the whole server ({@link UploadBudget}).
 */
class InflightBytesTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void theServerWideBudgetPausesConnectionsWithCompleteRequestsAndWakesThemBelowItsLowMark() {
        UploadBudget budget = new UploadBudget(40 * MIB);
        EmbeddedChannel ch1 = new EmbeddedChannel();
        EmbeddedChannel ch2 = new EmbeddedChannel();
        EmbeddedChannel ch3 = new EmbeddedChannel();
        InflightBytes a = new InflightBytes(ch1, budget);
        InflightBytes b = new InflightBytes(ch2, budget);
        InflightBytes c = new InflightBytes(ch3, budget);
        a.received(16 * MIB);
        a.completed(16 * MIB);
        b.received(16 * MIB);
        b.completed(16 * MIB);
        assertFalse(a.paused() || b.paused(), "32 MiB in all is within the 40 MiB budget");
        c.received(16 * MIB); // a body still arriving on a third connection: 48 MiB held
        assertEquals(48 * MIB, budget.held());
        assertFalse(c.paused(), "a connection with only unfinished bodies must go on reading (else it never finishes)");
        b.received(MIB); // the next frame on a connection with a complete request waiting: over the budget
        assertTrue(b.paused(), "each connection is far below its own 64 MiB mark; the server-wide budget pauses it");
        assertFalse(ch2.config().isAutoRead());
        assertEquals(1, budget.pausedConnections());
        a.received(MIB);
        assertTrue(a.paused());
        a.processed(16 * MIB); // 34 MiB held: above the low mark (20 MiB)
        ch1.runPendingTasks();
        assertFalse(a.paused(), "a connection without complete requests left resumes at once, whatever the budget");
        assertTrue(b.paused(), "34 MiB held: still above the low mark");
        c.completed(16 * MIB);
        c.processed(16 * MIB); // 18 MiB held: below the low mark, the paused connection is woken
        ch2.runPendingTasks();
        ch3.runPendingTasks();
        assertFalse(b.paused());
        assertTrue(ch2.config().isAutoRead());
        assertEquals(0, budget.pausedConnections());
        assertEquals(18 * MIB, budget.held());
    }

    @Test
    void aClosedConnectionLeavesTheBudget() {
        UploadBudget budget = new UploadBudget(8 * MIB);
        EmbeddedChannel ch = new EmbeddedChannel();
        InflightBytes a = new InflightBytes(ch, budget);
        a.received(9 * MIB);
        a.completed(9 * MIB);
        assertTrue(a.paused());
        assertEquals(1, budget.pausedConnections());
        ch.close();
        assertEquals(0, budget.pausedConnections());
        a.processed(9 * MIB);
        assertEquals(0, budget.held());
    }

    @Test
    void defaultBudgetIsAQuarterOfTheHeapWithinBounds() {
        assertEquals(32 * MIB, UploadBudget.defaultHigh(64 * MIB));
        assertEquals(128 * MIB, UploadBudget.defaultHigh(512 * MIB));
        assertEquals(256 * MIB, UploadBudget.defaultHigh(6L * 1024 * MIB));
    }

    @Test
    void pausesAboveHighWaterAndResumesBelowLowWater() {
        EmbeddedChannel ch = new EmbeddedChannel();
        InflightBytes b = new InflightBytes(ch, new UploadBudget(1024 * MIB));
        for (int i = 0; i < 4; i++) { // four complete 16 MiB uploads waiting for the chunk workers
            b.received(16 * MIB);
            b.completed(16 * MIB);
        }
        assertFalse(b.paused(), "64 MiB is not above the high water mark");
        b.received(MIB);
        b.completed(MIB);
        assertTrue(b.paused());
        assertFalse(ch.config().isAutoRead(), "the connection stops reading");
        b.processed(16 * MIB);
        b.processed(16 * MIB);
        assertTrue(b.paused(), "49 MiB held: still above the low water mark");
        b.processed(16 * MIB);
        assertFalse(b.paused());
        assertTrue(ch.config().isAutoRead());
        assertEquals(17 * MIB, b.held());
    }

    @Test
    void unfinishedBodiesAloneNeverPauseButAreLimited() {
        EmbeddedChannel ch = new EmbeddedChannel();
        InflightBytes b = new InflightBytes(ch, new UploadBudget(1024 * MIB));
        for (int i = 0; i < 15; i++) {
            b.received(16 * MIB); // 240 MiB of bodies still arriving: pausing would deadlock
        }
        assertFalse(b.paused());
        assertTrue(ch.isOpen());
        b.dropped(16 * MIB);
        b.received(32 * MIB + 1);
        assertFalse(ch.isOpen(), "more than 256 MiB of unfinished bodies closes the connection");
    }
}
