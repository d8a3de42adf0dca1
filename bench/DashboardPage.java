import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Bench client: opens the web interface's dashboard in a real headless Chromium, driven through
 * chromedriver's W3C WebDriver protocol (plain HTTP, no Selenium: the bench runs on jpbs's own
 * jars). Logs in through the login form, then per run loads the page afresh (about:blank, then
 * https://127.0.0.1:PORT/#/dashboard: a full page load with the browser's cache and the session
 * cookie, as an admin reopening the tab) and reads the page's own User Timing marks
 * (pages/dashboard.js: {@code dashboard:datastores} when the datastore table is in the DOM,
 * {@code dashboard:stale} when the stale groups are): milliseconds from the start of the
 * navigation. Prints each run and the medians.
 * Usage: java -cp <jars> DashboardPage.java PORT USER PASSWORD RUNS WARMUP [CHROMIUM] [CHROMEDRIVER]
 */
public class DashboardPage {
    static final ObjectMapper JSON = new ObjectMapper();
    final HttpClient http = HttpClient.newHttpClient();
    final String driver;
    String session;

    DashboardPage(String driver) {
        this.driver = driver;
    }

    JsonNode call(String method, String path, Object body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(driver + path)).timeout(Duration.ofSeconds(300));
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode v = JSON.readTree(r.body()).path("value");
        if (r.statusCode() != 200) {
            throw new IllegalStateException(method + " " + path + ": " + r.statusCode() + " " + v.path("message").asText());
        }
        return v;
    }

    JsonNode s(String method, String path, Object body) throws Exception {
        return call(method, "/session/" + session + path, body);
    }

    String element(String css) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            JsonNode found = s("POST", "/elements", java.util.Map.of("using", "css selector", "value", css));
            if (found.size() > 0) {
                return found.get(0).elements().next().asText();
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException("no element " + css + " after 120 s");
            }
            Thread.sleep(50);
        }
    }

    /** Milliseconds from navigation start to each mark, waiting (in the page) until both exist. */
    double[] open(String url) throws Exception {
        s("POST", "/url", java.util.Map.of("url", "about:blank"));
        s("POST", "/url", java.util.Map.of("url", url));
        String script = """
                const done = arguments[arguments.length - 1];
                const mark = n => { const m = performance.getEntriesByName(n, 'mark'); return m.length ? m[0].startTime : null; };
                const poll = () => {
                  const a = mark('dashboard:datastores'), b = mark('dashboard:stale');
                  const err = document.querySelector('#main .msg.error');
                  if (err) done({ error: err.textContent });
                  else if (a !== null && b !== null) {
                    const nav = performance.getEntriesByType('navigation')[0];
                    const api = performance.getEntriesByType('resource').filter(r => r.name.includes('/api2/json/'));
                    const first = Math.min(...api.map(r => r.startTime));
                    const usage = api.find(r => r.name.includes('datastore-usage'));
                    done({ datastores: a, stale: b,
                      rows: document.querySelectorAll('table.datastores tbody tr').length,
                      staleText: (document.getElementById('stale-count') || {}).textContent || '',
                      breakdown: `DOMContentLoaded ${Math.round(nav.domContentLoadedEventEnd)} ms, first API call sent ${Math.round(first)} ms, `
                        + `datastore-usage answered ${usage ? Math.round(usage.responseEnd) : '?'} ms, `
                        + `last of ${api.length} API calls answered ${Math.round(Math.max(...api.map(r => r.responseEnd)))} ms` });
                  }
                  else setTimeout(poll, 20);
                };
                poll();
                """;
        JsonNode r = s("POST", "/execute/async", java.util.Map.of("script", script, "args", List.of()));
        if (r.has("error")) {
            throw new IllegalStateException("the dashboard showed an error: " + r.get("error").asText());
        }
        System.err.printf(Locale.ROOT, "  %d datastore rows; %s; %s%n", r.get("rows").asInt(), r.get("staleText").asText(),
                r.get("breakdown").asText());
        double table = r.get("datastores").asDouble();
        return new double[] {table, Math.max(table, r.get("stale").asDouble())}; // both in the page
    }

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    public static void main(String[] a) throws Exception {
        int port = Integer.parseInt(a[0]);
        String user = a[1];
        String password = a[2];
        int runs = Integer.parseInt(a[3]);
        int warmup = Integer.parseInt(a[4]);
        String chromium = a.length > 5 ? a[5] : "/usr/bin/chromium";
        String chromedriver = a.length > 6 ? a[6] : "/usr/bin/chromedriver";
        int dport = freePort();
        Process p = new ProcessBuilder(chromedriver, "--port=" + dport).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        DashboardPage d = new DashboardPage("http://127.0.0.1:" + dport);
        try {
            for (int i = 0; ; i++) { // until chromedriver listens
                try {
                    d.call("GET", "/status", null);
                    break;
                } catch (java.io.IOException e) {
                    if (i > 200) {
                        throw e;
                    }
                    Thread.sleep(50);
                }
            }
            ObjectNode caps = JSON.createObjectNode();
            ObjectNode always = caps.putObject("capabilities").putObject("alwaysMatch");
            always.put("browserName", "chrome").put("acceptInsecureCerts", true);
            ObjectNode opts = always.putObject("goog:chromeOptions");
            opts.put("binary", chromium);
            for (String arg : List.of("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                    "--ignore-certificate-errors", "--window-size=1280,900", "--no-first-run", "--disable-extensions",
                    "--disable-background-networking", "--disable-sync")) {
                opts.withArray("args").add(arg);
            }
            d.session = d.call("POST", "/session", caps).get("sessionId").asText();
            d.s("POST", "/timeouts", java.util.Map.of("script", 300_000, "pageLoad", 300_000));
            String base = "https://127.0.0.1:" + port + "/";
            d.s("POST", "/url", java.util.Map.of("url", base));
            String u = d.element("#login-user");
            d.s("POST", "/element/" + u + "/clear", java.util.Map.of());
            d.s("POST", "/element/" + u + "/value", java.util.Map.of("text", user));
            d.s("POST", "/element/" + d.element("#login-password") + "/value", java.util.Map.of("text", password + "\uE007"));
            d.element("table.datastores");
            List<double[]> all = new ArrayList<>();
            for (int r = -warmup; r < runs; r++) {
                double[] t = d.open(base + "#/dashboard");
                System.err.printf(Locale.ROOT, "%s %d: datastore table %.0f ms, whole dashboard %.0f ms after navigation start%n",
                        r < 0 ? "page warmup" : "page run", r < 0 ? r + warmup + 1 : r + 1, t[0], t[1]);
                if (r >= 0) {
                    all.add(t);
                }
            }
            System.out.printf("| in Chromium, from navigation start (median of %d page loads) | ms |%n| --- | ---: |%n", runs);
            System.out.printf(Locale.ROOT, "| datastore table rendered | %.0f |%n", median(all, 0));
            System.out.printf(Locale.ROOT, "| whole dashboard rendered (stale groups too) | %.0f |%n", median(all, 1));
        } finally {
            if (d.session != null) {
                try {
                    d.call("DELETE", "/session/" + d.session, null);
                } catch (Exception e) {
                    System.err.println("closing the browser: " + e.getMessage());
                }
            }
            p.destroy();
            p.waitFor();
        }
    }

    static double median(List<double[]> runs, int i) {
        double[] v = runs.stream().mapToDouble(x -> x[i]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
