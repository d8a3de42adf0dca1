package org.jpbs.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.jpbs.server.tls.ServerCertificate;

/**
 * An object store in memory that answers the few S3 calls an S3 datastore makes (path-style
 * object PUT with {@code If-None-Match: *}, GET, HEAD, DELETE, multi-object delete, ListObjectsV2
 * without paging) over HTTPS on loopback — only for {@link StartupTraining}, so that the TLS
 * handshake, the SDK's response parsing and the S3 datastore's code run during the training and
 * land in the start-up cache. Not an S3 server for anything else: no authentication check, no
 * multipart upload, no paging, no versioning; the tests use a real one (s3proxy).
 */
final class TrainingS3Server implements AutoCloseable {
    private static final Pattern DELETE_KEY = Pattern.compile("<Key>([^<]*)</Key>");
    private static final String MODIFIED = "Thu, 01 Jan 2026 00:00:00 GMT";

    private final Map<String, byte[]> objects = new ConcurrentSkipListMap<>();
    private final HttpsServer server;
    private final ExecutorService pool;
    private final String fingerprint;

    private TrainingS3Server(HttpsServer server, ExecutorService pool, String fingerprint) {
        this.server = server;
        this.pool = pool;
        this.fingerprint = fingerprint;
    }

    /** Starts on a free loopback port with a certificate made (or read) in {@code certDir}. */
    static TrainingS3Server start(Path certDir) throws IOException {
        ServerCertificate cert = ServerCertificate.loadOrCreate(certDir);
        SSLContext ctx;
        try {
            char[] pw = "training".toCharArray();
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("s3", cert.key(), pw, cert.chain().toArray(new Certificate[0]));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, pw);
            ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
        } catch (GeneralSecurityException e) {
            throw new IOException("training S3 server: TLS setup failed: " + e.getMessage(), e);
        }
        HttpsServer s = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        s.setHttpsConfigurator(new HttpsConfigurator(ctx));
        ExecutorService pool = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "jpbs-training-s3");
            t.setDaemon(true);
            return t;
        });
        s.setExecutor(pool);
        TrainingS3Server t = new TrainingS3Server(s, pool, cert.fingerprint());
        s.createContext("/", t::handle);
        s.start();
        return t;
    }

    int port() {
        return server.getAddress().getPort();
    }

    String fingerprint() {
        return fingerprint;
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = URLDecoder.decode(ex.getRequestURI().getRawPath(), StandardCharsets.UTF_8);
            Map<String, String> query = query(ex.getRequestURI().getRawQuery());
            int slash = path.indexOf('/', 1);
            String key = slash < 0 ? "" : path.substring(slash + 1);
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readAllBytes();
            }
            switch (ex.getRequestMethod()) {
                case "PUT" -> {
                    if ("*".equals(ex.getRequestHeaders().getFirst("If-None-Match")) && objects.containsKey(key)) {
                        send(ex, 412, error("PreconditionFailed"));
                        return;
                    }
                    objects.put(key, body);
                    ex.getResponseHeaders().set("ETag", etag(body));
                    if (ex.getRequestHeaders().getFirst("x-amz-checksum-crc32c") != null) {
                        // as S3 does: the checksum of what it stored (the client compares it)
                        ex.getResponseHeaders().set("x-amz-checksum-crc32c", crc32c(body));
                    }
                    send(ex, 200, new byte[0]);
                }
                case "GET" -> {
                    if (query.containsKey("list-type")) {
                        send(ex, 200, list(query.getOrDefault("prefix", "")));
                        return;
                    }
                    byte[] data = objects.get(key);
                    if (data == null) {
                        send(ex, 404, error("NoSuchKey"));
                        return;
                    }
                    headers(ex, data);
                    send(ex, 200, data);
                }
                case "HEAD" -> {
                    byte[] data = key.isEmpty() ? new byte[0] : objects.get(key);
                    if (data == null) {
                        ex.sendResponseHeaders(404, -1);
                        return;
                    }
                    headers(ex, data);
                    ex.getResponseHeaders().set("Content-Length", Integer.toString(data.length));
                    ex.sendResponseHeaders(200, -1);
                }
                case "DELETE" -> {
                    objects.remove(key);
                    ex.sendResponseHeaders(204, -1);
                }
                case "POST" -> {
                    if (!query.containsKey("delete")) {
                        send(ex, 501, error("NotImplemented"));
                        return;
                    }
                    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?><DeleteResult>");
                    Matcher m = DELETE_KEY.matcher(new String(body, StandardCharsets.UTF_8));
                    while (m.find()) {
                        String k = unescape(m.group(1));
                        objects.remove(k);
                        xml.append("<Deleted><Key>").append(escape(k)).append("</Key></Deleted>");
                    }
                    send(ex, 200, xml.append("</DeleteResult>").toString().getBytes(StandardCharsets.UTF_8));
                }
                default -> send(ex, 501, error("NotImplemented"));
            }
        }
    }

    private byte[] list(String prefix) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult>")
                .append("<Name>training</Name><Prefix>").append(escape(prefix)).append("</Prefix>");
        int n = 0;
        StringBuilder contents = new StringBuilder();
        for (Map.Entry<String, byte[]> e : objects.entrySet()) {
            if (!e.getKey().startsWith(prefix)) {
                continue;
            }
            n++;
            contents.append("<Contents><Key>").append(escape(e.getKey())).append("</Key>")
                    .append("<LastModified>2026-01-01T00:00:00.000Z</LastModified><ETag>").append(escape(etag(e.getValue())))
                    .append("</ETag><Size>").append(e.getValue().length).append("</Size>")
                    .append("<StorageClass>STANDARD</StorageClass></Contents>");
        }
        xml.append("<KeyCount>").append(n).append("</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>")
                .append(contents).append("</ListBucketResult>");
        return xml.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void headers(HttpExchange ex, byte[] data) {
        ex.getResponseHeaders().set("ETag", etag(data));
        ex.getResponseHeaders().set("Last-Modified", MODIFIED);
        ex.getResponseHeaders().set("Content-Type", "application/octet-stream");
    }

    private static void send(HttpExchange ex, int status, byte[] body) throws IOException {
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static byte[] error(String code) {
        return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>" + code
                + "</Message></Error>").getBytes(StandardCharsets.UTF_8);
    }

    /** The MD5 of the bytes, as S3 answers for an object uploaded in one part. */
    private static String etag(byte[] data) {
        try {
            return "\"" + java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5").digest(data)) + "\"";
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Base64 of the big-endian CRC32C, as in {@code x-amz-checksum-crc32c}. */
    private static String crc32c(byte[] data) {
        java.util.zip.CRC32C c = new java.util.zip.CRC32C();
        c.update(data);
        return java.util.Base64.getEncoder().encodeToString(java.nio.ByteBuffer.allocate(4).putInt((int) c.getValue()).array());
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return q;
        }
        for (String part : raw.split("&")) {
            int eq = part.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8);
            q.put(k, eq < 0 ? "" : URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return q;
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String unescape(String s) {
        return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&");
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
