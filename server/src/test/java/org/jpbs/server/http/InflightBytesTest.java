package org.jpbs.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/**
 * Back-pressure of HTTP/2 connections through flow control: the credit of received DATA is
 * withheld while too many received bytes wait for processing, on one connection or on the
 * whole server ({@link UploadBudget}), and given back when that is no longer so, or when only
 * more data could free bytes.
 */
class InflightBytesTest {
    private static final long MIB = 1024 * 1024;
    private static final int M = 1024 * 1024;

    /** A stream's window as the client sees it: the credit given back so far. */
    private static final class Credit implements InflightBytes.Window {
        long given;

        @Override
        public void update(int bytes) {
            given += bytes;
        }
    }

    @Test
    void creditGoesBackAtOnceWithinTheBudget() {
        UploadBudget budget = new UploadBudget(40 * MIB);
        InflightBytes a = new InflightBytes(new EmbeddedChannel(), budget);
        Credit w = new Credit();
        a.received(16 * MIB);
        a.consumed(w, 16 * M, true);
        assertEquals(16 * MIB, w.given);
        assertFalse(a.paused());
    }

    @Test
    void theServerWideBudgetWithholdsCreditWhileACompleteRequestWillFreeBytes() {
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
        Credit wc = new Credit();
        c.received(16 * MIB); // a body arriving on a third connection: 48 MiB held, two complete requests will free some
        c.consumed(wc, M, true);
        assertEquals(48 * MIB, budget.held());
        assertTrue(c.paused(), "over the budget: even a connection with only unfinished bodies withholds credit");
        assertEquals(0, wc.given);
        assertEquals(MIB, c.withheldBytes());
        c.consumed(wc, 1000, false); // dropped bytes (an early answer's rest) always get their credit back
        assertEquals(1000, wc.given);
        assertEquals(1, budget.pausedConnections());
        a.processed(16 * MIB); // 32 MiB held: above the low mark (20 MiB), b's request still complete
        ch1.runPendingTasks();
        ch3.runPendingTasks();
        assertTrue(c.paused());
        b.processed(16 * MIB); // 16 MiB held: below the low mark, the waiting connection is woken
        ch2.runPendingTasks();
        ch3.runPendingTasks();
        assertFalse(c.paused());
        assertEquals(MIB + 1000, wc.given, "the withheld credit went back");
        assertEquals(0, budget.pausedConnections());
        assertEquals(16 * MIB, budget.held());
        assertEquals(48 * MIB, budget.peak());
    }

    @Test
    void withoutACompleteRequestAnywhereOneConnectionAtATimeIsExempt() {
        UploadBudget budget = new UploadBudget(8 * MIB);
        EmbeddedChannel ch1 = new EmbeddedChannel();
        EmbeddedChannel ch2 = new EmbeddedChannel();
        EmbeddedChannel ch3 = new EmbeddedChannel();
        InflightBytes a = new InflightBytes(ch1, budget);
        InflightBytes b = new InflightBytes(ch2, budget);
        InflightBytes c = new InflightBytes(ch3, budget);
        Credit wa = new Credit();
        Credit wb = new Credit();
        a.received(10 * MIB); // a single body larger than the whole budget
        a.consumed(wa, 10 * M, true);
        assertFalse(a.paused(), "no complete request would ever free bytes: withholding everywhere would deadlock");
        assertTrue(budget.exempt(a));
        assertEquals(10 * MIB, wa.given);
        b.received(MIB); // a second connection's unfinished body while a is exempt
        b.consumed(wb, M, true);
        assertTrue(b.paused(), "only the exempt connection receives over the budget");
        assertEquals(0, wb.given);
        c.received(MIB);
        c.completed(MIB);
        a.received(MIB);
        a.consumed(wa, M, true);
        assertTrue(a.paused(), "a complete request will free bytes: a withholds again");
        assertTrue(budget.exempt(a), "but stays the exempt one while it has unfinished bodies");
        assertEquals(10 * MIB, wa.given);
        c.processed(MIB); // 12 MiB held, far above the low mark, but nothing complete is left
        ch3.runPendingTasks();
        ch1.runPendingTasks();
        ch2.runPendingTasks();
        assertTrue(budget.exempt(a), "the connection with the most unfinished bytes is exempt");
        assertFalse(a.paused());
        assertEquals(11 * MIB, wa.given, "its unfinished body can go on and complete");
        assertTrue(b.paused());
        ch1.close();
        a.dropped(11 * MIB); // its stream channels drop their bodies when the connection closes
        ch2.runPendingTasks();
        assertFalse(b.paused(), "1 MiB held: below the low mark");
        assertEquals(MIB, wb.given);
    }

