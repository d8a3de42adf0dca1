package org.jpbs.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jpbs.core.digest.Digest;

/**
 * API call parameters, from the query string, a form body or a JSON body ({@code docs/protocol.md#parameters-and-answers-inside-a-session}, {@code docs/api.md#conventions-as-pbs}). Values are kept as JSON nodes:
 * query and form values are text (a repeated key becomes an array), JSON bodies keep their
 * types. Typed getters validate and throw {@link ApiException#badParam} with PBS-style
 * reasons ({@code "parameter is missing and it is not optional."}, {@code "value must have a
 * minimum value of 1"}, ...). Unknown parameters are ignored.
 *
 * <p>As the PBS schema does, values of a JSON body must have their JSON type: an integer
 * parameter a JSON integer ({@code "wid":"1"} is refused with {@code "Expected integer
 * value."}), a boolean a JSON boolean ({@code "Expected boolean value."}), a string a JSON
 * string ({@code "Expected string value."}), an array a JSON array ({@code "Expected array -
 * got scalar value."}). Query and form values are text that must parse ({@code "invalid digit
 * found in string"}, {@code "Unable to parse boolean option."}).
 */
public final class Params {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /**
     * Size from which the form or JSON parameter body of a REST API call is refused with 400
     * {@code "Request body too large"}, as PBS's REST server does (512 KiB; {@link
     * RestRequest#params}); upload calls read their bodies themselves and are not limited by it.
     */
    public static final int MAX_PARAMETER_BODY = 512 * 1024;

    /** Content type of JSON bodies. */
    public static final String JSON = "application/json";
    /** Content type of form bodies (and of the real client's parameterless calls). */
    public static final String FORM = "application/x-www-form-urlencoded";

    private final ObjectNode values;
    private final boolean typed;

    private Params(ObjectNode values, boolean typed) {
        this.values = values;
        this.typed = typed;
    }

    private Params(ObjectNode values) {
        this(values, false);
    }

    /** True if the values came from a JSON body (and so must have their JSON types). */
    public boolean typed() {
        return typed;
    }

    /** The JSON value of a parameter of a JSON body (empty if absent or not from JSON). */
    public Optional<JsonNode> jsonValue(String name) {
        JsonNode n = values.get(name);
        return typed && n != null ? Optional.of(n) : Optional.empty();
    }

