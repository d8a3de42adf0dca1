package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotWriter;
import org.jpbs.server.api.JpbsRestHandler;
import org.jpbs.server.api.LocalDatastoreJobs;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.http.HiddenPaths;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 10: ids and names have length limits answered with the schema's text, and no
 * error answer of the REST API or of the backup and reader protocols carries a server path (an
 * I/O error names the object relative to the datastore). The server is real (TLS, HTTP/2
 * upgrade); the I/O errors are provoked on disk: a manifest that is a directory, a manifest of
 * another snapshot, a backup type directory that is a file.
 */
class ServerPathsTest {
    static final String DS = "/api2/json/admin/datastore";
    static final long T = 1_700_000_000L;
    /** A path token at a word start: what an answer must not contain. */
    static final Pattern ABSOLUTE = Pattern.compile("(^|[\\s'\"(\\[=,])/[A-Za-z]");

    @TempDir
    static Path tmp;
    static Path root;
    static JpbsServer server;
    static HttpClient http;
    static String token;

    @BeforeAll
    static void start() throws Exception {
        root = tmp.resolve("ds");
        Datastore ds = DatastorePool.datastore(root, SyncLevel.NONE);
        BackupSnapshotRef broken = new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "broken"), T);
        try (SnapshotWriter w = ds.beginSnapshot(broken, "root@pam")) {
            byte[] conf = "x".getBytes(StandardCharsets.UTF_8);
            w.addBlob("host.conf.blob", DataBlob.encode(conf, 0, conf.length, false));
            w.commit(new BackupManifest(BackupType.HOST, "broken", T));
        }
        Path manifest = ds.snapshotDir(broken).resolve("index.json.blob");
        Files.delete(manifest);
        Files.createDirectory(manifest); // reading it fails with "<path>: Is a directory"
        Files.writeString(root.resolve("ct"), "not a directory"); // creating ct/<id> fails
        // host/mixed at T+60 carries the manifest of T: opening it fails, naming the manifest file
        BackupSnapshotRef mixed = null;
        for (long t : new long[] {T, T + 60}) {
            mixed = new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "mixed"), t);
            try (SnapshotWriter w = ds.beginSnapshot(mixed, "root@pam")) {
                byte[] conf = "x".getBytes(StandardCharsets.UTF_8);
                w.addBlob("host.conf.blob", DataBlob.encode(conf, 0, conf.length, false));
                w.commit(new BackupManifest(BackupType.HOST, "mixed", t));
            }
        }
        Files.copy(ds.snapshotDir(new BackupSnapshotRef(mixed.group(), T)).resolve("index.json.blob"),
                ds.snapshotDir(mixed).resolve("index.json.blob"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        Path config = tmp.resolve("config");
        AuthConfig auth = AuthConfig.open(config);
        token = "root@pam!admin:" + auth.createToken("root@pam", "admin", null);
        auth.updateAcl("/", "root@pam!admin", "Admin", true, false);
        FileAuthenticator fa = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of("store", root), "127.0.0.1", 0);
        JpbsRestHandler rest = JpbsRestHandler.create(sc, fa).withFailureDelays(Duration.ZERO, Duration.ZERO);
        server = JpbsServer.start(sc, fa, rest.withServices(rest.services().withJobs(new LocalDatastoreJobs("root@pam", rest.services().budget()))));
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, new TrustManager[] {new DatastoreAdminTest.TrustAll()}, null);
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

    static HttpResponse<String> rest(String method, String pathAndQuery) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + pathAndQuery))
                .header("Authorization", "PBSAPIToken=" + token).timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
        return http.send(r, HttpResponse.BodyHandlers.ofString());
    }

    static PbsTestClient.Resp refusedUpgrade(String protocol, String path, String query) throws Exception {
        try (PbsTestClient c = PbsTestClient.connect(server.port(), server.fingerprint(), protocol)) {
            PbsTestClient.Resp r = c.upgrade(path + "?" + query, Map.of("Authorization", "PBSAPIToken " + token));
            assertNotNull(r, "expected a refusal of " + path + "?" + query);
            return r;
        }
    }

    static void assertNoServerPath(String answer) {
        assertFalse(answer.contains(tmp.toString()), "answer carries the server path: " + answer);
        assertFalse(ABSOLUTE.matcher(answer).find(), "answer carries an absolute path: " + answer);
    }

    static String query(String type, String id) {
        return "store=store&backup-type=" + type + "&backup-id=" + id + "&backup-time=" + T;
    }

    @Test
    void longIdsAndNamesGetTheSchemaLengthError() throws Exception {
        String longId = "x".repeat(BackupGroupRef.MAX_ID_LENGTH + 1);
        String idText = "parameter verification failed - 'backup-id': value may only be 255 characters long";
        for (String[] call : new String[][] {{"GET", "/store/files?backup-type=host&backup-time=" + T + "&"},
                {"GET", "/store/snapshots?backup-type=host&"},
                {"DELETE", "/store/snapshots?backup-type=host&backup-time=" + T + "&"}}) {
            HttpResponse<String> r = rest(call[0], DS + call[1] + "backup-id=" + longId);
            assertEquals(400, r.statusCode(), call[0] + " " + call[1]);
            assertEquals(idText, r.body());
        }
        String okId = "y".repeat(BackupGroupRef.MAX_ID_LENGTH);
        HttpResponse<String> r = rest("GET", DS + "/store/snapshots?backup-type=host&backup-id=" + okId);
        assertEquals(200, r.statusCode(), "255 characters are fine: " + r.body());

        r = rest("GET", DS + "/store/download?backup-type=host&backup-id=broken&backup-time=" + T + "&file-name="
                + "f".repeat(240) + ".blob");
        assertEquals(400, r.statusCode());
        assertEquals("parameter verification failed - 'file-name': value may only be 244 characters long", r.body());
        r = rest("GET", DS + "/store/groups?ns=" + "n".repeat(257));
        assertEquals(400, r.statusCode());
        assertEquals("parameter verification failed - 'ns': value may only be 256 characters long", r.body());

        PbsTestClient.Resp u = refusedUpgrade(PbsTestClient.BACKUP, "/api2/json/backup", query("vm", longId));
        assertEquals(400, u.status(), u.toString());
        assertEquals(idText, u.text());
        assertFalse(Files.exists(root.resolve("vm").resolve(longId.substring(0, 100))), "nothing created");
        u = refusedUpgrade(PbsTestClient.READER, "/api2/json/reader", query("vm", longId));
        assertEquals(400, u.status(), u.toString());
        assertEquals(idText, u.text());
        u = refusedUpgrade(PbsTestClient.BACKUP, "/api2/json/backup", query("vm", "a") + "&ns=" + "n".repeat(257));
        assertEquals(400, u.status(), u.toString());
        assertEquals("parameter verification failed - 'ns': value may only be 256 characters long", u.text());
        u = refusedUpgrade(PbsTestClient.BACKUP, "/api2/json/backup", query("vm", "a").replace("store=store",
                "store=" + "s".repeat(33)));
        assertEquals(400, u.status(), u.toString());
        assertEquals("parameter verification failed - 'store': value may only be 32 characters long", u.text());
    }

    @Test
    void ioErrorsOfTheRestApiNameTheObjectNotTheServerPath() throws Exception {
        HttpResponse<String> m = rest("GET", DS + "/store/files?backup-type=host&backup-id=mixed&backup-time=" + (T + 60));
        assertEquals(400, m.statusCode(), m.body());
        assertNoServerPath(m.body());
        assertTrue(m.body().startsWith("host/mixed/2023-11-14T22:14:20Z/index.json.blob"),
                "names the object relative to the datastore: " + m.body());
        HttpResponse<String> r = rest("GET", DS + "/store/files?backup-type=host&backup-id=broken&backup-time=" + T);
        assertEquals(400, r.statusCode(), r.body());
        assertNoServerPath(r.body());
        r = rest("GET", DS + "/store/download?backup-type=host&backup-id=broken&backup-time=" + T
                + "&file-name=index.json.blob");
        assertNotEquals(200, r.statusCode(), r.body());
        assertNoServerPath(r.body());
    }

    @Test
    void taskLogsAndStatusesCarryNoServerPath() throws Exception {
        HttpResponse<String> r = rest("POST", DS + "/store/verify?backup-type=host&backup-id=mixed&backup-time=" + (T + 60));
        assertEquals(200, r.statusCode(), r.body());
        String upid = DatastoreAdminTest.JSON.readTree(r.body()).get("data").asText();
        String u = java.net.URLEncoder.encode(upid, StandardCharsets.UTF_8);
        String exit = null;
        for (int i = 0; i < 1200 && exit == null; i++) {
            com.fasterxml.jackson.databind.JsonNode st = DatastoreAdminTest.JSON.readTree(
                    rest("GET", "/api2/json/nodes/localhost/tasks/" + u + "/status").body()).get("data");
            if (st.get("status").asText().equals("stopped")) {
                exit = st.get("exitstatus").asText();
            } else {
                Thread.sleep(50);
            }
        }
        assertNotNull(exit, "task ended");
        assertNotEquals("OK", exit);
        assertNoServerPath(exit);
        String log = rest("GET", "/api2/json/nodes/localhost/tasks/" + u + "/log?limit=0").body();
        assertNoServerPath(log);
        assertTrue(log.contains("host/mixed/2023-11-14T22:14:20Z/index.json.blob"), log);
        String list = rest("GET", "/api2/json/nodes/localhost/tasks?limit=0&errors=1").body();
        assertNoServerPath(list);
        assertNoServerPath(rest("GET", "/api2/json/nodes/localhost/tasks/" + u + "/log?download=1").body());
    }

    @Test
    void ioErrorsOfTheProtocolsNameTheObjectNotTheServerPath() throws Exception {
        PbsTestClient.Resp m = refusedUpgrade(PbsTestClient.READER, "/api2/json/reader",
                query("host", "mixed").replace("backup-time=" + T, "backup-time=" + (T + 60)));
        assertEquals(400, m.status(), m.toString());
        assertNoServerPath(m.text());
        assertTrue(m.text().contains("host/mixed/2023-11-14T22:14:20Z/index.json.blob"), m.text());
        PbsTestClient.Resp u = refusedUpgrade(PbsTestClient.READER, "/api2/json/reader", query("host", "broken"));
        assertEquals(400, u.status(), u.toString());
        assertNoServerPath(u.text());
        assertFalse(u.text().isBlank());

        u = refusedUpgrade(PbsTestClient.BACKUP, "/api2/json/backup", query("ct", "100"));
        assertEquals(400, u.status(), u.toString());
        assertNoServerPath(u.text());
        assertEquals("not a directory", Files.readString(root.resolve("ct")), "nothing replaced");
    }

    @Test
    void hidingRules() {
        HiddenPaths.addRoot(root, HiddenPaths.DATASTORE);
        assertEquals("host/a/2023-11-14T22:13:20Z/x.blob: Is a directory",
                HiddenPaths.hide(root + "/host/a/2023-11-14T22:13:20Z/x.blob: Is a directory"));
        assertEquals("datastore path <datastore> is locked", HiddenPaths.hide("datastore path " + root + " is locked"));
        assertEquals("unable to open 'y.tmp_ab12': No space left on device",
                HiddenPaths.hide("unable to open '/var/tmp/x/y.tmp_ab12': No space left on device"));
        assertEquals("owner -> owner.new: Operation not permitted",
                HiddenPaths.hide("/srv/other/owner -> /srv/other/owner.new: Operation not permitted"));
        assertEquals("backup group 'vm/100' has no owner", HiddenPaths.hide("backup group 'vm/100' has no owner"));
        assertEquals("Path '/api2/json/x' not found.", HiddenPaths.hide("Path '/api2/json/x' not found."));
        assertEquals("namespace 'a/b' does not exist", HiddenPaths.hide("namespace 'a/b' does not exist"));
    }
}
