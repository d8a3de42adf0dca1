package org.jpbs.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;

/**
 * A response inside a backup or reader HTTP/2 session: status, content type and body bytes.
 * Non-raw endpoints answer {@code 200} with {@code {"data": <value>}} as
 * {@code application/json;charset=UTF-8}; raw downloads are {@code application/octet-stream};
 * errors carry the bare message text ({@code docs/protocol.md#parameters-and-answers-inside-a-session}, {@code docs/api.md#conventions-as-pbs}).
 *
 * @param status      HTTP status
 * @param contentType value of the content-type header
 * @param body        the body (not copied)
 */
public record H2Response(int status, String contentType, byte[] body) {
    private static final ObjectMapper MAPPER = Json.MAPPER;
    /** Content type of JSON answers (and, as in PBS, of error texts). */
    public static final String JSON_UTF8 = "application/json;charset=UTF-8";
    /** Content type of raw downloads. */
    public static final String OCTET_STREAM = "application/octet-stream";

    /** {@code 200 {"data":<data>}}; {@code data} may be null. */
    public static H2Response data(JsonNode data) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.set("data", data == null ? JsonNodeFactory.instance.nullNode() : data);
        try {
            return new H2Response(200, JSON_UTF8, MAPPER.writeValueAsBytes(o));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code 200 {"data":null}}. */
    public static H2Response nullData() {
        return data(null);
    }

    /** {@code 200 {"data":"<text>"}}. */
    public static H2Response text(String text) {
        return data(JsonNodeFactory.instance.textNode(text));
    }

    /** {@code 200 {"data":<n>}}. */
    public static H2Response number(long n) {
        return data(JsonNodeFactory.instance.numberNode(n));
    }

    /** {@code 200} with raw bytes ({@code application/octet-stream}). */
    public static H2Response raw(byte[] body) {
        return new H2Response(200, OCTET_STREAM, body);
    }

    /** The error's status with its message as the body. */
    public static H2Response error(ApiException e) {
        return new H2Response(e.status(), JSON_UTF8, e.getMessage().getBytes(StandardCharsets.UTF_8));
    }
}
