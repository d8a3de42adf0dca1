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
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Bench client: the API calls the web interface's dashboard makes (server/.../webui/app.js and
 * pages/dashboard.js), in its order, over HTTPS/1.1 keep-alive with at most 6 requests at a time
 * (a browser's connections per host): admin/datastore; then at once the ten calls of
 * pages/dashboard.js load() (usage, running tasks, backup counts, failed tasks, the week's GC /
 * verify / sync tasks); then per datastore its namespaces and per namespace its groups (the stale
 * groups). Prints per run the time of each call, and at the end the median of the runs.
 * Usage: java -cp <jars> DashboardLoad.java PORT TOKEN RUNS WARMUP_RUNS
 */
public class DashboardLoad {
    static final int CONNECTIONS = 6;
    static final Pattern STORE = Pattern.compile("\"store\":\"([^\"]+)\"");
    static final Pattern NS = Pattern.compile("\"ns\":\"([^\"]*)\"");

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

    /** One answer: its body, and the time it took in ms. */
    record Answer(String body, double ms) {}

    Answer get(String path) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120))
                .header("Authorization", "PBSAPIToken=" + token).GET().build(), HttpResponse.BodyHandlers.ofString());
        double ms = (System.nanoTime() - t0) / 1e6;
        if (r.statusCode() != 200) {
            throw new IllegalStateException(path + ": " + r.statusCode() + " " + r.body());
        }
        return new Answer(r.body(), ms);
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

    static List<String> all(Pattern p, String body) {
        List<String> out = new ArrayList<>();
        Matcher m = p.matcher(body);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** One dashboard opening; answers call name → ms (and sizes in the given map). */
    Map<String, Double> run(Map<String, String> sizes) throws Exception {
        Map<String, Double> t = new LinkedHashMap<>();
        long now = System.currentTimeMillis() / 1000;
        long page0 = System.nanoTime();
        Answer stores = get("/admin/datastore");
        t.put("GET admin/datastore", stores.ms());
        sizes.put("GET admin/datastore", kb(stores.body()));
        long p0 = System.nanoTime();
        Map<String, CompletableFuture<Answer>> calls = new LinkedHashMap<>();
        for (String[] c : firstCalls(now)) {
            calls.put(c[0], async(c[1]));
        }
        CompletableFuture.allOf(calls.values().toArray(CompletableFuture[]::new)).join();
        double parallel = (System.nanoTime() - p0) / 1e6;
        calls.forEach((name, f) -> put(t, sizes, name, f.join()));
        t.put("(the " + calls.size() + " above, 6 at a time)", parallel);
        t.put("= datastore table shown", (System.nanoTime() - page0) / 1e6);

        List<String> names = all(STORE, stores.body()).stream().distinct().toList();
        long s0 = System.nanoTime();
        List<Future<double[]>> per = new ArrayList<>();
        for (String s : names) {
            per.add(pool.submit(() -> {
                Answer ns = get("/admin/datastore/" + s + "/namespace");
                List<Double> ms = new ArrayList<>(List.of(ns.ms()));
                for (String n : all(NS, ns.body())) {
                    ms.add(get("/admin/datastore/" + s + "/groups?ns=" + n).ms());
                }
                return ms.stream().mapToDouble(Double::doubleValue).toArray();
            }));
        }
        List<Double> nsMs = new ArrayList<>();
        List<Double> groupMs = new ArrayList<>();
        for (Future<double[]> f : per) {
            double[] v = f.get();
            nsMs.add(v[0]);
            for (int i = 1; i < v.length; i++) {
                groupMs.add(v[i]);
            }
        }
        double stale = (System.nanoTime() - s0) / 1e6;
        t.put("GET .../namespace, p50 of " + nsMs.size(), pct(nsMs, 0.5));
        t.put("GET .../groups?ns=, p50 of " + groupMs.size(), pct(groupMs, 0.5));
        t.put("GET .../groups?ns=, p99", pct(groupMs, 0.99));
        t.put("(stale groups: all " + (nsMs.size() + groupMs.size()) + ", 6 at a time)", stale);
        t.put("= whole dashboard loaded", (System.nanoTime() - page0) / 1e6);
        return t;
    }

    /** pages/dashboard.js load(): name and path of each call it makes at once. */
    static List<String[]> firstCalls(long now) {
        String tasks = "/nodes/localhost/tasks?";
        long day = now - 86400;
        long week = now - 7 * 86400;
        return List.of(
                new String[] {"GET status/datastore-usage", "/status/datastore-usage"},
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
        sizes.put(name, kb(a.body()));
    }

    static String kb(String body) {
        return String.format(Locale.ROOT, "%.0f KB", body.length() / 1024.0);
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
