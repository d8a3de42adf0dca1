package org.jpbs.server.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Sends a notification over HTTP ({@code docs/notifications.md#webhook}, {@code #gotify}):
 * {@code webhook} targets send {@code method} (post, put, get) to {@code url} with each
 * {@code header name=N,value=<base64>} and the base64 {@code body}, all expanded as
 * {@link Template}s with the target's secrets ({@code secret name=N,value=<base64>} in the
 * private file); {@code gotify} targets POST {@code {"title","message","priority","extras"}} to
 * {@code <server>/message} with the private {@code token} in {@code X-Gotify-Key}. A status
 * outside 2xx is a failure. Secrets are masked in every error message. Stateless.
 */
final class HttpSender {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER).build();

    private HttpSender() {}

    static void webhook(NotificationConfig.Entry t, Notification n) throws IOException {
        Map<String, String> secrets = new LinkedHashMap<>();
        for (String s : t.secrets().values("secret")) {
            Map<String, String> kv = keyValue(s);
            secrets.put(kv.get("name"), decode(kv.getOrDefault("value", ""), "secret '" + kv.get("name") + "'"));
        }
        try {
            ObjectNode data = Template.data(n, secrets);
            String url = Template.render(t.get("url"), data);
            String body = t.get("body") == null ? "" : Template.render(decode(t.get("body"), "body"), data);
            String method = t.get("method") == null ? "POST" : t.get("method").toUpperCase(Locale.ROOT);
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT);
            for (String h : t.values("header")) {
                Map<String, String> kv = keyValue(h);
                b.header(kv.get("name"), Template.render(decode(kv.getOrDefault("value", ""), "header '" + kv.get("name") + "'"), data));
            }
            b.method(method, method.equals("GET") ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            send(b.build());
        } catch (IOException | RuntimeException e) {
            throw new IOException(mask(e.getMessage() == null ? e.toString() : e.getMessage(), secrets), null);
        }
    }

    static void gotify(NotificationConfig.Entry t, Notification n) throws IOException {
        String token = t.secret("token") == null ? "" : t.secret("token");
        ObjectNode o = JSON.createObjectNode();
        o.put("title", n.title());
        o.put("message", n.message());
        o.put("priority", n.severity().gotifyPriority());
        o.putObject("extras").putObject("client::display").put("contentType", "text/markdown");
        String server = t.get("server");
        try {
            URI uri = URI.create((server.endsWith("/") ? server : server + "/") + "message");
            send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("X-Gotify-Key", token)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(o.toString(), StandardCharsets.UTF_8)).build());
        } catch (IOException | RuntimeException e) {
            throw new IOException(mask(e.getMessage() == null ? e.toString() : e.getMessage(), Map.of("token", token)), null);
        }
    }

    private static void send(HttpRequest r) throws IOException {
        HttpResponse<String> a;
        try {
            a = CLIENT.send(r, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (java.net.ConnectException e) {
            throw new IOException("cannot connect to " + r.uri().getHost() + ":" + r.uri().getPort() + ": connection refused", e);
        }
        if (a.statusCode() / 100 != 2) {
            throw new IOException("HTTP " + a.statusCode() + " from " + r.uri().getHost() + ": " + abbreviate(a.body()));
        }
    }

    private static String abbreviate(String s) {
        String l = s.strip().replace('\n', ' ');
        return l.length() > 200 ? l.substring(0, 200) + "..." : l;
    }

    /** A property string {@code name=N,value=V} as a map. */
    static Map<String, String> keyValue(String s) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String part : s.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                m.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
            }
        }
        if (!m.containsKey("name")) {
            throw new IllegalArgumentException("'" + s + "' has no name=");
        }
        return m;
    }

    private static String decode(String b64, String what) {
        try {
            return new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("could not decode base64 value of " + what, e);
        }
    }

    private static String mask(String s, Map<String, String> secrets) {
        String out = s;
        for (String v : secrets.values()) {
            if (v != null && !v.isEmpty()) {
                out = out.replace(v, "<masked>");
            }
        }
        return out;
    }
}
