import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Bench client: the API calls the web interface's dashboard makes (server/.../webui/app.js and
 * pages/dashboard.js), in its order, over HTTPS/1.1 keep-alive with at most 6 requests at a time
 * (a browser's connections per host) and {@code Accept-Encoding} as Chromium sends it (the server
 * answers deflate, as PBS; the time includes inflating): admin/datastore; then at once the eleven
 * calls of pages/dashboard.js (stale groups, usage, running tasks, backup counts, failed tasks,
 * the week's GC / verify / sync tasks). Prints per run the time of each call, and at the end the
 * median of the runs with each answer's size on the wire and decoded.
 * Usage: java -cp <jars> DashboardLoad.java PORT TOKEN RUNS WARMUP_RUNS
 */
public class DashboardLoad {
    static final int CONNECTIONS = 6;
    static final String STALE = "GET status/stale-groups?older-than=36h&limit=100";

    final HttpClient http;
    final String base;
    final String token;
    final ExecutorService pool = Executors.newFixedThreadPool(CONNECTIONS);

    DashboardLoad(int port, String token) throws Exception {
        System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, new TrustManager[] {new X509TrustManager() {
            public void checkClientTrusted(X509Certificate[] c, String a) { }
            public void checkServerTrusted(X509Certificate[] c, String a) { }
            public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
        }}, null);
        http = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1).build();
        base = "https://127.0.0.1:" + port + "/api2/json";
        this.token = token;
    }

    /** One answer: its body, the time it took in ms, and its size on the wire. */
    record Answer(String body, double ms, int wire, long end) {}

    Answer get(String path) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120))
                .header("Authorization", "PBSAPIToken=" + token).header("Accept-Encoding", "gzip, deflate, br, zstd")
                .GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        byte[] raw = r.body();
        boolean deflated = r.headers().firstValue("content-encoding").orElse("").equals("deflate");
        String body = new String(deflated ? inflate(raw) : raw, java.nio.charset.StandardCharsets.UTF_8);
        double ms = (System.nanoTime() - t0) / 1e6;
        if (r.statusCode() != 200) {
            throw new IllegalStateException(path + ": " + r.statusCode() + " " + body);
        }
        return new Answer(body, ms, raw.length, System.nanoTime());
    }

    static byte[] inflate(byte[] z) throws Exception {
        try (var in = new java.util.zip.InflaterInputStream(new java.io.ByteArrayInputStream(z))) {
            return in.readAllBytes();
        }
    }

    CompletableFuture<Answer> async(String path) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return get(path);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, pool);
    }

    /** One dashboard opening; answers call name → ms (and sizes in the given map). */
    Map<String, Double> run(Map<String, String> sizes) throws Exception {
        Map<String, Double> t = new LinkedHashMap<>();
        long now = System.currentTimeMillis() / 1000;
        long page0 = System.nanoTime();
        Answer stores = get("/admin/datastore");
        t.put("GET admin/datastore", stores.ms());
        sizes.put("GET admin/datastore", kb(stores));
        long p0 = System.nanoTime();
        Map<String, CompletableFuture<Answer>> calls = new LinkedHashMap<>();
        for (String[] c : firstCalls(now)) {
            calls.put(c[0], async(c[1]));
        }
        CompletableFuture.allOf(calls.values().toArray(CompletableFuture[]::new)).join();
        double parallel = (System.nanoTime() - p0) / 1e6;
        calls.forEach((name, f) -> put(t, sizes, name, f.join()));
        t.put("(the " + calls.size() + " above, 6 at a time)", parallel);
        long tableAt = calls.entrySet().stream().filter(e -> !e.getKey().equals(STALE))
                .mapToLong(e -> e.getValue().join().end()).max().orElse(p0);
        t.put("= datastore table shown", (tableAt - page0) / 1e6);
        t.put("= whole dashboard loaded", (System.nanoTime() - page0) / 1e6);
        return t;
    }

    /** pages/dashboard.js: name and path of each call it makes at once (the stale groups' and load()'s). */
    static List<String[]> firstCalls(long now) {
        String tasks = "/nodes/localhost/tasks?";
        long day = now - 86400;
        long week = now - 7 * 86400;
        return List.of(
                new String[] {STALE, "/status/stale-groups?older-than=129600&limit=100"},
                new String[] {"GET status/datastore-usage", "/status/datastore-usage?history=0"},
                new String[] {"GET tasks?running=1&limit=0", tasks + "running=1&limit=0"},
                new String[] {"GET tasks?typefilter=backup&since=24h&statusfilter=ok,warning&limit=1",
                    tasks + "typefilter=backup&since=" + day + "&statusfilter=ok,warning&limit=1"},
                new String[] {"GET tasks?typefilter=backup&since=24h&statusfilter=error,unknown&limit=1",
                    tasks + "typefilter=backup&since=" + day + "&statusfilter=error,unknown&limit=1"},
                new String[] {"GET tasks?typefilter=backup&since=7d&statusfilter=ok,warning&limit=1",
                    tasks + "typefilter=backup&since=" + week + "&statusfilter=ok,warning&limit=1"},
                new String[] {"GET tasks?typefilter=backup&since=7d&statusfilter=error,unknown&limit=1",
                    tasks + "typefilter=backup&since=" + week + "&statusfilter=error,unknown&limit=1"},
                new String[] {"GET tasks?since=7d&statusfilter=error,unknown&limit=20",
                    tasks + "since=" + week + "&statusfilter=error,unknown&limit=20"},
                new String[] {"GET tasks?since=7d&typefilter=garbage_collection&limit=0",
                    tasks + "since=" + week + "&typefilter=garbage_collection&limit=0"},
                new String[] {"GET tasks?since=7d&typefilter=verif&limit=0", tasks + "since=" + week + "&typefilter=verif&limit=0"},
                new String[] {"GET tasks?since=7d&typefilter=sync&limit=0", tasks + "since=" + week + "&typefilter=sync&limit=0"});
    }

    static void put(Map<String, Double> t, Map<String, String> sizes, String name, Answer a) {
        t.put(name, a.ms());
        sizes.put(name, kb(a));
    }

    static String kb(Answer a) {
        return String.format(Locale.ROOT, "%.0f KB (%.0f KB decoded)", a.wire() / 1024.0, a.body().length() / 1024.0);
    }

    static double pct(List<Double> v, double p) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length == 0 ? 0 : a[Math.min(a.length - 1, (int) Math.ceil(a.length * p) - 1)];
    }

    public static void main(String[] a) throws Exception {
        DashboardLoad d = new DashboardLoad(Integer.parseInt(a[0]), a[1]);
        int runs = Integer.parseInt(a[2]);
        int warmup = Integer.parseInt(a[3]);
        Map<String, List<Double>> all = new LinkedHashMap<>();
        Map<String, String> sizes = new LinkedHashMap<>();
        for (int r = -warmup; r < runs; r++) {
            Map<String, Double> t = d.run(sizes);
            System.err.printf(Locale.ROOT, "%s %d: datastore table %.0f ms, whole dashboard %.0f ms%n", r < 0 ? "warmup" : "run",
                    r < 0 ? r + warmup + 1 : r + 1, t.get("= datastore table shown"), t.get("= whole dashboard loaded"));
            if (r >= 0) {
                t.forEach((k, v) -> all.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
            }
        }
        System.out.printf("| call (in the dashboard's order) | median ms of %d runs | answer |%n| --- | ---: | ---: |%n", runs);
        all.forEach((k, v) -> {
            double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double med = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
            System.out.printf(Locale.ROOT, "| %s | %.1f | %s |%n", k, med, sizes.getOrDefault(k, ""));
        });
        d.pool.shutdownNow();
    }
}
