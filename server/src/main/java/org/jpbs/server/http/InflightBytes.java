package org.jpbs.server.http;

import io.netty.channel.Channel;
import java.lang.System.Logger.Level;

/**
 * Back-pressure for one upgraded HTTP/2 connection: counts the request-body bytes the server
 * holds for it (bodies being received plus complete bodies waiting for or in processing), here
 * and in the server-wide {@link UploadBudget}. While at least one complete request is waiting or
 * in processing and either this connection holds more than {@link #HIGH_WATER} bytes or the
 * server as a whole holds more than its budget, the connection stops reading from the socket
 * ({@code autoRead} off), so flow control and TCP push back on a client that sends chunk bodies
 * faster than they are stored. Reading resumes when the connection holds less than
 * {@link #LOW_WATER} and the server less than the budget's low mark, or as soon as no complete
 * request of this connection is left (its remaining bodies can only finish by reading, so
 * pausing then could deadlock). Bodies that are only partly received therefore never pause a
 * connection by themselves; if they exceed {@link #PARTIAL_LIMIT} the connection is closed (no
 * real client sends that many unfinished uploads at once). Counting happens on the connection's
 * event loop; releases may come from any thread and are handed to it.
 */
final class InflightBytes {
    private static final System.Logger LOG = System.getLogger(InflightBytes.class.getName());
    /** Pause reading above this many bytes held by the connection: 64 MiB. */
    static final long HIGH_WATER = 64L * 1024 * 1024;
    /** Resume reading below this many bytes held by the connection: 32 MiB. */
    static final long LOW_WATER = 32L * 1024 * 1024;
    /** Close the connection when partly received bodies hold more than this: 256 MiB. */
    static final long PARTIAL_LIMIT = 256L * 1024 * 1024;

    private final Channel connection;
    private final UploadBudget budget;
    private long partial;
    private long complete;
    private int completeRequests;
    private boolean paused;

    /**
     * @param connection the TCP/TLS channel carrying the HTTP/2 session
     * @param budget     the server-wide budget this connection's bytes count against
     */
    InflightBytes(Channel connection, UploadBudget budget) {
        this.connection = connection;
        this.budget = budget;
        connection.closeFuture().addListener(f -> budget.resumed(this));
    }

    /** {@code n} more body bytes of an unfinished request were buffered (event loop). */
    void received(long n) {
        partial += n;
        budget.add(n);
        if (partial > PARTIAL_LIMIT) {
            LOG.log(Level.WARNING, "closing connection from " + connection.remoteAddress() + ": more than "
                    + PARTIAL_LIMIT + " bytes of unfinished request bodies");
            connection.close();
        }
        if (completeRequests > 0 && !paused) {
            update();
        }
    }

    /** A buffered body of {@code n} bytes was dropped before completing (event loop). */
    void dropped(long n) {
        partial -= n;
        budget.release(n);
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
        budget.release(n);
        if (connection.eventLoop().inEventLoop()) {
            complete -= n;
            completeRequests--;
            update();
        } else {
            connection.eventLoop().execute(() -> {
                complete -= n;
                completeRequests--;
                update();
            });
        }
    }

    /** The server-wide budget fell below its low mark: reconsider pausing (any thread). */
    void wake() {
        if (connection.eventLoop().inEventLoop()) {
            update();
        } else {
            connection.eventLoop().execute(this::update);
        }
    }

    /** Bytes held now by this connection (tests and logs). */
    long held() {
        return partial + complete;
    }

    /** True while reading is paused. */
    boolean paused() {
        return paused;
    }

    private void update() {
        long held = partial + complete;
        if (!paused && completeRequests > 0 && (held > HIGH_WATER || budget.over()) && connection.isActive()) {
            paused = true;
            budget.paused(this);
            connection.config().setAutoRead(false);
        } else if (paused && (completeRequests == 0 || (held < LOW_WATER && budget.belowLow()))) {
            paused = false;
            budget.resumed(this);
            connection.config().setAutoRead(true);
            connection.read();
        }
    }
}
