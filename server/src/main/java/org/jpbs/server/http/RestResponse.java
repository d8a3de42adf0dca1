package org.jpbs.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * An HTTP/1.1 REST response.
 *
 * @param status      HTTP status
 * @param contentType content-type header value
 * @param body        body bytes
 * @param headers     extra headers (e.g. set-cookie), possibly empty
 */
public record RestResponse(int status, String contentType, byte[] body, Map<String, String> headers) {

    /** {@code 200 {"data": <data>}} as {@code application/json;charset=UTF-8}. */
    public static RestResponse data(JsonNode data) {
        H2Response r = H2Response.data(data);
        return new RestResponse(200, r.contentType(), r.body(), Map.of());
    }
}
