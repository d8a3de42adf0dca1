package org.jpbs.server.http;

import java.util.concurrent.Executor;

/**
 * How one HTTP/2 request is served, chosen from its method, path and query as soon as its
 * HEADERS frame arrives (so bad parameters are refused before the body is read).
 *
 * @param executor        where {@link Handler#handle} runs, never the event loop: a session's
 *                        serial executor for state-changing calls, a worker pool for chunk
 *                        uploads and downloads
 * @param maxBody         largest accepted body in bytes
 * @param discardBody     true to count and drop the body without buffering it (speedtest)
 * @param tooLargeMessage the 400 error text sent when the body exceeds {@code maxBody}
 * @param handler         the work, given the whole body
 */
public record Route(Executor executor, long maxBody, boolean discardBody, String tooLargeMessage, Handler handler) {

    /** The request work; runs on {@link #executor()}. */
    @FunctionalInterface
    public interface Handler {
        /**
         * @param body the request body (empty if none, or if discarded)
         * @return the response
         * @throws Exception mapped by {@link ErrorMapper}
         */
        H2Response handle(byte[] body) throws Exception;
    }

    /** A route for a call whose body (if any) is at most {@code maxBody} bytes. */
    public static Route of(Executor executor, long maxBody, Handler handler) {
        return new Route(executor, maxBody, false, "request body too large (limit " + maxBody + " bytes)", handler);
    }
}
