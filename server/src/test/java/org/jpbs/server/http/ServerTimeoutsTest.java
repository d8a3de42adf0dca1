package org.jpbs.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Defaults and system-property overrides of the server's timeouts. */
class ServerTimeoutsTest {
    private static final String[] PROPS = {"jpbs.server.http1IdleSeconds", "jpbs.server.sessionIdleSeconds",
        "jpbs.server.requestStallSeconds", "jpbs.server.tcpKeepaliveSeconds"};

    @Test
    void defaultsAndOverrides() {
        try {
            for (String p : PROPS) {
                System.clearProperty(p);
            }
            ServerTimeouts d = ServerTimeouts.fromSystemProperties();
            assertEquals(new ServerTimeouts(Duration.ofSeconds(120), Duration.ofHours(1), Duration.ofSeconds(120),
                    Duration.ofSeconds(120)), d);
            System.setProperty("jpbs.server.requestStallSeconds", "30");
            System.setProperty("jpbs.server.tcpKeepaliveSeconds", " 60 ");
            ServerTimeouts t = ServerTimeouts.fromSystemProperties();
            assertEquals(Duration.ofSeconds(30), t.requestStall());
            assertEquals(Duration.ofSeconds(60), t.tcpKeepalive());
            System.setProperty("jpbs.server.requestStallSeconds", "0");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, ServerTimeouts::fromSystemProperties);
            assertEquals("system property jpbs.server.requestStallSeconds: expected a positive number of seconds, got '0'",
                    e.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> new ServerTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ZERO, Duration.ofSeconds(1)));
        } finally {
            for (String p : PROPS) {
                System.clearProperty(p);
            }
        }
    }
}