    @Test
    void aClosedStreamsWithheldCreditIsForgotten() {
        UploadBudget budget = new UploadBudget(MIB);
        InflightBytes a = new InflightBytes(new EmbeddedChannel(), budget);
        Credit w = new Credit();
        a.received(2 * MIB);
        a.completed(2 * MIB);
        a.consumed(w, 2 * M, true);
        assertEquals(2 * MIB, a.withheldBytes());
        a.closed(w);
        assertEquals(0, a.withheldBytes());
        a.processed(2 * MIB);
        assertFalse(a.paused());
        assertEquals(0, w.given, "the codec gives a closed stream's bytes back itself");
    }

    @Test
    void aClosedConnectionLeavesTheBudget() {
        UploadBudget budget = new UploadBudget(8 * MIB);
        EmbeddedChannel ch = new EmbeddedChannel();
        InflightBytes a = new InflightBytes(ch, budget);
        a.received(9 * MIB);
        a.completed(9 * MIB);
        a.consumed(new Credit(), 9 * M, true);
        assertTrue(a.paused());
        assertEquals(1, budget.pausedConnections());
        ch.close();
        assertEquals(0, budget.pausedConnections());
        a.processed(9 * MIB);
        assertEquals(0, budget.held());
        assertEquals(0, budget.completeRequests());
    }

    @Test
    void defaultBudgetIsAQuarterOfTheHeapWithinBoundsAndTheConnectionWindowAnEighthOfIt() {
        assertEquals(32 * MIB, UploadBudget.defaultHigh(64 * MIB));
        assertEquals(128 * MIB, UploadBudget.defaultHigh(512 * MIB));
        assertEquals(256 * MIB, UploadBudget.defaultHigh(6L * 1024 * MIB));
        assertEquals(MIB, new UploadBudget(2 * MIB).connectionWindow());
        assertEquals(16 * MIB, new UploadBudget(128 * MIB).connectionWindow());
        assertEquals(32 * MIB, new UploadBudget(1024 * MIB).connectionWindow());
    }

    @Test
    void withholdsAboveTheConnectionsHighWaterAndGivesBackBelowItsLowWater() {
        EmbeddedChannel ch = new EmbeddedChannel();
        InflightBytes b = new InflightBytes(ch, new UploadBudget(1024 * MIB));
        Credit w = new Credit();
        for (int i = 0; i < 4; i++) { // four complete 16 MiB uploads waiting for the chunk workers
            b.received(16 * MIB);
            b.consumed(w, 16 * M, true);
            b.completed(16 * MIB);
        }
        assertFalse(b.paused(), "64 MiB is not above the high water mark");
        b.received(MIB);
        b.consumed(w, M, true);
        assertTrue(b.paused());
        assertEquals(64 * MIB, w.given, "the last MiB's credit is withheld");
        b.completed(MIB);
        b.processed(16 * MIB);
        b.processed(16 * MIB);
        assertTrue(b.paused(), "33 MiB held: still above the low water mark");
        b.processed(16 * MIB);
        assertFalse(b.paused());
        assertEquals(65 * MIB, w.given);
        assertEquals(17 * MIB, b.held());
    }

    @Test
    void unfinishedBodiesAreLimited() {
        EmbeddedChannel ch = new EmbeddedChannel();
        InflightBytes b = new InflightBytes(ch, new UploadBudget(1024 * MIB));
        for (int i = 0; i < 15; i++) {
            b.received(16 * MIB);
        }
        assertFalse(b.paused());
        assertTrue(ch.isOpen());
        b.dropped(16 * MIB);
        b.received(32 * MIB + 1);
        assertFalse(ch.isOpen(), "more than 256 MiB of unfinished bodies closes the connection");
    }
}
