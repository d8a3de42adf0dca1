package org.jpbs.server.http;

import io.netty.channel.Channel;
import java.lang.System.Logger.Level;

/**
 * Back-pressure for one upgraded HTTP/2 connection: counts the request-body bytes the server
 * holds (bodies being received plus complete bodies waiting for or in processing). While more
 * than {@link #HIGH_WATER} bytes are held and at least one complete request is waiting or in
 * processing, the connection stops reading from the socket ({@code autoRead} off), so flow
 * control and TCP push back on a client that sends chunk bodies faster than they are stored;
 * reading resumes below {@link #LOW_WATER}. Bodies that are only partly received cannot be
 * finished without reading, so they alone never pause the connection; if they exceed
 * {@link #PARTIAL_LIMIT} the connection is closed (no real client sends that many unfinished
 * uploads at once). Counting happens on the connection's event loop; releases may come from
 * any thread and are handed to it.
 */
final class InflightBytes {
    private static final System.Logger LOG = System.getLogger(InflightBytes.class.getName());
    /** Pause reading above this many held bytes: 64 MiB. */
    static final long HIGH_WATER = 64L * 1024 * 1024;
    /** Resume reading below this many held bytes: 32 MiB. */
    static final long LOW_WATER = 32L * 1024 * 1024;
    /** Close the connection when partly received bodies hold more than this: 256 MiB. */
    static final long PARTIAL_LIMIT = 256L * 1024 * 1024;

    private final Channel connection;
    private long partial;
    private long complete;
    private int completeRequests;
    private boolean paused;

    /** @param connection the TCP/TLS channel carrying the HTTP/2 session */
    InflightBytes(Channel connection) {
        this.connection = connection;
    }

    /** {@code n} more body bytes of an unfinished request were buffered (event loop). */
    void received(long n) {
        partial += n;
        if (partial > PARTIAL_LIMIT) {
            LOG.log(Level.WARNING, "closing connection from " + connection.remoteAddress() + ": more than "
                    + PARTIAL_LIMIT + " bytes of unfinished request bodies");
            connection.close();
        }
    }

    /** A buffered body of {@code n} bytes was dropped before completing (event loop). */
    void dropped(long n) {
        partial -= n;
        update();
    }

    /** A request of {@code n} body bytes is complete and handed to its executor (event loop). */
    void completed(long n) {
        partial -= n;
        complete += n;
        completeRequests++;
        update();
    }

    /** A completed request of {@code n} body bytes was processed (any thread). */
    void processed(long n) {
        if (connection.eventLoop().inEventLoop()) {
            complete -= n;
            completeRequests--;
            update();
        } else {
            connection.eventLoop().execute(() -> processed(n));
        }
    }

    /** Bytes held now (tests and logs). */
    long held() {
        return partial + complete;
    }

    /** True while reading is paused. */
    boolean paused() {
        return paused;
    }

    private void update() {
        long held = partial + complete;
        if (!paused && completeRequests > 0 && held > HIGH_WATER) {
            paused = true;
            connection.config().setAutoRead(false);
        } else if (paused && (held < LOW_WATER || completeRequests == 0)) {
            paused = false;
            connection.config().setAutoRead(true);
            connection.read();
        }
    }
}
