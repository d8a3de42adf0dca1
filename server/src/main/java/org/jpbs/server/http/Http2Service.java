package org.jpbs.server.http;

/**
 * The protocol spoken inside one upgraded HTTP/2 connection: a backup or a reader session
 * ({@code docs/protocol.md#backup-session}, {@code docs/protocol.md#reader-session}). One instance per connection.
 */
public interface Http2Service {
    /**
     * Chooses how to serve a request; called on the event loop when the request's HEADERS
     * arrive, so it must not block.
     *
     * @param method      upper-case HTTP method
     * @param path        normalised path ({@link UriPaths#normalize}), e.g. {@code /fixed_chunk}
     * @param rawQuery    the query string without {@code ?} (may be empty)
     * @param contentType the content-type header or null
     * @throws ApiException e.g. 404 {@code "Path '/x' not found."} or a parameter error
     */
    Route route(String method, String path, String rawQuery, String contentType);

    /** The connection has ended (called once, from any thread); must not block the caller for long. */
    void connectionClosed();

    /**
     * A request of this connection was answered with an error (any thread). PBS writes each such
     * answer into the session's task log ({@link #failureLine}); the default does nothing.
     *
     * @param method upper-case HTTP method
     * @param path   normalised path without the query
     * @param error  the answer
     */
    default void requestFailed(String method, String path, ApiException error) {}

    /**
     * The task log line of a failed request as PBS's HTTP/2 service writes it:
     * {@code "<method> <path>: <status> <reason>: <message>"}, e.g.
     * {@code "POST /finish: 400 Bad Request: backup does not contain valid files (file count == 0)"}.
     */
    static String failureLine(String method, String path, ApiException error) {
        String reason = io.netty.handler.codec.http.HttpResponseStatus.valueOf(error.status()).reasonPhrase();
        return method + " " + path + ": " + error.status() + " " + reason + ": " + error.getMessage();
    }
}
