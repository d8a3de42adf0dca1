package org.jpbs.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metric-server push of {@code metricserver.cfg} ({@code docs/metrics.md#metric-servers})
 * to an InfluxDB-style HTTP receiver and a UDP socket on 127.0.0.1: request path and query,
 * token header, body size limit, datagram size limit, and every line parsed as line protocol
 * with PBS's measurements and tags; a disabled server gets nothing; a broken file is named.
 */
class MetricPusherTest {
    private static final Pattern LINE = Pattern.compile(
            "([a-z]+)((?:,[a-z_]+=[^, =]+)+) ((?:[a-z0-9_]+=-?[0-9.eE+-]+,?)+) (\\d+)");

    @TempDir
    Path config;
    @TempDir
    Path store;
    HttpServer http;
    DatagramSocket udp;
    final BlockingQueue<String[]> posts = new LinkedBlockingQueue<>();

    @BeforeEach
    void start() throws Exception {
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/", ex -> {
            posts.add(new String[] {ex.getRequestURI().toString(), ex.getRequestHeaders().getFirst("Authorization"),
                    new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)});
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        http.start();
        udp = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        udp.setSoTimeout(10_000);
    }

    @AfterEach
    void stop() {
        http.stop(0);
        udp.close();
        System.clearProperty("jpbs.metrics.push-interval-ms");
    }

    /** measurement, tags, fields of one line; fails on anything that is not line protocol. */
    static Map<String, Map<String, String>> parse(String line, long nowSeconds) {
        Matcher m = LINE.matcher(line);
        assertTrue(m.matches(), "line protocol: " + line);
        long ts = Long.parseLong(m.group(4));
        assertTrue(Math.abs(ts / 1_000_000_000L - nowSeconds) < 60 && ts % 1_000_000_000L == 0, "ns timestamp " + ts);
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        out.put("measurement", Map.of("name", m.group(1)));
        out.put("tags", split(m.group(2).substring(1)));
        out.put("fields", split(m.group(3)));
        return out;
    }

    private static Map<String, String> split(String s) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String kv : s.split(",")) {
            String[] p = kv.split("=", 2);
            m.put(p[0], p[1]);
        }
        return m;
    }

    @Test
    void pushesLineProtocolOverHttpAndUdp() throws Exception {
        System.setProperty("jpbs.metrics.push-interval-ms", "3600000");
        Files.writeString(config.resolve(MetricServerConfig.FILE), """
                influxdb-http: influx
                \turl http://127.0.0.1:%d/
                \torganization myorg
                \tbucket my bucket
                \ttoken tok123
                \tmax-body-size 200

                influxdb-udp: udp
                \thost 127.0.0.1:%d
                \tmtu 256

                influxdb-http: off
                \turl http://127.0.0.1:%d/off
                \tenable 0
                """.formatted(http.getAddress().getPort(), udp.getLocalPort(), http.getAddress().getPort()));
        DatastoreUsage usage = DatastoreUsage.read("store1", store);
        long now = System.currentTimeMillis() / 1000;
        try (MetricPusher p = new MetricPusher(config, "pbs1", () -> List.of(usage))) {
            p.push();
        }
        List<String> httpLines = new ArrayList<>();
        String[] post;
        while ((post = posts.poll(2, TimeUnit.SECONDS)) != null) {
            assertEquals("/api/v2/write?org=myorg&bucket=my+bucket&precision=ns", post[0]);
            assertEquals("Token tok123", post[1]);
            assertTrue(post[2].getBytes(StandardCharsets.UTF_8).length <= 200, "body within max-body-size");
            assertTrue(post[2].endsWith("\n"));
            httpLines.addAll(List.of(post[2].split("\n")));
        }
        List<String> udpLines = new ArrayList<>();
        byte[] buf = new byte[65536];
        udp.setSoTimeout(2000);
        try {
            while (true) {
                DatagramPacket d = new DatagramPacket(buf, buf.length);
                udp.receive(d);
                assertTrue(d.getLength() <= 256, "datagram within mtu: " + d.getLength());
                udpLines.addAll(List.of(new String(buf, 0, d.getLength(), StandardCharsets.UTF_8).split("\n")));
            }
        } catch (java.net.SocketTimeoutException done) {
            // all datagrams read
        }
        assertEquals(httpLines.size(), udpLines.size());
        boolean sawStore = false;
        for (String l : httpLines) {
            Map<String, Map<String, String>> p = parse(l, now);
            assertEquals("host", p.get("tags").get("object"));
            assertEquals("pbs1", p.get("tags").get("host"));
            if ("store1".equals(p.get("tags").get("datastore"))) {
                sawStore = true;
                assertEquals("blockstat", p.get("measurement").get("name"));
                assertEquals(Long.toString(usage.total()), p.get("fields").get("total"));
                assertTrue(p.get("fields").containsKey("used") && p.get("fields").containsKey("avail"));
            }
        }
        assertTrue(sawStore, "a blockstat line for the datastore: " + httpLines);
        assertTrue(httpLines.stream().anyMatch(l -> l.startsWith("cpustat,object=host,host=pbs1 avg1=")), httpLines.toString());
        assertTrue(httpLines.stream().anyMatch(l -> l.startsWith("memory,object=host,host=pbs1 memtotal=")), httpLines.toString());
    }

    @Test
    void pushesEveryIntervalAndSurvivesADeadServer() throws Exception {
        System.setProperty("jpbs.metrics.push-interval-ms", "200");
        Files.writeString(config.resolve(MetricServerConfig.FILE), "influxdb-udp: dead\n\thost 127.0.0.1:1\n\n"
                + "influxdb-http: influx\n\turl http://127.0.0.1:" + http.getAddress().getPort() + "\n");
        try (MetricPusher p = new MetricPusher(config, "pbs1", List::of)) {
            assertNotNull(posts.poll(10, TimeUnit.SECONDS));
            assertNotNull(posts.poll(10, TimeUnit.SECONDS), "a second push");
        }
    }

    @Test
    void aBadEntryIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MetricServerConfig.parse("influxdb-udp: u\n\thost nocolon\n"));
        assertEquals("metricserver.cfg: influxdb-udp 'u': host must be HOST:PORT", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> MetricServerConfig.parse("influxdb-http: h\n\turl http://x\n\tmax-body-size -1\n"));
        assertEquals("metricserver.cfg: influxdb-http 'h': max-body-size: '-1' is not a positive number", e.getMessage());
    }
}
