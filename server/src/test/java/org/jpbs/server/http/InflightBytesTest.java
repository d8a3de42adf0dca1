package org.jpbs.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/** Back-pressure of an HTTP/2 connection: reading pauses while too many received bytes wait for processing. */
class InflightBytesTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void pausesAboveHighWaterAndResumesBelowLowWater() {
        EmbeddedChannel ch = new EmbeddedChannel();
        InflightBytes b = new InflightBytes(ch);
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
        InflightBytes b = new InflightBytes(ch);
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
