package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeSet;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/** HTTPS requests with the JDK client (trusting any certificate) and a JSON shape comparator. */
final class ApiTestSupport {
    static final ObjectMapper JSON = new ObjectMapper();

    private ApiTestSupport() {}

    /**
     * A server on 127.0.0.1 (ephemeral port) with the users of {@code config}, the given
     * datastores, no failure delays and GC/prune/verify run as tasks ({@link LocalDatastoreJobs}).
     */
    static org.jpbs.server.JpbsServer startWithJobs(java.nio.file.Path config, Map<String, java.nio.file.Path> stores)
            throws Exception {
        org.jpbs.server.auth.FileAuthenticator auth = org.jpbs.server.auth.FileAuthenticator.open(config);
        org.jpbs.server.ServerConfig sc = new org.jpbs.server.ServerConfig(config, stores, "127.0.0.1", 0);
        JpbsRestHandler rest = JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO);
        rest = rest.withServices(rest.services().withJobs(new LocalDatastoreJobs("root@pam")));
        return org.jpbs.server.JpbsServer.start(sc, auth, rest);
    }

    /** One answer. */
    record Resp(int status, String contentType, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        JsonNode json() throws Exception {
            return JSON.readTree(body);
        }
    }

    /** A client for {@code https://127.0.0.1:<port>} over HTTP/1.1. */
    static final class Client {
        private final HttpClient http;
        private final String base;

        Client(int port) throws Exception {
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, new TrustManager[] {new TrustAll()}, null);
            http = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            base = "https://127.0.0.1:" + port;
        }

        Resp send(String method, String pathAndQuery, Map<String, String> headers, String formBody) throws Exception {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(60));
            headers.forEach(b::header);
            if (formBody != null) {
                b.header("Content-Type", "application/x-www-form-urlencoded");
                b.method(method, HttpRequest.BodyPublishers.ofString(formBody));
            } else {
                b.method(method, HttpRequest.BodyPublishers.noBody());
            }
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Resp(r.statusCode(), r.headers().firstValue("content-type").orElse(null), r.body());
        }

        Resp postJson(String path, String json) throws Exception {
            HttpRequest r = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build();
            HttpResponse<byte[]> a = http.send(r, HttpResponse.BodyHandlers.ofByteArray());
            return new Resp(a.statusCode(), a.headers().firstValue("content-type").orElse(null), a.body());
        }

        /** A POST with a JSON body and extra headers (how the real client sends POST parameters). */
        Resp postJson(String path, Map<String, String> headers, String json) throws Exception {
            return sendBytes("POST", path, headers, "application/json", json.getBytes(StandardCharsets.UTF_8));
        }

        /** Any method with a body of the given content type. */
        Resp sendBytes(String method, String pathAndQuery, Map<String, String> headers, String contentType, byte[] body)
                throws Exception {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(60));
            headers.forEach(b::header);
            b.header("Content-Type", contentType);
            b.method(method, HttpRequest.BodyPublishers.ofByteArray(body));
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Resp(r.statusCode(), r.headers().firstValue("content-type").orElse(null), r.body());
        }

        Resp get(String pathAndQuery, Map<String, String> headers) throws Exception {
            return send("GET", pathAndQuery, headers, null);
        }

        void close() {
            http.close();
        }
    }

    /** Logs in with a password: the ticket cookie and CSRF header for later calls. */
    static Map<String, String> login(Client http, String user, String password) throws Exception {
        Resp r = http.send("POST", "/api2/json/access/ticket", Map.of(), "username="
                + java.net.URLEncoder.encode(user, StandardCharsets.UTF_8) + "&password="
                + java.net.URLEncoder.encode(password, StandardCharsets.UTF_8));
        assertEquals(200, r.status(), r.text());
        JsonNode t = r.json().get("data");
        return Map.of("Cookie", "PBSAuthCookie=" + java.net.URLEncoder.encode(t.get("ticket").asText(), StandardCharsets.UTF_8),
                "CSRFPreventionToken", t.get("CSRFPreventionToken").asText());
    }

    /** Closes the client, then the server; either may be null (a failed start). */
    static void close(Client http, AutoCloseable server) throws Exception {
        if (http != null) {
            http.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** Trusts every server certificate, without host name checks (tests only). */
    static final class TrustAll extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    /** The JSON kind of a value: object, array, string, integer, number, boolean or null. */
    static String kind(JsonNode n) {
        if (n.isObject()) {
            return "object";
        }
        if (n.isArray()) {
            return "array";
        }
        if (n.isTextual()) {
            return "string";
        }
        if (n.isIntegralNumber()) {
            return "integer";
        }
        if (n.isNumber()) {
            return "number";
        }
        if (n.isBoolean()) {
            return "boolean";
        }
        return n.isNull() ? "null" : n.getNodeType().toString();
    }

    /**
     * Asserts the same shape: same kinds, objects with the same field names, arrays of the same
     * length whose elements have the same shapes; values may differ.
     */
    static void assertSameShape(JsonNode expected, JsonNode actual, String where) {
        assertEquals(kind(expected), kind(actual), where + ": kind");
        if (expected.isObject()) {
            TreeSet<String> e = new TreeSet<>();
            TreeSet<String> a = new TreeSet<>();
            expected.fieldNames().forEachRemaining(e::add);
            actual.fieldNames().forEachRemaining(a::add);
            assertEquals(e, a, where + ": field names");
            for (String f : e) {
                assertSameShape(expected.get(f), actual.get(f), where + "." + f);
            }
        } else if (expected.isArray()) {
            assertEquals(expected.size(), actual.size(), where + ": array length");
            Iterator<JsonNode> ei = expected.elements();
            Iterator<JsonNode> ai = actual.elements();
            for (int i = 0; ei.hasNext(); i++) {
                assertSameShape(ei.next(), ai.next(), where + "[" + i + "]");
            }
        }
    }

    /** Asserts that {@code actual} matches {@code expected}'s shape and that a shape check is not vacuous. */
    static void assertShape(JsonNode expected, JsonNode actual, String name) {
        assertTrue(expected.has("data"), name + ": golden answer has data");
        assertSameShape(expected, actual, name);
    }
}
