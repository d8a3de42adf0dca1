package org.jpbs.server.http;

import io.netty.handler.codec.http.HttpHeaders;
import java.net.SocketAddress;

/**
 * One HTTP/1.1 REST request, fully read.
 *
 * @param method   upper-case method
 * @param path     normalised path ({@link UriPaths#normalize}), e.g. {@code /api2/json/version}
 * @param rawQuery query string without {@code ?}, possibly empty
 * @param headers  request headers
 * @param body     request body (empty if none)
 * @param remote   the client's address
 */
public record RestRequest(String method, String path, String rawQuery, HttpHeaders headers, byte[] body,
                          SocketAddress remote) {

    /**
     * The parameters of this call (§4.1), as PBS takes them for every method: the query string
     * plus a form body, or a JSON body ({@link Params#forApiCall}). A GET/DELETE without a body
     * (what the real client sends) has only its query.
     */
    public Params params() {
        boolean noBodyMethod = method.equals("GET") || method.equals("DELETE") || method.equals("HEAD");
        if (noBodyMethod && body.length == 0) {
            return Params.ofQuery(rawQuery);
        }
        return Params.forApiCall(headers.get("content-type"), rawQuery, body);
    }
}