    /** Parameters of a query string (without the leading {@code ?}; may be empty). */
    public static Params ofQuery(String rawQuery) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        addDecoded(o, rawQuery);
        return new Params(o);
    }

    private static void addDecoded(ObjectNode o, String raw) {
        if (raw == null || raw.isEmpty()) {
            return;
        }
        QueryStringDecoder d = new QueryStringDecoder(raw, StandardCharsets.UTF_8, false);
        for (Map.Entry<String, List<String>> e : d.parameters().entrySet()) {
            List<String> vals = e.getValue();
            if (vals.size() == 1) {
                o.put(e.getKey(), vals.getFirst());
            } else {
                ArrayNode a = o.putArray(e.getKey());
                vals.forEach(a::add);
            }
        }
    }

    /**
     * Parameters of a normal (non-raw) API call: a JSON body for {@code application/json},
     * otherwise the query string plus a form body ({@code application/x-www-form-urlencoded}
     * or no content type).
     *
     * @throws ApiException 400 {@code "unsupported content type"} for other types, {@code "Request body
     *                      not uft8: <Rust's Utf8Error>"} (PBS's text and spelling) for a body that is
     *                      not UTF-8, or on invalid JSON
     */
    public static Params forApiCall(String contentType, String rawQuery, byte[] body) {
        String ct = contentType == null ? "" : contentType.toLowerCase(java.util.Locale.ROOT);
        int semi = ct.indexOf(';');
        if (semi >= 0) {
            ct = ct.substring(0, semi);
        }
        ct = ct.trim();
        boolean json = ct.equals(JSON);
        if (!json && !ct.isEmpty() && !ct.equals(FORM)) {
            throw ApiException.badRequest("unsupported content type");
        }
        // as PBS's REST server: the raw body must be UTF-8 before it is parsed (a percent-encoded
        // invalid byte in a form value is decoded leniently, as there)
        String utf8Error = Utf8Validation.error(body);
        if (utf8Error != null) {
            throw ApiException.badRequest("Request body not uft8: " + utf8Error);
        }
        if (json) {
            if (body.length == 0) {
                return new Params(JsonNodeFactory.instance.objectNode());
            }
            try {
                JsonNode n = MAPPER.readTree(body);
                if (n == null || !n.isObject()) {
                    throw ApiException.badRequest("request body is not a JSON object");
                }
                return new Params((ObjectNode) n, true);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw ApiException.badRequest("unable to parse JSON body - " + e.getOriginalMessage());
            } catch (IOException e) {
                throw ApiException.badRequest("unable to parse JSON body - " + e.getMessage());
            }
        }
        if (ct.isEmpty() || ct.equals(FORM)) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            addDecoded(o, rawQuery);
            addDecoded(o, new String(body, StandardCharsets.UTF_8));
            return new Params(o);
        }
        throw ApiException.badRequest("unsupported content type");
    }

    /**
     * Every parameter as strings: name to its values (a JSON array gives several values, other
     * JSON values their text), in request order.
     */
    public Map<String, List<String>> asStrings() {
        Map<String, List<String>> out = new java.util.LinkedHashMap<>();
        values.properties().forEach(e -> {
            List<String> l = new java.util.ArrayList<>();
            JsonNode n = e.getValue();
            if (n.isArray()) {
                n.forEach(x -> l.add(x.isTextual() ? x.textValue() : x.toString()));
            } else if (!n.isNull()) {
                l.add(n.isTextual() ? n.textValue() : n.toString());
            }
            out.put(e.getKey(), l);
        });
        return out;
    }

    /** True if the parameter is present. */
    public boolean has(String name) {
        return values.has(name) && !values.get(name).isNull();
    }

    /** A required string parameter. */
    public String string(String name) {
        return optString(name).orElseThrow(() -> missing(name));
    }

    /**
     * A required file name in a snapshot ({@code file-name}, {@code archive-name}): PBS's
     * {@code BACKUP_ARCHIVE_NAME_SCHEMA}, a SAFE_ID {@code [A-Za-z0-9_][A-Za-z0-9._-]*}, so no
     * {@code '/'}, no leading {@code '.'} (hence no {@code ".."}).
     *
     * @throws ApiException 400 {@code "parameter verification failed - '<name>': value does not
     *     match the regex pattern"}
     */
    public String fileName(String name) {
        String v = string(name);
        maxLength(name, v, org.jpbs.core.api.ArchiveName.MAX_LENGTH);
        if (!org.jpbs.core.api.SafeId.isValid(v)) {
            throw ApiException.badParam(name, "value does not match the regex pattern");
        }
        return v;
    }

    /**
     * The schema's length check of a string parameter (PBS checks it before the pattern).
     *
     * @throws ApiException 400 {@code "parameter verification failed - '<name>': value may only be
     *     <max> characters long"}
     */
    public static void maxLength(String name, String value, int max) {
        if (value.length() > max) {
            throw ApiException.badParam(name, "value may only be " + max + " characters long");
        }
    }

    /** An optional string parameter. */
    public Optional<String> optString(String name) {
        JsonNode n = values.get(name);
        if (n == null || n.isNull()) {
            return Optional.empty();
        }
        if (typed && !n.isTextual()) {
            throw ApiException.badParam(name, "Expected string value.");
        }
        if (n.isArray()) {
            throw ApiException.badParam(name, "got multiple values.");
        }
        return Optional.of(n.isTextual() ? n.textValue() : n.toString());
    }

    /**
     * A required integer in {@code [min, max]}.
     *
     * @throws ApiException if missing, not an integer or out of range
     */
    public long integer(String name, long min, long max) {
        if (!has(name)) {
            throw missing(name);
        }
        return toInteger(name, values.get(name), min, max);
    }

    /** An optional integer in {@code [min, max]}. */
    public Optional<Long> optInteger(String name, long min, long max) {
        return has(name) ? Optional.of(toInteger(name, values.get(name), min, max)) : Optional.empty();
    }

    private long toInteger(String name, JsonNode n, long min, long max) {
        long v;
        if (typed) {
            if (!n.isIntegralNumber() || !n.canConvertToLong()) {
                throw ApiException.badParam(name, "Expected integer value.");
            }
            v = n.longValue();
        } else if (n.isTextual()) {
            v = parseInteger(name, n.textValue());
        } else if (n.isArray()) {
            throw ApiException.badParam(name, "got multiple values.");
        } else {
            throw ApiException.badParam(name, "Expected integer value.");
        }
        if (v < min) {
            throw ApiException.badParam(name, "value must have a minimum value of " + min);
        }
        if (v > max) {
            throw ApiException.badParam(name, "value must have a maximum value of " + max);
        }
        return v;
    }

    /**
     * Parses the text of a query or form integer as PBS does (Rust {@code str::parse}).
     *
     * @throws ApiException 400 {@code "cannot parse integer from empty string"}, {@code "invalid
     *     digit found in string"} or {@code "number too large/small to fit in target type"}
     */
    public static long parseInteger(String name, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            String reason;
            if (v.isEmpty()) {
                reason = "cannot parse integer from empty string";
            } else if (v.matches("[+-]?[0-9]+")) {
                reason = v.startsWith("-") ? "number too small to fit in target type" : "number too large to fit in target type";
            } else {
                reason = "invalid digit found in string";
            }
            throw ApiException.badParam(name, reason);
        }
    }

    /**
     * A boolean: a JSON boolean in a JSON body, else {@code true/false, 1/0, yes/no, on/off}
     * (any case); {@code dflt} if absent.
     */
    public boolean bool(String name, boolean dflt) {
        JsonNode n = values.get(name);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (typed) {
            if (!n.isBoolean()) {
                throw ApiException.badParam(name, "Expected boolean value.");
            }
            return n.booleanValue();
        }
        if (!n.isTextual()) {
            throw ApiException.badParam(name, n.isArray() ? "got multiple values." : "Expected boolean value.");
        }
        return switch (n.textValue().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw ApiException.badParam(name, "Unable to parse boolean option.");
        };
    }

    /** A required SHA-256 digest given as 64 hex digits. */
    public Digest digest(String name) {
        return toDigest(name, string(name));
    }

    /** An optional digest. */
    public Optional<Digest> optDigest(String name) {
        return optString(name).map(s -> toDigest(name, s));
    }

    private static Digest toDigest(String name, String s) {
        if (s.length() != 64 || !Digest.isHex(s)) {
            throw ApiException.badParam(name, "value does not match the regex pattern");
        }
        return Digest.parse(s);
    }

    /** A required array of digests (JSON array, or repeated query values). */
    public List<Digest> digestList(String name) {
        List<Digest> out = new ArrayList<>();
        for (JsonNode n : array(name)) {
            if (!n.isTextual()) {
                throw ApiException.badParam(name, "Expected string value.");
            }
            out.add(toDigest(name, n.textValue()));
        }
        return out;
    }

    /** A required array of unsigned integers (JSON array, or repeated query values). */
    public long[] integerList(String name) {
        List<JsonNode> a = array(name);
        long[] out = new long[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = toInteger(name, a.get(i), 0, Long.MAX_VALUE);
        }
        return out;
    }

    private List<JsonNode> array(String name) {
        JsonNode n = values.get(name);
        if (n == null || n.isNull()) {
            throw missing(name);
        }
        List<JsonNode> out = new ArrayList<>();
        if (n.isArray()) {
            n.forEach(out::add);
        } else if (typed) {
            throw ApiException.badParam(name, n.isObject() ? "Expected array - got object." : "Expected array - got scalar value.");
        } else {
            out.add(n);
        }
        return out;
    }

    private static ApiException missing(String name) {
        return ApiException.badParam(name, "parameter is missing and it is not optional.");
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
