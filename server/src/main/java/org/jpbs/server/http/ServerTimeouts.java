package org.jpbs.server.http;

import java.time.Duration;
import java.util.Objects;

/**
 * Timeouts of the server's connections (design note {@code docs/design.md}, "Server limits").
 *
 * @param http1Idle    an HTTP/1.1 connection with no request in progress (also one that never
 *                     sends a request after the TLS handshake) is closed when nothing was read or
 *                     written for this time; default 120 s, the real client's per-request
 *                     timeout; system property {@code jpbs.server.http1IdleSeconds}
 * @param sessionIdle  an upgraded backup or reader session is closed when no request made
 *                     progress for this time (no request headers or body bytes received, no
 *                     response bytes sent) and the server is not busy with a request; open but
 *                     silent streams and HTTP/2 PINGs do not keep it open. A backup closed this way
 *                     is removed like any unfinished backup; default 3600 s (a mounted snapshot
 *                     can sit idle while the user browses); system property
 *                     {@code jpbs.server.sessionIdleSeconds}
 * @param requestStall a request of a session whose body is not complete and of which no byte
 *                     arrived for this time (or a response of which no byte could be sent for
 *                     this time) closes the session; reading paused by the server does not
 *                     count; default 120 s; system property {@code jpbs.server.requestStallSeconds}
 * @param tcpKeepalive TCP keepalive idle time of accepted connections ({@code SO_KEEPALIVE} with
 *                     {@code TCP_KEEPIDLE}, probes every {@link #KEEPALIVE_INTERVAL}, at most
 *                     {@link #KEEPALIVE_PROBES}); default 120 s as PBS; system property
 *                     {@code jpbs.server.tcpKeepaliveSeconds}
 */
public record ServerTimeouts(Duration http1Idle, Duration sessionIdle, Duration requestStall, Duration tcpKeepalive) {
    /** Default HTTP/1.1 idle time: 120 s. */
    public static final Duration DEFAULT_HTTP1_IDLE = Duration.ofSeconds(120);
    /** Default session idle time: 1 hour. */
    public static final Duration DEFAULT_SESSION_IDLE = Duration.ofHours(1);
    /** Default request stall time: 120 s. */
    public static final Duration DEFAULT_REQUEST_STALL = Duration.ofSeconds(120);
    /** Default TCP keepalive idle time: 120 s (PBS's {@code PROXMOX_BACKUP_TCP_KEEPALIVE_TIME}). */
    public static final Duration DEFAULT_TCP_KEEPALIVE = Duration.ofSeconds(120);
    /** Time between TCP keepalive probes: 30 s. */
    public static final Duration KEEPALIVE_INTERVAL = Duration.ofSeconds(30);
    /** Unanswered TCP keepalive probes before the kernel drops the connection: 4. */
    public static final int KEEPALIVE_PROBES = 4;

    /** All must be positive. */
    public ServerTimeouts {
        Objects.requireNonNull(http1Idle, "http1Idle");
        Objects.requireNonNull(sessionIdle, "sessionIdle");
        Objects.requireNonNull(requestStall, "requestStall");
        Objects.requireNonNull(tcpKeepalive, "tcpKeepalive");
        for (Duration d : new Duration[] {http1Idle, sessionIdle, requestStall, tcpKeepalive}) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("timeouts must be positive");
            }
        }
    }

    /** The idle timeouts with the default request stall and keepalive times. */
    public ServerTimeouts(Duration http1Idle, Duration sessionIdle) {
        this(http1Idle, sessionIdle, DEFAULT_REQUEST_STALL, DEFAULT_TCP_KEEPALIVE);
    }

    /** A copy with another request stall time. */
    public ServerTimeouts withRequestStall(Duration stall) {
        return new ServerTimeouts(http1Idle, sessionIdle, stall, tcpKeepalive);
    }

    /**
     * The defaults, overridden by the system properties {@code jpbs.server.http1IdleSeconds},
     * {@code jpbs.server.sessionIdleSeconds}, {@code jpbs.server.requestStallSeconds} and
     * {@code jpbs.server.tcpKeepaliveSeconds} (whole seconds).
     *
     * @throws IllegalArgumentException naming the property if a value is not a positive integer
     */
    public static ServerTimeouts fromSystemProperties() {
        return new ServerTimeouts(seconds("jpbs.server.http1IdleSeconds", DEFAULT_HTTP1_IDLE),
                seconds("jpbs.server.sessionIdleSeconds", DEFAULT_SESSION_IDLE),
                seconds("jpbs.server.requestStallSeconds", DEFAULT_REQUEST_STALL),
                seconds("jpbs.server.tcpKeepaliveSeconds", DEFAULT_TCP_KEEPALIVE));
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
