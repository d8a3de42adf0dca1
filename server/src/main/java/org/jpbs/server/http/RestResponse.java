package org.jpbs.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * An HTTP/1.1 REST response.
 *
 * @param status      HTTP status
 * @param contentType content-type header value
 * @param body        body bytes
 * @param headers     extra headers (e.g. set-cookie), possibly empty
 * @param stream      writes the body instead of {@code body} (sent with chunked transfer
 *                    encoding, memory bounded by the connection's flow control), or null
 */
public record RestResponse(int status, String contentType, byte[] body, Map<String, String> headers, BodyWriter stream) {
    private static final ObjectMapper MAPPER = Json.MAPPER;
    private static final byte[] EMPTY = new byte[0];

    /** Writes a streamed body; runs on a worker thread and may block while the client is slow. */
    @FunctionalInterface
    public interface BodyWriter {
        /**
         * Writes the whole body to {@code out} (do not close it).
         *
         * @throws IOException if the body cannot be produced or the client went away (the
         *                     connection is then closed: the client sees a truncated body)
         */
        void writeTo(OutputStream out) throws IOException;
    }

    /** A response with a body in memory. */
    public RestResponse(int status, String contentType, byte[] body, Map<String, String> headers) {
        this(status, contentType, body, headers, null);
    }

    /** {@code 200} with a streamed body of {@code contentType}. */
    public static RestResponse streamed(String contentType, BodyWriter writer) {
        return new RestResponse(200, contentType, EMPTY, Map.of(), writer);
    }

    /** {@code 200} with the JSON object {@code whole} as the body (e.g. {@code {"total":..,"data":..}}). */
    public static RestResponse json(ObjectNode whole) {
        try {
            return new RestResponse(200, H2Response.JSON_UTF8, MAPPER.writeValueAsBytes(whole), Map.of());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code 200 {"data": <data>}} as {@code application/json;charset=UTF-8}. */
    public static RestResponse data(JsonNode data) {
        H2Response r = H2Response.data(data);
        return new RestResponse(200, r.contentType(), r.body(), Map.of());
    }
}
