package org.jpbs.client.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP response, fully read.
 *
 * <p>PBS conventions ({@code docs/protocol.md#parameters-and-answers-inside-a-session}, {@code docs/api.md#conventions-as-pbs}): a successful API call answers
 * {@code 200} with {@code {"data": <value>}}; an error answers a non-2xx status with the bare
 * message text as the body; raw downloads are {@code application/octet-stream}.
 *
 * @param status      HTTP status code
 * @param contentType the {@code content-type} header, or null
 * @param body        the body bytes (not copied; empty, never null)
 */
public record Response(int status, String contentType, byte[] body) {
    static final ObjectMapper JSON = new ObjectMapper();

    /** True for a 2xx status. */
    public boolean isSuccess() {
        return status >= 200 && status < 300;
    }

    /** The body as UTF-8 text. */
    public String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /**
     * Throws unless the status is 2xx.
     *
     * @param what what was asked, for the message (e.g. {@code "upload of chunk ab12..."})
     * @return this response
     * @throws HttpStatusException with the status and the server's message
     */
    public Response check(String what) throws HttpStatusException {
        if (!isSuccess()) {
            throw new HttpStatusException(what, status, text());
        }
        return this;
    }

    /**
     * The {@code data} member of a JSON answer; {@link NullNode} for an empty body or
     * {@code "data": null}.
     *
     * @param what what was asked, for error messages
     * @throws HttpStatusException if the status is not 2xx
     * @throws IOException if the body is not a JSON object with a {@code data} member
     */
    /**
     * The whole JSON answer object, after the status check.
     *
     * @throws IOException if the body is not a JSON object
     */
    public JsonNode json(String what) throws IOException {
        check(what);
        try {
            JsonNode root = JSON.readTree(body);
            if (root == null || !root.isObject()) {
                throw new IOException(what + ": the server's answer is not a JSON object");
            }
            return root;
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException(what + ": the server's answer is not JSON (" + e.getMessage() + ")", e);
        }
    }

    /**
     * The {@code data} member (see {@link #json}'s sibling).
     *
     * @throws IOException if the body is not a JSON object with a {@code data} member
     */
    public JsonNode data(String what) throws IOException {
        check(what);
        if (body.length == 0) {
            return NullNode.getInstance();
        }
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            throw new IOException(what + ": the server's answer is not JSON (" + e.getMessage() + ")", e);
        }
        if (root == null || !root.has("data")) {
            throw new IOException(what + ": the server's answer has no 'data' member");
        }
        return root.get("data");
    }

    @Override
    public String toString() {
        return status + " " + (body.length > 200 ? "<" + body.length + " bytes>" : text());
    }
}
