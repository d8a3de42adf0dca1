package org.jpbs.server.metrics;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Pushes host and datastore figures ({@link InfluxLines}) to every enabled server of
 * {@code metricserver.cfg} ({@code docs/metrics.md#metric-servers}) every interval (PBS: 10 s;
 * system property {@code jpbs.metrics.push-interval-ms}): InfluxDB v2 HTTP as
 * {@code POST <url>/api/v2/write?org=<organization>&bucket=<bucket>&precision=ns} with
 * {@code Authorization: Token <token>} in bodies of at most {@code max-body-size} bytes, and
 * UDP datagrams of at most {@code mtu} bytes of whole lines. The file is read at every push; a
 * server that is down is logged and tried again at the next push. Stop with {@link #close()}.
 */
public final class MetricPusher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(MetricPusher.class.getName());
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Path configDir;
    private final String node;
    private final Supplier<List<DatastoreUsage>> usage;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "jpbs-metric-push");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final HttpClient httpNoVerify = HttpClient.newBuilder().connectTimeout(TIMEOUT).sslContext(trustAll()).build();

    /**
     * Starts pushing.
     *
     * @param configDir where {@code metricserver.cfg} is
     * @param node      the {@code host} tag
     * @param usage     the datastores' usage
     */
    public MetricPusher(Path configDir, String node, Supplier<List<DatastoreUsage>> usage) {
        this.configDir = configDir;
        this.node = node;
        this.usage = usage;
        long every = Long.getLong("jpbs.metrics.push-interval-ms", 10_000L);
        timer.scheduleWithFixedDelay(this::pushQuietly, every, every, TimeUnit.MILLISECONDS);
    }

    private void pushQuietly() {
        try {
            push();
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.ERROR, "metric push: " + e.getMessage());
        }
    }

    /** One push to every enabled server now. */
    public void push() throws IOException {
        MetricServerConfig cfg = MetricServerConfig.load(configDir);
        if (cfg.http().isEmpty() && cfg.udp().isEmpty()) {
            return;
        }
        List<String> lines = InfluxLines.collect(node, configDir, usage.get(), System.currentTimeMillis() / 1000);
        for (MetricServerConfig.Http h : cfg.http()) {
            try {
                for (String body : batches(lines, h.maxBodySize())) {
                    sendHttp(h, body);
                }
            } catch (IOException e) {
                LOG.log(Level.ERROR, "error sending to metric server " + h.name() + ": " + e.getMessage());
            }
        }
        for (MetricServerConfig.Udp u : cfg.udp()) {
            try {
                sendUdp(u, lines);
            } catch (IOException e) {
                LOG.log(Level.ERROR, "error sending to metric server " + u.name() + ": " + e.getMessage());
            }
        }
    }

    /** Whole lines joined by newlines, each batch at most {@code max} bytes (a longer line goes alone). */
    static List<String> batches(List<String> lines, long max) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String l : lines) {
            int len = l.getBytes(StandardCharsets.UTF_8).length + 1;
            if (!cur.isEmpty() && cur.length() + len > max) {
                out.add(cur.toString());
                cur.setLength(0);
            }
            cur.append(l).append('\n');
        }
        if (!cur.isEmpty()) {
            out.add(cur.toString());
        }
        return out;
    }

    private void sendHttp(MetricServerConfig.Http h, String body) throws IOException {
        String base = h.url().endsWith("/") ? h.url().substring(0, h.url().length() - 1) : h.url();
        URI uri = URI.create(base + "/api/v2/write?org=" + URLEncoder.encode(h.organization(), StandardCharsets.UTF_8)
                + "&bucket=" + URLEncoder.encode(h.bucket(), StandardCharsets.UTF_8) + "&precision=ns");
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(TIMEOUT)
                .header("Content-Type", "text/plain; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (h.token() != null) {
            b.header("Authorization", "Token " + h.token());
        }
        try {
            HttpResponse<String> r = (h.verifyTls() ? http : httpNoVerify).send(b.build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 != 2) {
                throw new IOException("HTTP " + r.statusCode() + ": " + r.body().strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static void sendUdp(MetricServerConfig.Udp u, List<String> lines) throws IOException {
        InetAddress addr = InetAddress.getByName(u.host());
        try (DatagramSocket s = new DatagramSocket()) {
            for (String payload : batches(lines, u.mtu())) {
                byte[] b = payload.getBytes(StandardCharsets.UTF_8);
                s.send(new DatagramPacket(b, b.length, addr, u.port()));
            }
        }
    }

    private static javax.net.ssl.SSLContext trustAll() {
        try {
            javax.net.ssl.SSLContext c = javax.net.ssl.SSLContext.getInstance("TLS");
            c.init(null, new javax.net.ssl.TrustManager[] {new javax.net.ssl.X509TrustManager() {
                @Override
                public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {}

                @Override
                public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {}

                @Override
                public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                    return new java.security.cert.X509Certificate[0];
                }
            }}, null);
            return c;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
