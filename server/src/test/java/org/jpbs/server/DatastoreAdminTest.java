package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotWriter;
import org.jpbs.datastore.task.TaskJob;
import org.jpbs.server.api.DatastoreJobs;
import org.jpbs.server.api.GroupScope;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * The server with datastores from {@code datastore.cfg}: maintenance modes enforced in the
 * backup/reader sessions and the REST API, config changes seen by the next request, backups as
 * tasks with the tasks API (shapes of {@code vectors/real-pbs/api/tasks.body}), stopping a task,
 * the GC start hook, and the streamed snapshot listing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatastoreAdminTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final long T = 1_700_000_000L;
    static final String DS = "/api2/json/admin/datastore";
    static final String TASKS = "/api2/json/nodes/localhost/tasks";

    @TempDir
    static Path tmp;
    static DatastoreConfigStore config;
    static JpbsServer server;
    static HttpClient http;
    static String adminToken;
    static String backupToken;
    static volatile TaskJob gcJob;

    /** The GC hook of this test: 501 unless a job is set. */
    static final class TestJobs implements DatastoreJobs {
        static final LocalDatastoreJobs REAL = new LocalDatastoreJobs("root@pam",
                new org.jpbs.core.pipeline.ThreadBudget(2, "test-cpu"));
        static volatile boolean realGc;

        @Override
        public TaskJob garbageCollection(DatastoreHandle ds) {
            if (realGc) {
                return REAL.garbageCollection(ds);
            }
            TaskJob j = gcJob;
            return j == null ? DatastoreJobs.NOT_IMPLEMENTED.garbageCollection(ds) : j;
        }

        @Override
        public List<org.jpbs.datastore.prune.PruneDecision> pruneGroup(DatastoreHandle ds, Map<String, String> params) {
            return REAL.pruneGroup(ds, params);
        }

        @Override
        public TaskJob prune(DatastoreHandle ds, Map<String, String> params, GroupScope scope) {
            return REAL.prune(ds, params, scope);
        }

        @Override
        public TaskJob verify(DatastoreHandle ds, Map<String, String> params, GroupScope scope) {
            return REAL.verify(ds, params, scope);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        Path cfgDir = tmp.resolve("config");
        AuthConfig auth = AuthConfig.open(cfgDir);
        adminToken = "root@pam!admin:" + auth.createToken("root@pam", "admin", null);
        auth.updateAcl("/", "root@pam!admin", "Admin", true, false);
        auth.addUser("bk@pbs", null, null);
        backupToken = "bk@pbs!t:" + auth.createToken("bk@pbs", "t", null);
        auth.updateAcl("/datastore/store2", "bk@pbs", "DatastoreBackup", true, false);
        auth.updateAcl("/datastore/store2", "bk@pbs!t", "DatastoreBackup", true, false);
        config = DatastoreConfigStore.open(cfgDir);
        for (String n : new String[] {"store1", "store2"}) {
            Path p = tmp.resolve("ds-" + n);
            DatastorePool.create(p, SyncLevel.NONE);
            config.update(f -> f.withDatastore(new DatastoreConfig(n, Map.of("path", p.toString(),
                    "tuning", "sync-level=none", "comment", "the " + n))));
        }
        FileAuthenticator fa = FileAuthenticator.open(cfgDir);
        ServerConfig sc = new ServerConfig(cfgDir, Map.of(), "127.0.0.1", 0);
        JpbsRestHandler rest = JpbsRestHandler.create(sc, fa).withFailureDelays(Duration.ZERO, Duration.ZERO);
        rest = rest.withServices(rest.services().withJobs(new TestJobs()));
        server = JpbsServer.start(sc, fa, rest);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, new TrustManager[] {new TrustAll()}, null);
        http = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        if (http != null) {
            http.close();
        }
        if (server != null) {
            server.close();
        }
    }

    record Resp(int status, String text, Map<String, List<String>> headers) {
        JsonNode json() throws Exception {
            return JSON.readTree(text);
        }
    }

    static Resp call(String method, String pathAndQuery, String token) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + pathAndQuery))
                .header("Authorization", "PBSAPIToken=" + token).timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> a = http.send(r, HttpResponse.BodyHandlers.ofString());
        return new Resp(a.statusCode(), a.body(), a.headers().map());
    }

    static Resp get(String pathAndQuery) throws Exception {
        return call("GET", pathAndQuery, adminToken);
    }

    static void setMaintenance(String store, String mode) throws Exception {
        config.update(f -> f.withProperty(store, "maintenance-mode", mode));
    }

    static PbsTestClient connect(String protocol) throws Exception {
        return PbsTestClient.connect(server.port(), server.fingerprint(), protocol);
    }

    static PbsTestClient.Resp refusedUpgrade(String protocol, String path, String query) throws Exception {
        try (PbsTestClient c = connect(protocol)) {
            PbsTestClient.Resp r = c.upgrade(path + "?" + query, Map.of("Authorization", "PBSAPIToken " + adminToken));
            assertNotNull(r, "expected a refusal of " + path);
            return r;
        }
    }

    static void backup(String store, String id, long time) throws Exception {
        try (PbsTestClient c = connect(PbsTestClient.BACKUP)) {
            c.upgradeOrFail("/api2/json/backup", Backups.backupQuery(store, id, time), adminToken);
            Backups.imageBackup(c, id, time, Backups.image(time, 1, 1000));
        }
        awaitIdle();
    }

    static void awaitIdle() throws InterruptedException {
        for (int i = 0; i < 600 && server.activeSessions() > 0; i++) {
            Thread.sleep(50);
        }
        assertEquals(0, server.activeSessions());
    }

    static JsonNode awaitTaskEnd(String upid) throws Exception {
        String u = URLEncoder.encode(upid, StandardCharsets.UTF_8);
        for (int i = 0; i < 600; i++) {
            JsonNode st = get(TASKS + "/" + u + "/status").json().get("data");
            if (st.get("status").asText().equals("stopped")) {
                return st;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("task did not stop: " + upid);
    }

    @Test
    @Order(1)
    void theListFollowsTheConfigFromTheNextRequestOn() throws Exception {
        JsonNode list = get(DS).json().get("data");
        assertEquals("[{\"comment\":\"the store1\",\"store\":\"store1\"},{\"comment\":\"the store2\",\"store\":\"store2\"}]",
                list.toString());
        Path p3 = tmp.resolve("ds-store3");
        Files.createDirectories(p3.resolve(".chunks/0000"));
        Files.createDirectories(p3.resolve(".chunks/ffff"));
        config.update(f -> f.withDatastore(new DatastoreConfig("store3", Map.of("path", p3.toString()))));
        list = get(DS).json().get("data");
        assertEquals(3, list.size(), list.toString());
        Resp st = get(DS + "/store3/status?verbose=0");
        assertEquals(200, st.status(), st.text());
        assertEquals(Set.of("avail", "total", "used"), fields(st.json().get("data")));
        config.update(f -> f.withoutDatastore("store3"));
        Resp gone = get(DS + "/store3/status");
        assertEquals("400 no such datastore 'store3'", gone.status() + " " + gone.text(), "gone at once");
    }

    static Set<String> fields(JsonNode o) {
        Set<String> s = new TreeSet<>();
        o.fieldNames().forEachRemaining(s::add);
        return s;
    }

    @Test
    @Order(2)
    void readOnlyAllowsRestoreAndRefusesBackupAndGc() throws Exception {
        backup("store1", "100", T);
        setMaintenance("store1", "read-only,message=moving disks");
        String refusal = "datastore 'store1' is in read-only maintenance mode: moving disks";
        PbsTestClient.Resp r = refusedUpgrade(PbsTestClient.BACKUP, "/api2/json/backup", Backups.backupQuery("store1", "100", T + 60));
        assertEquals(400, r.status());
        assertEquals(refusal, r.text());
        Resp gc = call("POST", DS + "/store1/gc", adminToken);
        assertEquals(400, gc.status());
        assertEquals(refusal, gc.text());
        try (PbsTestClient c = connect(PbsTestClient.READER)) {
            c.upgradeOrFail("/api2/json/reader", "backup-id=100&backup-time=" + T + "&backup-type=vm&store=store1", adminToken);
            assertEquals(200, c.call("GET", "/download?file-name=index.json.blob").status());
        }
        assertEquals(1, get(DS + "/store1/snapshots").json().get("data").size());
        assertEquals(400, call("DELETE", DS + "/store1/snapshots?backup-type=vm&backup-id=100&backup-time=" + T,
                adminToken).status(), "forget is a write");
        JsonNode item = get(DS).json().get("data").get(0);
        assertEquals("read-only,message=moving disks", item.get("maintenance").asText());
        awaitIdle();
    }

    @Test
    @Order(3)
    void offlineRefusesBackupRestoreAndGcButListsTheStore() throws Exception {
        setMaintenance("store1", "offline,message=disk swap");
        String refusal = "datastore 'store1' is in offline maintenance mode: disk swap";
        assertEquals(refusal, refusedUpgrade(PbsTestClient.BACKUP, "/api2/json/backup",
                Backups.backupQuery("store1", "100", T + 60)).text());
        PbsTestClient.Resp r = refusedUpgrade(PbsTestClient.READER, "/api2/json/reader",
                "backup-id=100&backup-time=" + T + "&backup-type=vm&store=store1");
        assertEquals(400, r.status());
        assertEquals(refusal, r.text());
        for (String[] c : new String[][] {{"POST", "/gc"}, {"GET", "/snapshots"}, {"GET", "/status"}, {"GET", "/groups"}}) {
            Resp a = call(c[0], DS + "/store1" + c[1], adminToken);
            assertEquals(400, a.status(), c[1]);
            assertEquals(refusal, a.text(), c[1]);
        }
        JsonNode usage = get("/api2/json/status/datastore-usage").json().get("data");
        assertEquals(refusal, usage.get(0).get("error").asText());
        assertEquals("offline,message=disk swap", get(DS).json().get("data").get(0).get("maintenance").asText());

        setMaintenance("store1", null);
        Resp gc = call("POST", DS + "/store1/gc", adminToken);
        assertEquals(501, gc.status());
        assertEquals("garbage collection is not implemented yet", gc.text());
        Resp verify = call("POST", DS + "/store1/verify", adminToken);
        assertEquals(200, verify.status(), "allowed again once online");
        assertEquals("OK", awaitTaskEnd(verify.json().get("data").asText()).get("exitstatus").asText());
        assertEquals(200, get(DS + "/store1/status").status());
    }

    @Test
    @Order(4)
    void aRunningBackupFinishesWhenTheStoreTurnsReadOnly() throws Exception {
        try (PbsTestClient c = connect(PbsTestClient.BACKUP)) {
            c.upgradeOrFail("/api2/json/backup", Backups.backupQuery("store1", "101", T), adminToken);
            setMaintenance("store1", "read-only");
            Backups.imageBackup(c, "101", T, Backups.image(5, 1, 100));
        }
        awaitIdle();
        setMaintenance("store1", null);
        JsonNode tasks = get(TASKS + "?typefilter=backup&limit=1").json().get("data");
        assertEquals("store1:vm/101", tasks.get(0).get("worker_id").asText());
        assertEquals("OK", tasks.get(0).get("status").asText());
        assertTrue(Files.isDirectory(tmp.resolve("ds-store1/vm/101")));
    }

    @Test
    @Order(5)
    void backupsAreTasksWithStatusAndLog() throws Exception {
        Resp list = get(TASKS + "?store=store1&typefilter=backup");
        assertEquals(200, list.status(), list.text());
        JsonNode all = list.json();
        assertEquals(all.get("total").asInt(), all.get("data").size());
        JsonNode item = all.get("data").get(all.get("data").size() - 1); // the oldest: vm/100
        assertEquals(List.of("total", "data"), names(all), "as PBS: total first");
        assertEquals(List.of("upid", "node", "pid", "pstart", "starttime", "worker_type", "worker_id", "user", "endtime",
                "status"), names(item), "the keys and order of vectors/real-pbs/api/tasks.body");
        assertEquals("backup", item.get("worker_type").asText());
        assertEquals("store1:vm/100", item.get("worker_id").asText());
        assertEquals("root@pam!admin", item.get("user").asText());
        assertEquals("localhost", item.get("node").asText());
        String upid = item.get("upid").asText();
        assertTrue(upid.matches("UPID:[^:]+:[0-9A-F]{8}:[0-9A-F]{8,9}:[0-9A-F]{8}:[0-9A-F]{8}:backup:store1\\\\x3avm-100:root@pam!admin:"),
                upid);
        String u = URLEncoder.encode(upid, StandardCharsets.UTF_8);
        JsonNode st = get(TASKS + "/" + u + "/status").json().get("data");
        assertEquals("stopped", st.get("status").asText());
        assertEquals("OK", st.get("exitstatus").asText());
        assertEquals("root@pam", st.get("user").asText());
        assertEquals("admin", st.get("tokenid").asText());
        assertEquals("store1:vm/100", st.get("id").asText());

        // the log as the PBS client pages through it
        JsonNode log = get(TASKS + "/" + u + "/log?start=0&limit=500&test-status=true").json();
        JsonNode lines = log.get("data");
        assertEquals(log.get("total").asInt(), lines.size());
        assertFalse(log.get("active").asBoolean());
        for (int i = 0; i < lines.size(); i++) {
            assertEquals(i + 1, lines.get(i).get("n").asInt());
            String t = lines.get(i).get("t").asText();
            assertEquals(": ", t.substring(25, 27), "time prefix of 25 characters: " + t);
        }
        assertTrue(lines.get(0).get("t").asText().contains("starting new backup on datastore 'store1'"), lines.toString());
        assertTrue(lines.get(lines.size() - 1).get("t").asText().endsWith(": TASK OK"));
        JsonNode page = get(TASKS + "/" + u + "/log?start=2&limit=2").json().get("data"); // PBS: start = first line number
        assertEquals(2, page.size());
        assertEquals(2, page.get(0).get("n").asInt());

        // a token without Sys.Audit sees only its own tasks
        assertEquals(0, call("GET", TASKS, backupToken).json().get("total").asInt());
        assertEquals(403, call("GET", TASKS + "/" + u + "/status", backupToken).status());
        assertEquals(400, get(TASKS + "/nonsense/status").status());
    }

    /**
     * The PBS client's benchmark: a backup session with {@code benchmark=true} on
     * {@code host/benchmark}, speedtest uploads, then the connection is closed without a finish.
     * As PBS ({@code src/api2/backup/mod.rs}), the task ends OK ("benchmark finished
     * successfully") and nothing stays on disk: no snapshot, no group, no hidden temp directory.
     */
    @Test
    @Order(20)
    void aBenchmarkSessionEndsOkAndKeepsNothing() throws Exception {
        String query = "backup-id=benchmark&backup-time=" + T + "&backup-type=host&benchmark=true&debug=false&store=store2";
        try (PbsTestClient c = connect(PbsTestClient.BACKUP)) {
            c.upgradeOrFail("/api2/json/backup", query, adminToken);
            for (int i = 0; i < 3; i++) {
                assertEquals("{\"data\":null}", c.call("POST", "/speedtest", "application/octet-stream",
                        Backups.random(i, 1024 * 1024)).text());
            }
            // an index writer makes the session's hidden temp directory non-empty
            assertEquals(200, c.call("POST", "/fixed_index?archive-name=d.img.fidx&size=100").status());
        }
        awaitIdle();
        JsonNode tasks = get(TASKS + "?typefilter=backup&limit=1").json().get("data");
        assertEquals("store2:host/benchmark", tasks.get(0).get("worker_id").asText(), tasks.toString());
        assertEquals("OK", tasks.get(0).get("status").asText(), tasks.toString());
        String u = URLEncoder.encode(tasks.get(0).get("upid").asText(), StandardCharsets.UTF_8);
        StringBuilder log = new StringBuilder();
        get(TASKS + "/" + u + "/log?limit=0").json().get("data").forEach(l -> log.append(l.get("t").asText()).append('\n'));
        assertTrue(log.toString().contains("starting new benchmark on datastore 'store2'"), log.toString());
        assertTrue(log.toString().contains(": benchmark finished successfully\n"), log.toString());
        assertTrue(log.toString().endsWith(": TASK OK\n"), log.toString());
        assertFalse(log.toString().contains("finished flag is not set"), log.toString());
        Path root = tmp.resolve("ds-store2");
        assertFalse(Files.exists(root.resolve("host/benchmark")), "no group host/benchmark, no snapshot in it");
        try (var walk = Files.walk(root)) {
            List<Path> tmpDirs = walk.filter(p -> p.getFileName().toString().startsWith(".tmp")).toList();
            assertEquals(List.of(), tmpDirs);
        }
    }

    static List<String> names(JsonNode o) {
        List<String> l = new ArrayList<>();
        o.fieldNames().forEachRemaining(l::add);
        return l;
    }

    @Test
    @Order(6)
    void stoppingABackupTaskClosesTheSession() throws Exception {
        try (PbsTestClient c = connect(PbsTestClient.BACKUP)) {
            c.upgradeOrFail("/api2/json/backup", Backups.backupQuery("store1", "102", T), adminToken);
            JsonNode running = get(TASKS + "?running=1").json().get("data");
            assertEquals(1, running.size(), running.toString());
            assertFalse(running.get(0).has("status"));
            String upid = running.get(0).get("upid").asText();
            assertEquals(200, call("DELETE", TASKS + "/" + URLEncoder.encode(upid, StandardCharsets.UTF_8), adminToken).status());
            JsonNode st = awaitTaskEnd(upid);
            assertEquals("abort requested - aborting task", st.get("exitstatus").asText());
            for (int i = 0; i < 200 && c.isOpen(); i++) {
                Thread.sleep(50);
            }
            assertFalse(c.isOpen(), "the connection was closed");
        }
        awaitIdle();
        assertFalse(Files.exists(tmp.resolve("ds-store1/vm/102")), "nothing left of the stopped backup");
    }

    @Test
    @Order(7)
    void theGcHookRunsAsATask() throws Exception {
        gcJob = log -> log.log("marking chunks (test job)");
        try {
            Resp r = call("POST", DS + "/store2/gc", adminToken);
            assertEquals(200, r.status(), r.text());
            String upid = r.json().get("data").asText();
            assertTrue(upid.contains(":garbage_collection:store2:root@pam!admin:"), upid);
            assertEquals("OK", awaitTaskEnd(upid).get("exitstatus").asText());
            JsonNode log = get(TASKS + "/" + URLEncoder.encode(upid, StandardCharsets.UTF_8) + "/log").json().get("data");
            assertTrue(log.get(0).get("t").asText().endsWith("marking chunks (test job)"));
            assertEquals("{\"read\":0,\"write\":0}", get(DS + "/store2/active-operations").json().get("data").toString(),
                    "the task released its datastore");
            assertEquals(403, call("POST", DS + "/store2/gc", backupToken).status(), "needs Datastore.Modify");
        } finally {
            gcJob = null;
        }
    }

    @Test
    @Order(8)
    void theSnapshotListIsStreamed() throws Exception {
        Datastore ds = Datastore.open(tmp.resolve("ds-store2"), SyncLevel.NONE);
        int groups = 3;
        int perGroup = 60;
        for (int g = 0; g < groups; g++) {
            for (int i = 0; i < perGroup; i++) {
                BackupSnapshotRef ref = new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST,
                        "h" + g), T + i * 3600L);
                try (SnapshotWriter w = ds.beginSnapshot(ref, "bk@pbs!t")) {
                    byte[] conf = ("snapshot " + i).getBytes(StandardCharsets.UTF_8);
                    w.addBlob("conf.blob", DataBlob.encode(conf, 0, conf.length, false));
                    w.commit(new BackupManifest(BackupType.HOST, "h" + g, ref.time()));
                }
            }
        }
        Resp r = get(DS + "/store2/snapshots");
        assertEquals(200, r.status(), r.text());
        assertEquals(List.of("chunked"), r.headers().get("transfer-encoding"));
        JsonNode data = r.json().get("data");
        assertEquals(groups * perGroup, data.size());
        assertEquals("h0", data.get(0).get("backup-id").asText());
        assertEquals(T, data.get(0).get("backup-time").asLong());
        assertEquals("h2", data.get(data.size() - 1).get("backup-id").asText());
        assertEquals(List.of("conf.blob", "index.json.blob"),
                List.of(data.get(5).get("files").get(0).get("filename").asText(), data.get(5).get("files").get(1).get("filename").asText()));
        assertEquals(perGroup, call("GET", DS + "/store2/snapshots?backup-id=h1", backupToken).json().get("data").size(),
                "the owner sees its groups with Datastore.Backup");
        assertEquals(0, get(DS + "/store2/snapshots?backup-id=nope").json().get("data").size());
    }

    /** Regression (s3-break47): verify answered 200 and then failed in the task on these. */
    @Test
    @Order(10)
    void verifyRefusesIncompleteOrMalformedSelectionsAtOnce() throws Exception {
        for (String q : List.of("backup-time=1700000000", "backup-type=vm", "backup-id=300",
                "backup-type=vm&backup-time=1700000000")) {
            Resp r = call("POST", DS + "/store1/verify?" + q, adminToken);
            assertEquals(400, r.status(), q + ": " + r.text());
            assertTrue(r.text().contains("parameters do not specify a backup group or snapshot"), r.text());
        }
        Resp bad = call("POST", DS + "/store1/verify?backup-type=vm&backup-id=300&backup-time=abc", adminToken);
        assertEquals(400, bad.status(), bad.text());
        assertTrue(bad.text().contains("'backup-time'"), bad.text());
        // a group that does not exist: as PBS, a task that says so in its log and ends OK
        Resp none = call("POST", DS + "/store1/verify?backup-type=vm&backup-id=999", adminToken);
        assertEquals(200, none.status(), none.text());
        String upid = none.json().get("data").asText();
        assertEquals("OK", awaitTaskEnd(upid).get("exitstatus").asText());
        StringBuilder log = new StringBuilder();
        get(TASKS + "/" + URLEncoder.encode(upid, StandardCharsets.UTF_8) + "/log?limit=0").json().get("data")
                .forEach(l -> log.append(l.get("t").asText()).append('\n'));
        assertTrue(log.toString().contains("verify datastore 'store1', group vm/999 - unable to list backups: "
                + "backup group does not exist\n"), log.toString());
    }

    /** Trusts every server certificate (tests only). */
    @Test
    @Order(9)
    void pruneVerifyAndGcRunThroughTheApiWithTheTaskUpid() throws Exception {
        for (int i = 0; i < 3; i++) {
            backup("store1", "300", T + i * 86_400L);
        }
        String q = "?backup-type=vm&backup-id=300&keep-last=1";
        Resp dry = call("POST", DS + "/store1/prune" + q + "&dry-run=1", adminToken);
        assertEquals(200, dry.status(), dry.text());
        JsonNode list = dry.json().get("data");
        assertEquals(3, list.size(), list.toString());
        assertEquals(Set.of("backup-type", "backup-id", "backup-time", "keep", "protected"), fields(list.get(0)));
        assertEquals(T, list.get(0).get("backup-time").asLong());
        assertFalse(list.get(0).get("keep").asBoolean());
        assertTrue(list.get(2).get("keep").asBoolean());
        assertEquals(3, get(DS + "/store1/snapshots?backup-id=300").json().get("data").size(), "dry run removes nothing");
        assertEquals(403, call("POST", DS + "/store1/prune" + q, backupToken).status(), "no privilege on store1");

        Resp task = call("POST", DS + "/store1/prune" + q + "&use-task=1", adminToken);
        assertEquals(200, task.status(), task.text());
        String pruneUpid = task.json().get("data").asText();
        assertTrue(pruneUpid.contains(":prune:store1:"), pruneUpid);
        assertEquals("OK", awaitTaskEnd(pruneUpid).get("exitstatus").asText());
        JsonNode left = get(DS + "/store1/snapshots?backup-id=300").json().get("data");
        assertEquals(1, left.size(), left.toString());
        assertEquals(T + 2 * 86_400L, left.get(0).get("backup-time").asLong());

        Resp v = call("POST", DS + "/store1/verify?backup-type=vm&backup-id=300", adminToken);
        assertEquals(200, v.status(), v.text());
        String verifyUpid = v.json().get("data").asText();
        assertEquals("OK", awaitTaskEnd(verifyUpid).get("exitstatus").asText());
        JsonNode snap = get(DS + "/store1/snapshots?backup-id=300").json().get("data").get(0);
        assertEquals("ok", snap.get("verification").get("state").asText(), snap.toString());
        assertEquals(verifyUpid, snap.get("verification").get("upid").asText(), "verify_state names the task");

        TestJobs.realGc = true;
        try {
            Resp gc = call("POST", DS + "/store1/gc", adminToken);
            assertEquals(200, gc.status(), gc.text());
            String gcUpid = gc.json().get("data").asText();
            JsonNode end = awaitTaskEnd(gcUpid);
            assertEquals("OK", end.get("exitstatus").asText(), end.toString());
            JsonNode status = JSON.readTree(Files.readString(tmp.resolve("ds-store1/.gc-status")));
            assertEquals(gcUpid, status.get("upid").asText(), "one UPID: the task's");
        } finally {
            TestJobs.realGc = false;
        }
    }

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
}
