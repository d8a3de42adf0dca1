package org.jpbs.server.http;

import io.netty.channel.Channel;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Back-pressure for one upgraded HTTP/2 connection through flow control
 * ({@code docs/network-client.md}, "Server memory"): counts the request-body bytes the server
 * holds for it (bodies being received plus complete bodies waiting for or in processing), here
 * and in the server-wide {@link UploadBudget}, and decides when the flow-control credit of
 * received DATA goes back to the client ({@link #consumed}). Credit is withheld while a complete
 * request of this connection is waiting or in processing and this connection holds more than
 * {@link #HIGH_WATER} bytes, or while the server as a whole is over its budget
 * ({@link UploadBudget#over(InflightBytes)}); the client then sends at most the rest of its
 * connection window and waits. Withheld credit goes back when the connection holds less than
 * {@link #LOW_WATER} (or none of its requests is complete, then only more data could free its
 * bytes) and the server is below the budget's low mark or has made this connection the exempt
 * one (no complete request left anywhere). The socket is always read, so control frames keep flowing. Partly
 * received bodies above {@link #PARTIAL_LIMIT} close the connection (no real client sends that
 * many unfinished uploads at once). Counting happens on the connection's event loop; releases
 * may come from any thread and are handed to it.
 */
final class InflightBytes {
    private static final System.Logger LOG = System.getLogger(InflightBytes.class.getName());
    /** Withhold credit above this many bytes held by the connection: 64 MiB. */
    static final long HIGH_WATER = 64L * 1024 * 1024;
    /** Give withheld credit back below this many bytes held by the connection: 32 MiB. */
    static final long LOW_WATER = 32L * 1024 * 1024;
    /** Close the connection when partly received bodies hold more than this: 256 MiB. */
    static final long PARTIAL_LIMIT = 256L * 1024 * 1024;

    /** Where the flow-control credit of one stream goes: a WINDOW_UPDATE on that stream (event loop). */
    interface Window {
        /** Gives {@code bytes} of received DATA back to the client's stream and connection windows. */
        void update(int bytes);
    }

    private final Channel connection;
    private final UploadBudget budget;
    /** Credit withheld per stream, in arrival order (event loop). */
    private final Map<Window, Integer> withheld = new LinkedHashMap<>();
    /** Bytes of unfinished bodies; volatile: the budget reads it from other threads to choose the exempt connection. */
    private volatile long partial;
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
        connection.closeFuture().addListener(f -> budget.closed(this));
    }

    /** True if {@code n} more bytes fit into the server-wide budget now (a body's array may be allocated whole). */
    boolean roomFor(long n) {
        return budget.held() + n <= budget.high();
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
    }

    /**
     * {@code bytes} of flow-controlled DATA of the stream behind {@code window} were read (event
     * loop): their credit goes back now, or later while credit is withheld. {@code held} false
     * for bytes that were dropped (their credit always goes back at once).
     */
    void consumed(Window window, int bytes, boolean held) {
        if (bytes <= 0) {
            return;
        }
        if (held) {
            update();
        }
        if (held && paused) {
            withheld.merge(window, bytes, Integer::sum);
        } else {
            window.update(bytes);
        }
    }

    /** The stream behind {@code window} closed: its withheld credit is forgotten (the codec returns a closed stream's bytes itself). */
    void closed(Window window) {
        withheld.remove(window);
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
        budget.completed();
        update();
    }

    /** A completed request of {@code n} body bytes was processed (any thread). */
    void processed(long n) {
        budget.processed(n);
        if (connection.eventLoop().inEventLoop()) {
            processedHere(n);
        } else {
            connection.eventLoop().execute(() -> processedHere(n));
        }
    }

    private void processedHere(long n) {
        complete -= n;
        completeRequests--;
        update();
    }

    /** The server-wide budget fell below its low mark: reconsider withholding (any thread). */
    void wake() {
        if (connection.eventLoop().inEventLoop()) {
            update();
        } else {
            connection.eventLoop().execute(this::update);
        }
    }

    /** Bytes of unfinished bodies held now (any thread). */
    long partial() {
        return partial;
    }

    /** True while the connection is open (any thread). */
    boolean isOpen() {
        return connection.isActive();
    }

    /** Bytes held now by this connection (tests and logs). */
    long held() {
        return partial + complete;
    }

    /** True while credit is withheld. */
    boolean paused() {
        return paused;
    }

    /** Credit withheld now, in bytes (tests and logs). */
    long withheldBytes() {
        long sum = 0;
        for (int n : withheld.values()) {
            sum += n;
        }
        return sum;
    }

    private void update() {
        long held = partial + complete;
        if (!paused && ((completeRequests > 0 && held > HIGH_WATER) || budget.over(this)) && connection.isActive()) {
            paused = true;
            budget.paused(this);
        } else if (paused && (completeRequests == 0 || held < LOW_WATER) && budget.belowLow(this)) {
            paused = false;
            budget.resumed(this);
            if (!withheld.isEmpty()) {
                for (Map.Entry<Window, Integer> e : withheld.entrySet()) {
                    e.getKey().update(e.getValue());
                }
                withheld.clear();
                connection.flush();
            }
        }
    }
}
