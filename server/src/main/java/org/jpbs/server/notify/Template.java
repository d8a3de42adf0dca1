package org.jpbs.server.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The template expansion of webhook URLs, headers and bodies ({@code docs/notifications.md#webhook}),
 * the subset of Handlebars PBS's webhooks use: {@code {{ path }}} (or {@code {{{ path }}}}) with
 * paths {@code title}, {@code message}, {@code severity}, {@code timestamp},
 * {@code fields.<name>}, {@code secrets.<name>}, and the helpers {@code {{ json path }}} (the
 * value as JSON), {@code {{ escape path }}} (a JSON string's content, without quotes) and
 * {@code {{ url-encode path }}}. A path that names nothing expands to nothing; nothing is
 * HTML-escaped. Stateless.
 */
public final class Template {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Template() {}

    /** The data a template sees for a notification and a target's secrets. */
    public static ObjectNode data(Notification n, Map<String, String> secrets) {
        ObjectNode o = JSON.createObjectNode();
        o.put("title", n.title());
        o.put("message", n.message());
        o.put("severity", n.severity().text());
        o.put("timestamp", n.timestamp());
        ObjectNode f = o.putObject("fields");
        n.fields().forEach(f::put);
        ObjectNode s = o.putObject("secrets");
        secrets.forEach(s::put);
        return o;
    }

    /**
     * Expands {@code template}.
     *
     * @throws IllegalArgumentException on an unclosed {@code {{} or an unknown helper
     */
    public static String render(String template, JsonNode data) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (true) {
            int open = template.indexOf("{{", i);
            if (open < 0) {
                out.append(template, i, template.length());
                return out.toString();
            }
            out.append(template, i, open);
            boolean triple = template.startsWith("{{{", open);
            String close = triple ? "}}}" : "}}";
            int end = template.indexOf(close, open + close.length());
            if (end < 0) {
                throw new IllegalArgumentException("unclosed '" + (triple ? "{{{" : "{{") + "' at offset " + open);
            }
            out.append(expand(template.substring(open + close.length(), end).strip(), data));
            i = end + close.length();
        }
    }

    private static String expand(String expr, JsonNode data) {
        String[] p = expr.split("\\s+", 2);
        if (p.length == 1) {
            return text(lookup(data, p[0]));
        }
        JsonNode v = lookup(data, p[1].strip());
        try {
            return switch (p[0]) {
                case "json" -> JSON.writeValueAsString(v == null ? JSON.nullNode() : v);
                case "escape" -> {
                    String q = JSON.writeValueAsString(text(v));
                    yield q.substring(1, q.length() - 1);
                }
                case "url-encode" -> URLEncoder.encode(text(v), StandardCharsets.UTF_8).replace("+", "%20");
                default -> throw new IllegalArgumentException("unknown template helper '" + p[0] + "'");
            };
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode lookup(JsonNode data, String path) {
        JsonNode n = data;
        for (String part : path.split("\\.")) {
            if (n == null || !n.isObject()) {
                return null;
            }
            n = n.get(part);
        }
        return n;
    }

    private static String text(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return "";
        }
        return v.isValueNode() ? v.asText() : v.toString();
    }
}
