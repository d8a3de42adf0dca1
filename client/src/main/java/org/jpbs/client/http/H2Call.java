package org.jpbs.client.http;

import java.util.concurrent.CompletableFuture;

/**
 * Requests inside an upgraded backup or reader session ({@code docs/protocol.md#parameters-and-answers-inside-a-session}, {@code docs/protocol.md#reader-session}):
 * each call is a new HTTP/2 stream, and any number may be in flight at once.
 */
@FunctionalInterface
public interface H2Call {
    /**
     * Starts one request.
     *
     * @param method      {@code GET}, {@code POST} or {@code PUT}
     * @param path        the path inside the session, e.g. {@code /fixed_chunk}
     * @param query       the encoded query string without {@code ?} (see {@link Query}), or empty
     * @param contentType the content type, e.g. {@code application/octet-stream}; null for none
     * @param body        the request body, or null/empty for none (not copied: do not modify it
     *                    until the future completes)
     * @return completes with the whole response (any status), or exceptionally with an
     *         {@link java.io.IOException} if the connection fails before the response ends;
     *         completion may happen on a network thread, so dependants must not block
     */
    CompletableFuture<Response> call(String method, String path, String query, String contentType, byte[] body);
}
