package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.api.JpbsRestHandler;
import org.jpbs.server.api.LocalDatastoreJobs;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The web interface ({@code docs/ui.md}) in a real headless Chromium ({@link Browser})
 * against one server with two datastores: {@code store1} holds backups made by the jpbs client
 * in this test ({@code vm/100} now, {@code host/old} ten days ago) and {@code store2} one of
 * alice@pbs, who has the DatastoreBackup role on {@code /datastore/store2} only. Tests run in
 * order in one browser session; each checks what it did through the API.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebUiBrowserTest {
    static final String ROOT_PASSWORD = "root-password-1";
    static final String ALICE_PASSWORD = "alice-password-1";
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir(factory = FastTempDirs.class)
    static Path tmp;
    static JpbsServer server;
    static Browser browser;
    static String base;
    static HttpClient http;
    static Map<String, String> rootAuth;
    static String rootToken;

    @RegisterExtension
    static final Browser.ScreenshotOnFailure SHOTS = new Browser.ScreenshotOnFailure(() -> browser);

    @BeforeAll
    static void start() throws Exception {
        browser = Browser.start(); // skips (fails in CI) before anything else when there is no browser
        Path config = tmp.resolve("config");
        Files.createDirectories(config);
        Map<String, Path> stores = new java.util.LinkedHashMap<>();
        for (String s : List.of("store1", "store2")) {
            stores.put(s, tmp.resolve(s));
            DatastorePool.create(stores.get(s), SyncLevel.NONE);
        }
        AuthConfig cfg = AuthConfig.open(config);
        cfg.setPassword("root@pam", ROOT_PASSWORD);
        rootToken = cfg.createToken("root@pam", "net", null);
        cfg.updateAcl("/datastore", "root@pam!net", "DatastoreAdmin", true, false);
        cfg.addUser("alice@pbs", ALICE_PASSWORD, null);
        cfg.updateAcl("/datastore/store2", "alice@pbs", "DatastoreBackup", true, false);
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, stores, "127.0.0.1", 0);
        JpbsRestHandler h = JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO);
        h = h.withServices(h.services().withJobs(new LocalDatastoreJobs("root@pam", h.services().budget())));
        server = JpbsServer.start(sc, auth, h);
        base = "https://127.0.0.1:" + server.port();

        Path img = tmp.resolve("disk.img");
        byte[] data = new byte[3 * 1024 * 1024 + 12345];
        new Random(16).nextBytes(data);
        Files.write(img, data);
        Path conf = tmp.resolve("qemu.conf");
        Files.writeString(conf, "memory: 2048\n");
        long now = System.currentTimeMillis() / 1000;
        backup("root@pam!net", rootToken, "store1", "--backup-type", "vm", "--backup-id", "100", "disk.img:" + img,
                "qemu-server.conf:" + conf);
        backup("root@pam!net", rootToken, "store1", "--backup-type", "host", "--backup-id", "old", "--backup-time",
                Long.toString(now - 10 * 86400), "etc.conf:" + conf);
        backup("root@pam!net", rootToken, "store2", "--backup-type", "host", "--backup-id", "rootonly", "etc.conf:" + conf);
        backup("alice@pbs", ALICE_PASSWORD, "store2", "--backup-type", "host", "--backup-id", "alice", "etc.conf:" + conf);

        javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
        ssl.init(null, new javax.net.ssl.TrustManager[] {new TrustAll()}, null);
        http = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1).build();
        JsonNode t = JSON.readTree(send("POST", "/api2/json/access/ticket", Map.of(),
                "username=root%40pam&password=" + ROOT_PASSWORD).body()).get("data");
        rootAuth = Map.of("Cookie", "PBSAuthCookie=" + URLEncoder.encode(t.get("ticket").asText(), StandardCharsets.UTF_8),
                "CSRFPreventionToken", t.get("CSRFPreventionToken").asText());
    }

    private static void backup(String authid, String secret, String store, String... args) {
        Map<String, String> env = new HashMap<>();
        env.put("PBS_REPOSITORY", authid + "@127.0.0.1:" + server.port() + ":" + store);
        env.put("PBS_PASSWORD", secret);
        env.put("PBS_FINGERPRINT", server.fingerprint());
        String[] all = new String[args.length + 2];
        all[0] = "backup";
        all[1] = "-q";
        System.arraycopy(args, 0, all, 2, args.length);
        CliRunner.Result r = new CliRunner(tmp.resolve("home"), env).run(all);
        assertEquals(0, r.exit(), r.all());
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
        if (http != null) {
            http.close();
        }
        try {
            FastTempDirs.deleteTree(tmp.resolve("store1"));
            FastTempDirs.deleteTree(tmp.resolve("store2"));
        } catch (java.io.IOException e) {
            System.err.println("datastores not removed: " + e);
        }
    }

    static HttpResponse<String> send(String method, String path, Map<String, String> headers, String form) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        headers.forEach(b::header);
        if (form != null) {
            b.header("Content-Type", "application/x-www-form-urlencoded");
        }
        b.method(method, form == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(form));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode api(String path) throws Exception {
        HttpResponse<String> r = send("GET", "/api2/json" + path, rootAuth, null);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body()).get("data");
    }

    static void login(String user, String password) {
        browser.open(base + "/");
        WebElement u = browser.find("#login-user");
        u.clear();
        u.sendKeys(user);
        browser.find("#login-password").sendKeys(password, Keys.ENTER);
    }

    static void logout() {
        browser.click("#logout");
        browser.find("#login-user");
    }

    @Test
    @Order(1)
    void aWrongPasswordIsRefusedWithAMessage() {
        login("root@pam", "not-the-password");
        assertEquals("Login failed. Please try again.", browser.waitText("#login-message", "Login failed"));
        assertTrue(browser.all("#logout").isEmpty(), "not logged in");
        browser.screenshot("login-failed");
    }

    @Test
    @Order(2)
    void theDashboardShowsTheDatastoresAndTheBackupsMadeHere() throws Exception {
        login("root@pam", ROOT_PASSWORD);
        browser.waitText("#username", "root@pam");
        browser.waitText("table.datastores", "store2");
        String table = browser.find("table.datastores").getText();
        assertTrue(table.contains("store1") && table.contains("store2"), table);
        // the numbers match the API: backups of the last 24 hours (the one ten days old is a task of today too)
        long since = System.currentTimeMillis() / 1000 - 86400;
        long ok = 0;
        for (JsonNode t : api("/nodes/localhost/tasks?limit=0&typefilter=backup&since=" + since)) {
            if ("OK".equals(t.path("status").asText())) {
                ok++;
            }
        }
        assertEquals(4, ok, "four backups made by this test");
        assertEquals(Long.toString(ok), browser.find("#backups-24h-ok .value").getText());
        assertEquals("0", browser.find("#backups-24h-failed .value").getText());
        // the ten-day-old group is stale (default threshold 36 hours), the fresh ones are not
        String stale = browser.waitText("#stale-groups", "host/old");
        assertFalse(stale.contains("vm/100"), stale);
        browser.screenshot("dashboard");
    }

    @Test
    @Order(3)
    void theDatastoreTreeShowsASnapshotAndNotesEditsPersist() throws Exception {
        browser.open(base + "/#/datastore/store1");
        WebElement group = browser.find("details.group[data-group='vm/100'] > summary");
        group.click();
        JsonNode snap = api("/admin/datastore/store1/snapshots?backup-type=vm&backup-id=100").get(0);
        long time = snap.get("backup-time").asLong();
        String row = "details.group[data-group='vm/100'] tr[data-time='" + time + "']";
        assertTrue(browser.find(row).getText().contains("MiB"), "size shown: " + browser.find(row).getText());
        browser.find(row + " .edit-notes").click();
        WebElement area = browser.find(row + " textarea.notes-text");
        area.sendKeys("weekly image\nsecond line");
        browser.find(row + " .save-notes").click();
        browser.waitText(row + " .comment", "weekly image");
        JsonNode notes = api("/admin/datastore/store1/notes?backup-type=vm&backup-id=100&backup-time=" + time);
        assertEquals("weekly image\nsecond line", notes.asText());
        browser.screenshot("datastore");
    }

    @Test
    @Order(3)
    void aFileArchiveIsBrowsedAndAFileAndADirectoryDownloaded() throws Exception {
        Path tree = tmp.resolve("tree");
        Files.createDirectories(tree.resolve("etc/conf.d"));
        Files.writeString(tree.resolve("etc/hosts"), "127.0.0.1 localhost\n");
        Files.writeString(tree.resolve("etc/conf.d/a.conf"), "a=1\n");
        Files.writeString(tree.resolve("readme.txt"), "top level\n");
        backup("root@pam!net", rootToken, "store1", "--backup-type", "host", "--backup-id", "files", "root.pxar:" + tree);
        browser.open(base + "/#/datastore/store1");
        browser.click("details.group[data-group='host/files'] > summary");
        browser.click("details.group[data-group='host/files'] button.browse");
        String archive = "details.group[data-group='host/files'] details.catalog-dir[data-path='root.pxar.didx']";
        browser.click(archive + " > summary .name");
        String etc = archive + " details.catalog-dir[data-path='etc']";
        browser.click(etc + " > summary .name");
        String hosts = browser.waitText(etc + " .catalog-file[data-path='hosts']", "hosts");
        assertTrue(hosts.contains("20 B"), "size shown: " + hosts);
        browser.find(archive + " .catalog-file[data-path='readme.txt']");
        String link = browser.find(etc + " .catalog-file[data-path='hosts'] a").getAttribute("href");
        HttpResponse<byte[]> file = http.send(HttpRequest.newBuilder(URI.create(link)).header("Cookie", rootAuth.get("Cookie")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, file.statusCode());
        assertEquals("127.0.0.1 localhost\n", new String(file.body(), StandardCharsets.UTF_8), "the file as backed up");
        String zip = browser.find(etc + " > summary a").getAttribute("href");
        HttpResponse<byte[]> dir = http.send(HttpRequest.newBuilder(URI.create(zip)).header("Cookie", rootAuth.get("Cookie")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, dir.statusCode());
        List<String> names = new java.util.ArrayList<>();
        try (var in = new java.util.zip.ZipInputStream(new java.io.ByteArrayInputStream(dir.body()))) {
            for (var e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                names.add(e.getName());
            }
        }
        assertTrue(names.contains("etc/hosts") && names.contains("etc/conf.d/a.conf"), names.toString());
        browser.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center'});", etc);
        browser.screenshot("datastore-browse");
    }

    @Test
    @Order(4)
    void forgettingASnapshotRemovesIt() throws Exception {
        browser.open(base + "/#/datastore/store1");
        browser.click("details.group[data-group='host/old'] > summary");
        browser.click("details.group[data-group='host/old'] button.forget");
        browser.waitFor(d -> { try { d.switchTo().alert().accept(); return true; } catch (RuntimeException e) { return null; } }, "confirm");
        browser.waitText("#notice", "Snapshot removed");
        assertEquals(0, api("/admin/datastore/store1/snapshots?backup-type=host&backup-id=old").size());
    }

    @Test
    @Order(5)
    void gcRunsAndItsLogIsFollowedToTaskOk() {
        browser.open(base + "/#/maintenance/store1");
        browser.click("#gc-run");
        browser.click("#notice a.upid");
        browser.waitFor(d -> browser.find("#task-log").getText().contains("TASK OK") ? true : null, "TASK OK in the log",
                Duration.ofSeconds(60));
        browser.waitText("#task-status", "OK");
        assertTrue(browser.find("#task-log").getText().contains("garbage"), browser.find("#task-log").getText());
        browser.screenshot("task-log");
    }

    @Test
    @Order(6)
    void thePruneSimulatorShowsWhatWouldGo() throws Exception {
        backup2("--backup-id", "100");
        browser.open(base + "/#/maintenance/store1");
        new Select(browser.find("#prune-group")).selectByVisibleText("vm/100");
        browser.find("#prune-keep-last").sendKeys("1");
        browser.click("#prune-simulate");
        String summary = browser.waitText("#prune-summary", "would be removed");
        assertEquals("1 kept, 1 would be removed.", summary);
        assertEquals(2, api("/admin/datastore/store1/snapshots?backup-type=vm&backup-id=100").size(), "a dry run removes nothing");
        browser.js("document.querySelector('#prune-summary').scrollIntoView({block: 'center'});");
        browser.screenshot("maintenance");
    }

    /** A second vm/100 snapshot, a second after the first (backup times are whole seconds). */
    private static void backup2(String... idArgs) throws Exception {
        Thread.sleep(1100);
        String[] args = new String[idArgs.length + 3];
        args[0] = "--backup-type";
        args[1] = "vm";
        System.arraycopy(idArgs, 0, args, 2, idArgs.length);
        args[args.length - 1] = "qemu-server.conf:" + tmp.resolve("qemu.conf");
        backup("root@pam!net", rootToken, "store1", args);
    }

    @Test
    @Order(7)
    void theTaskListFiltersByType() {
        browser.open(base + "/#/tasks");
        browser.find("#f-type").sendKeys("garbage_collection", Keys.ENTER);
        browser.waitFor(d -> {
            String text = browser.find("#task-list").getText();
            return text.contains("garbage_collection") && !text.contains("backup") ? text : null;
        }, "only GC tasks listed");
        browser.screenshot("tasks");
    }

    @Test
    @Order(7)
    void chartsDrawTheSampledUsage() throws Exception {
        browser.open(base + "/#/datastore/store1");
        browser.click("#charts-link");
        browser.find("#chart-usage canvas");
        browser.find("#chart-io canvas");
        String points = browser.waitText("#chart-points", "points sampled");
        JsonNode day = api("/admin/datastore/store1/rrd?timeframe=day&cf=AVERAGE");
        long sampled = 0;
        for (JsonNode p : day) {
            sampled += p.has("used") ? 1 : 0;
        }
        assertTrue(sampled >= 1, "the server sampled at start");
        assertEquals(sampled + " of " + day.size() + " points sampled (one a minute while the server runs).", points);
        browser.screenshot("charts");
    }

    @Test
    @Order(8)
    void aNewTokensSecretIsShownOnceAndTheFingerprintCanBeCopied() throws Exception {
        browser.open(base + "/#/access");
        assertEquals(server.fingerprint(), browser.find("#fingerprint").getText());
        browser.find("#token-name").sendKeys("ui");
        browser.click("#token-create");
        String secret = browser.find("#token-value").getText();
        assertTrue(secret.matches("[0-9a-f-]{36}"), secret);
        assertEquals("root@pam!ui", browser.find("#token-id").getText());
        browser.screenshot("access");
        HttpResponse<String> withToken = send("GET", "/api2/json/version",
                Map.of("Authorization", "PBSAPIToken root@pam!ui:" + secret), null);
        assertEquals(200, withToken.statusCode(), "the secret shown works");
        browser.open(base + "/#/dashboard");
        browser.open(base + "/#/access");
        browser.waitText("table.users", "root@pam!ui");
        assertFalse(browser.find("main").getText().contains(secret), "the secret is shown only once");
    }

    @Test
    @Order(8)
    void aPruneJobIsCreatedShowsItsNextRunAndRunsNowWithItsTask() throws Exception {
        assertEquals(2, api("/admin/datastore/store1/snapshots?backup-type=vm&backup-id=100").size(), "two vm/100 snapshots");
        browser.open(base + "/#/jobs");
        browser.click("#new-prune");
        browser.find("#job-prune-id").sendKeys("nightly");
        new Select(browser.find("#job-prune-store")).selectByValue("store1");
        browser.find("#job-prune-schedule").sendKeys("mon..fri 02:30");
        browser.find("#job-prune-keep-last").sendKeys("1");
        browser.click("#job-prune-save");
        assertTrue(browser.waitText("#notice", "created").startsWith("Prune job 'nightly' created."));
        String row = "#jobs-prune tr[data-id='nightly']";
        JsonNode job = null;
        for (JsonNode j : api("/admin/prune")) {
            job = "nightly".equals(j.path("id").asText()) ? j : job;
        }
        assertTrue(job != null && job.get("next-run").asLong() > System.currentTimeMillis() / 1000, "next run in the API: " + job);
        long next = job.get("next-run").asLong();
        WebElement shown = browser.find(row + " .next-run");
        assertEquals(Long.toString(next), shown.getAttribute("data-time"), "the API's next run");
        assertEquals(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
                .format(java.time.Instant.ofEpochSecond(next).atZone(java.time.ZoneId.systemDefault())), shown.getText());
        assertEquals("1", api("/config/prune/nightly").path("keep-last").asText());
        browser.screenshot("jobs");

        // edit: the comment is saved with the file's digest; the cleared keep-last is deleted
        browser.click(row + " .edit-job");
        browser.find("#job-prune-comment").sendKeys("weekdays");
        browser.find("#job-prune-keep-last").clear();
        browser.find("#job-prune-keep-daily").sendKeys("1");
        browser.click("#job-prune-save");
        browser.waitText("#notice", "Prune job 'nightly' saved.");
        browser.waitText(row, "weekdays");
        JsonNode saved = api("/config/prune/nightly");
        assertEquals("weekdays", saved.path("comment").asText());
        assertFalse(saved.has("keep-last"), saved.toString());
        assertEquals("1", saved.path("keep-daily").asText());

        // a bad schedule is the server's one-line message, and Escape closes the form
        browser.click("#new-prune");
        browser.find("#job-prune-id").sendKeys("broken");
        browser.find("#job-prune-schedule").sendKeys("mon..xyz");
        browser.click("#job-prune-save");
        String error = browser.waitText("#notice .msg.error", "schedule");
        assertTrue(error.startsWith("Create: parameter verification failed - 'schedule'"), error);
        assertFalse(error.contains("\n") || error.contains("Exception"), error);
        browser.find("#job-prune-id").sendKeys(Keys.ESCAPE);
        browser.waitFor(d -> browser.all("#job-prune-form").isEmpty() ? true : null, "the form closed");

        // run now: the notice names the task and links to its log, followed to TASK OK
        browser.click(row + " .run-job");
        String upid = browser.waitText("#notice a.upid", "UPID:");
        assertTrue(upid.contains(":prunejob:") && upid.contains("nightly"), upid);
        assertTrue(browser.find("#notice").getText().startsWith("Prune job 'nightly' started: task " + upid), browser.find("#notice").getText());
        browser.click("#notice a.upid");
        browser.waitFor(d -> browser.find("#task-log").getText().contains("TASK OK") ? true : null, "TASK OK in the job's log",
                Duration.ofSeconds(60));
        assertEquals(1, api("/admin/datastore/store1/snapshots?backup-type=vm&backup-id=100").size(), "keep-daily 1 left one");
        browser.open(base + "/#/jobs");
        browser.waitText(row + " .last-run", "OK");
        assertEquals(upid, browser.find(row + " .last-run a").getAttribute("href").replaceFirst(".*#/task/", "")
                .transform(h -> java.net.URLDecoder.decode(h, StandardCharsets.UTF_8)));
        // the maintenance page lists the datastore's jobs with the same next run
        browser.open(base + "/#/maintenance/store1");
        assertEquals(Long.toString(next), browser.find("#store-jobs " + row + " .next-run").getAttribute("data-time"));
    }

    @Test
    @Order(8)
    void aRemoteIsCreatedAndEditedWithoutShowingItsPassword() throws Exception {
        browser.open(base + "/#/jobs");
        browser.click("#new-remote");
        browser.find("#job-remote-id").sendKeys("other");
        browser.find("#job-remote-host").sendKeys("127.0.0.1");
        browser.find("#job-remote-port").sendKeys(Integer.toString(server.port()));
        browser.find("#job-remote-auth-id").sendKeys("root@pam!net");
        browser.find("#job-remote-password").sendKeys(rootToken);
        browser.find("#job-remote-fingerprint").sendKeys(server.fingerprint());
        browser.click("#job-remote-save");
        browser.waitText("#notice", "Remote 'other' created.");
        String row = browser.waitText("#jobs-remote tr[data-id='other']", "root@pam!net");
        assertFalse(row.contains(rootToken), "the secret is never shown");
        browser.click("#jobs-remote tr[data-id='other'] .edit-job");
        assertEquals("", browser.find("#job-remote-password").getAttribute("value"), "no password in the form");
        browser.find("#job-remote-comment").sendKeys("this server");
        browser.click("#job-remote-save");
        browser.waitText("#jobs-remote tr[data-id='other']", "this server");
        JsonNode remote = api("/config/remote/other");
        assertEquals("this server", remote.path("comment").asText());
        assertFalse(remote.has("password"), remote.toString());
        // a sync job can pick the remote
        browser.click("#new-sync");
        new Select(browser.find("#job-sync-remote")).selectByValue("other");
        browser.screenshot("jobs-sync-form");
        browser.find("#job-sync-id").sendKeys(Keys.ESCAPE);
    }

    @Test
    @Order(9)
    void atPhoneWidthNoPageScrollsSideways() {
        try {
            browser.size(375, 800);
            for (String page : List.of("#/dashboard", "#/datastore/store1", "#/tasks", "#/maintenance/store1", "#/jobs", "#/access",
                    "#/charts/store1")) {
                browser.open(base + "/" + page);
                browser.find("main h1");
                browser.find("main .table-wrap, main .tree, main .card");
                long scroll = ((Number) browser.js("return document.documentElement.scrollWidth;")).longValue();
                long width = ((Number) browser.js("return document.documentElement.clientWidth;")).longValue();
                assertTrue(scroll <= width, page + ": page " + scroll + " px wide in a " + width + " px window");
            }
            browser.open(base + "/#/dashboard");
            browser.find("table.datastores");
            browser.screenshot("dashboard-phone");
            browser.open(base + "/#/jobs");
            browser.waitText("#jobs-prune", "nightly");
            browser.screenshot("jobs-phone");
        } finally {
            browser.size(1280, 900);
        }
    }

    @Test
    @Order(10)
    void darkModeFollowsTheSystemSetting() {
        try {
            browser.colorScheme("dark");
            browser.open(base + "/#/dashboard");
            browser.find("table.datastores");
            String bg = (String) browser.js("return getComputedStyle(document.body).backgroundColor;");
            assertEquals("rgb(21, 24, 29)", bg, "dark background");
            browser.screenshot("dashboard-dark");
        } finally {
            browser.colorScheme("light");
        }
        assertEquals("rgb(246, 247, 249)", browser.js("return getComputedStyle(document.body).backgroundColor;"));
    }

    @Test
    @Order(11)
    void aBackupUserSeesOnlyTheirDatastoreAndGroupsAndGetsPermissionErrors() throws Exception {
        browser.open(base + "/");
        logout();
        login("alice@pbs", ALICE_PASSWORD);
        browser.waitText("#username", "alice@pbs");
        String nav = browser.find("nav").getText();
        assertTrue(nav.contains("store2") && !nav.contains("store1"), nav);
        String stores = browser.waitText("table.datastores", "store2");
        assertFalse(stores.contains("store1"), stores);
        browser.open(base + "/#/datastore/store2");
        String tree = browser.waitText("#content-tree", "alice");
        assertFalse(tree.contains("rootonly"), tree);
        // her own group: notes, protection and owner she may change (Datastore.Backup as owner), but no
        // Forget, which needs Datastore.Modify or Datastore.Prune and would only be refused
        browser.click("details.group[data-group='host/alice'] > summary");
        String group = "details.group[data-group='host/alice']";
        browser.find(group + " .edit-notes");
        assertEquals(1, browser.all(group + " .group-actions button").size(), "change owner");
        assertTrue(browser.all(group + " .forget").isEmpty(), "no Forget button for a Backup user");
        assertEquals(Boolean.TRUE, browser.js("return !document.querySelector(\"" + group + " input.protect\").disabled;"));
        // giving her group to root is refused with PBS's 401 and its one line; her session goes on
        browser.click(group + " .group-actions button");
        browser.waitFor(d -> {
            try {
                d.switchTo().alert().sendKeys("root@pam");
                d.switchTo().alert().accept();
                return true;
            } catch (RuntimeException e) {
                return null;
            }
        }, "owner prompt");
        String refused = browser.waitText("#notice .msg.error", "does not have permission");
        assertTrue(refused.startsWith("Change owner: alice@pbs does not have permission to change owner of backup group "
                + "'host/alice' to root@pam"), refused);
        assertEquals("alice@pbs", browser.find("#username").getText(), "still logged in");
        assertEquals("alice@pbs", api("/admin/datastore/store2/groups").findValuesAsText("owner").stream()
                .filter(o -> o.startsWith("alice")).findFirst().orElseThrow());
        // maintenance: no GC or prune buttons that could only be refused; what they need instead
        browser.open(base + "/#/maintenance/store2");
        assertEquals("Starting GC needs Datastore.Modify on /datastore/store2.", browser.waitText("#gc-needs", "needs"));
        assertEquals("Pruning needs Datastore.Modify or Datastore.Prune on /datastore/store2.",
                browser.waitText("#prune-needs", "needs"));
        assertTrue(browser.all("#gc-run").isEmpty() && browser.all("#prune-simulate").isEmpty());
        browser.find("#verify-run"); // Datastore.Backup verifies her own groups
        browser.open(base + "/#/access");
        assertEquals("permission check failed", browser.waitText("main .lazy .msg.error", "permission"));
        assertTrue(browser.waitText("table.users tbody", "alice").startsWith("alice@pbs"));
        assertEquals(1, browser.all("table.users tbody tr").size(), "only her own user");
        // the Jobs page: root's job is not listed to her, and creating one is refused in one line
        browser.open(base + "/#/jobs");
        browser.waitText("#jobs-prune", "no prune job");
        browser.click("#new-prune");
        browser.find("#job-prune-id").sendKeys("mine");
        browser.find("#job-prune-schedule").sendKeys("daily");
        browser.click("#job-prune-save");
        String error = browser.waitText("#notice .msg.error", "permission");
        assertTrue(error.startsWith("Create: permission check failed"), error); // PBS's one line, no stack trace
        assertFalse(error.contains("\n") || error.contains("Exception"), error);
        browser.screenshot("permission-error");
        assertFalse(api("/config/prune").toString().contains("mine"), "not created");
    }

    @Test
    @Order(12)
    void anotherUsersPagesOpenedByAddressShowPbsOneLineRefusalsAndNothingOfTheirs() throws Exception {
        // still alice (DatastoreBackup on store2 only), typing addresses of root's pages
        browser.open(base + "/#/datastore/store1");
        String line = browser.waitText("#content-tree .msg.error", "permission check failed");
        assertEquals("permission check failed - missing Datastore.Audit|Datastore.Backup on /datastore/store1", line);
        String upid = api("/nodes/localhost/tasks?typefilter=garbage_collection&limit=1").get(0).get("upid").asText();
        for (String page : List.of("#/charts/store1", "#/task/" + java.net.URLEncoder.encode(upid, StandardCharsets.UTF_8)
                .replace("+", "%20"), "#/maintenance/store1")) {
            browser.open(base + "/" + page);
            String err = browser.waitText("main .msg.error", "permission check failed");
            assertFalse(err.contains("\n") || err.contains("Exception") || err.contains(" at "), page + ": " + err);
            String text = browser.find("main").getText();
            assertFalse(text.contains("vm/100") || text.contains("rootonly") || text.contains("TASK OK"), page + ": " + text);
            if (page.startsWith("#/task/")) {
                assertEquals(Boolean.TRUE, browser.js("return document.getElementById('task-stop').hidden"
                        + " && document.getElementById('task-download').hidden;"), "no Stop or download of her refused task");
            }
        }
        // on root's store she gets no button at all
        assertTrue(browser.all("#gc-run").isEmpty() && browser.all("#verify-run").isEmpty()
                && browser.all("#prune-simulate").isEmpty(), "no buttons on a foreign datastore");
    }

    @Test
    @Order(13)
    void anExpiredSessionGoesBackToTheLoginWithAMessage() {
        browser.open(base + "/#/dashboard");
        browser.waitText("#username", "alice@pbs");
        String expire = "document.cookie = 'PBSAuthCookie=' + encodeURIComponent('PBS:alice@pbs:00000000::bad') + '; path=/; secure';";
        browser.js(expire);
        browser.open(base + "/#/tasks");
        String msg = browser.waitText("#login-message", "session has expired");
        assertTrue(msg.contains("log in again"), msg);
        login("alice@pbs", ALICE_PASSWORD);
        browser.waitText("#username", "alice@pbs");
        // a write whose ticket expired while the form was open: the login again, not a blank page
        browser.open(base + "/#/datastore/store2");
        browser.click("details.group[data-group='host/alice'] > summary");
        browser.click("details.group[data-group='host/alice'] .edit-notes");
        browser.find("details.group[data-group='host/alice'] textarea.notes-text").sendKeys("never saved");
        browser.js(expire);
        browser.click("details.group[data-group='host/alice'] .save-notes");
        assertTrue(browser.waitText("#login-message", "session has expired").contains("log in again"));
        assertTrue(browser.all("#content-tree").isEmpty(), "the page is replaced by the login");
        login("alice@pbs", ALICE_PASSWORD);
        browser.waitText("#username", "alice@pbs");
        logout();
        assertEquals("Logged out.", browser.waitText("#login-message", "Logged out"));
        assertEquals(Boolean.FALSE, browser.js("return document.cookie.includes('PBSAuthCookie=PBS');"));
    }

    /** Accepts the test server's self-signed certificate (its fingerprint is pinned), with no host name check. */
    static final class TrustAll extends javax.net.ssl.X509ExtendedTrustManager {
        private static void pinned(java.security.cert.X509Certificate[] chain) throws java.security.cert.CertificateException {
            if (!org.jpbs.client.http.TlsTrust.fingerprint(chain[0]).equals(server.fingerprint())) {
                throw new java.security.cert.CertificateException("not the test server's certificate");
            }
        }

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] c, String a, java.net.Socket s)
                throws java.security.cert.CertificateException {
            pinned(c);
        }

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] c, String a, javax.net.ssl.SSLEngine e)
                throws java.security.cert.CertificateException {
            pinned(c);
        }

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] c, String a)
                throws java.security.cert.CertificateException {
            pinned(c);
        }

        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] c, String a, java.net.Socket s) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] c, String a, javax.net.ssl.SSLEngine e) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] c, String a) {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.security.cert.X509Certificate[] getAcceptedIssuers() {
            return new java.security.cert.X509Certificate[0];
        }
    }
}
