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

    /** The parameters of this call: query for GET/DELETE, body by content type otherwise (§4.1). */
    public Params params() {
        if (method.equals("GET") || method.equals("DELETE") || method.equals("HEAD")) {
            return Params.ofQuery(rawQuery);
        }
        return Params.forApiCall(headers.get("content-type"), rawQuery, body);
    }
}
