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
     * The parameters of this call ({@code docs/api.md#conventions-as-pbs}), as PBS takes them for every method: the query string
     * plus a form body, or a JSON body ({@link Params#forApiCall}). A GET/DELETE without a body
     * (what the real client sends) has only its query.
     *
     * @throws ApiException 400 {@code "Request body too large"} for a body of {@link
     *     Params#MAX_PARAMETER_BODY} bytes or more (PBS), else as {@link Params#forApiCall}
     */
    public Params params() {
        boolean noBodyMethod = method.equals("GET") || method.equals("DELETE") || method.equals("HEAD");
        if (noBodyMethod && body.length == 0) {
            return Params.ofQuery(rawQuery);
        }
        if (body.length >= Params.MAX_PARAMETER_BODY) {
            // PBS reads parameter bodies below 512 KiB only; upload calls read body() themselves
            throw ApiException.badRequest("Request body too large");
        }
        return Params.forApiCall(headers.get("content-type"), rawQuery, body);
    }
}
