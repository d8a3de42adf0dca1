package org.jpbs.server.http;

/**
 * The protocol spoken inside one upgraded HTTP/2 connection: a backup or a reader session
 * (spec {@code pbs-protocol.md} §2, §3). One instance per connection.
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
}
