package org.jpbs.server.http;

import java.time.Duration;
import java.util.Objects;

/**
 * Idle timeouts of the server's connections (design note {@code docs/design.md}, "Server
 * limits"). A connection is closed when nothing was read or written for the time given:
 *
 * @param http1Idle   an HTTP/1.1 connection with no request in progress (also one that never
 *                    sends a request after the TLS handshake); default 120 s, the real
 *                    client's per-request timeout; system property
 *                    {@code jpbs.server.http1IdleSeconds}
 * @param sessionIdle an upgraded backup or reader session with no request in progress; a
 *                    backup closed this way is removed like any unfinished backup; default
 *                    3600 s (a mounted snapshot can sit idle while the user browses); system
 *                    property {@code jpbs.server.sessionIdleSeconds}
 */
public record ServerTimeouts(Duration http1Idle, Duration sessionIdle) {
    /** Default HTTP/1.1 idle time: 120 s. */
    public static final Duration DEFAULT_HTTP1_IDLE = Duration.ofSeconds(120);
    /** Default session idle time: 1 hour. */
    public static final Duration DEFAULT_SESSION_IDLE = Duration.ofHours(1);

    /** Both must be positive. */
    public ServerTimeouts {
        Objects.requireNonNull(http1Idle, "http1Idle");
        Objects.requireNonNull(sessionIdle, "sessionIdle");
        if (http1Idle.isNegative() || http1Idle.isZero() || sessionIdle.isNegative() || sessionIdle.isZero()) {
            throw new IllegalArgumentException("idle timeouts must be positive");
        }
    }

    /**
     * The defaults, overridden by the system properties {@code jpbs.server.http1IdleSeconds} and
     * {@code jpbs.server.sessionIdleSeconds} (whole seconds).
     *
     * @throws IllegalArgumentException naming the property if a value is not a positive integer
     */
    public static ServerTimeouts fromSystemProperties() {
        return new ServerTimeouts(seconds("jpbs.server.http1IdleSeconds", DEFAULT_HTTP1_IDLE),
                seconds("jpbs.server.sessionIdleSeconds", DEFAULT_SESSION_IDLE));
    }

    private static Duration seconds(String property, Duration dflt) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            long s = Long.parseLong(v.trim());
            if (s > 0) {
                return Duration.ofSeconds(s);
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalArgumentException("system property " + property + ": expected a positive number of seconds, got '"
                + v + "'");
    }
}
