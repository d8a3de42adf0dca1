package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotWriter;
import org.jpbs.datastore.task.WorkerTask;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.api.ApiTestSupport.Client;
import org.jpbs.server.api.ApiTestSupport.Resp;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conformance of the group/snapshot admin calls, the namespace create/delete calls and the task
 * log paging with PBS ({@code src/api2/admin/datastore.rs}, {@code src/api2/admin/namespace.rs},
 * {@code src/api2/node/tasks.rs}), over real HTTPS as the real client sends them: GET/PUT/DELETE
 * parameters in the query string (form content type, empty body), POST parameters as a JSON
 * body, the log upload as an octet-stream body with the snapshot in the query. Each call is
 * checked for status, JSON shape, the files on disk, and the answers per role
 * (DatastoreBackup as owner and on a foreign group, DatastorePowerUser, DatastoreAdmin,
 * DatastoreAudit, DatastoreReader) with PBS's error texts. Needs no shared vectors.
 */
class AdminEndpointsApiTest {
    static final String DS = "/api2/json/admin/datastore/store";
    static final long T = 1_700_000_000L;
    static final String PASSWORD = "backup-pass-1";

    @TempDir
    static Path tmp;
    static JpbsServer server;
    static JpbsRestHandler handler;
    static Client http;
    static Path root;
    /** bk@pbs!t: DatastoreBackup; owns host/tok. */
    static Map<String, String> backup;
    /** pu@pbs!t: DatastorePowerUser; owns host/pown. */
    static Map<String, String> power;
    static Map<String, String> admin;
    static Map<String, String> audit;
    static Map<String, String> reader;

    static void snapshot(Datastore ds, BackupNamespace ns, String id, long time, String owner) throws Exception {
        BackupSnapshotRef ref = new BackupSnapshotRef(new BackupGroupRef(ns, BackupType.HOST, id), time);
        try (SnapshotWriter w = ds.beginSnapshot(ref, owner)) {
            byte[] conf = ("id " + id).getBytes(StandardCharsets.UTF_8);
            w.addBlob("host.conf.blob", DataBlob.encode(conf, 0, conf.length, false));
            w.commit(new BackupManifest(BackupType.HOST, id, time));
        }
    }

    static Map<String, String> token(String id, String secret) {
        return Map.of("Authorization", "PBSAPIToken " + id + ":" + secret);
    }

    @BeforeAll
    static void start() throws Exception {
        root = tmp.resolve("ds");
        Datastore ds = DatastorePool.datastore(root, SyncLevel.NONE);
        BackupNamespace prod = BackupNamespace.parse("prod");
        ds.createNamespace(prod);
        snapshot(ds, BackupNamespace.ROOT, "tok", T, "bk@pbs!t");
        snapshot(ds, BackupNamespace.ROOT, "tok", T + 60, "bk@pbs!t");
        snapshot(ds, BackupNamespace.ROOT, "own", T, "bk@pbs");
        snapshot(ds, BackupNamespace.ROOT, "foreign", T, "other@pbs");
        snapshot(ds, BackupNamespace.ROOT, "pown", T, "pu@pbs!t");
        snapshot(ds, prod, "web", T, "other@pbs");

        Path config = tmp.resolve("config");
        AuthConfig cfg = AuthConfig.open(config);
        cfg.addUser("bk@pbs", PASSWORD, null);
        cfg.addUser("other@pbs", null, null);
        cfg.updateAcl("/datastore/store", "bk@pbs", "DatastoreBackup", true, false);
        backup = token("bk@pbs!t", cfg.createToken("bk@pbs", "t", null));
        cfg.updateAcl("/datastore/store", "bk@pbs!t", "DatastoreBackup", true, false);
        cfg.createToken("bk@pbs", "u", null);
        String[][] roles = {{"pu", "DatastorePowerUser"}, {"ad", "DatastoreAdmin"}, {"au", "DatastoreAudit"},
            {"rd", "DatastoreReader"}};
        List<Map<String, String>> tokens = new ArrayList<>();
        for (String[] r : roles) {
            cfg.addUser(r[0] + "@pbs", null, null);
            cfg.updateAcl("/datastore/store", r[0] + "@pbs", r[1], true, false);
            tokens.add(token(r[0] + "@pbs!t", cfg.createToken(r[0] + "@pbs", "t", null)));
            cfg.updateAcl("/datastore/store", r[0] + "@pbs!t", r[1], true, false);
        }
        power = tokens.get(0);
        admin = tokens.get(1);
        audit = tokens.get(2);
        reader = tokens.get(3);

        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of("store", root), "127.0.0.1", 0);
        handler = JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO);
        server = JpbsServer.start(sc, auth, handler);
        http = new Client(server.port());
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

    // ---- helpers: the real client's parameter placement ------------------------------------

    /** GET/PUT/DELETE: parameters in the query, form content type, empty body. */
    static Resp call(String method, String path, Map<String, String> who) throws Exception {
        return http.send(method, path, who, "");
    }

    static Resp post(String path, Map<String, String> who, String json) throws Exception {
        return http.postJson(path, who, json);
    }

    static String snap(String id) {
        return "backup-type=host&backup-id=" + id + "&backup-time=" + T;
    }

    static String group(String id) {
        return "backup-type=host&backup-id=" + id;
    }

    static Path snapDir(String id) {
        return root.resolve("host").resolve(id).resolve("2023-11-14T22:13:20Z");
    }

    static BackupManifest manifest(String id) throws Exception {
        Path p = snapDir(id).resolve("index.json.blob");
        return BackupManifest.fromBlob(DataBlob.wrap(Files.readAllBytes(p), "m"), "m");
    }

    static void assertError(int status, String text, Resp r) {
        assertEquals(status, r.status(), r.text());
        assertEquals(text, r.text());
    }

    static void assertNullData(Resp r) throws Exception {
        assertEquals(200, r.status(), r.text());
        assertEquals("{\"data\":null}", r.json().toString());
    }

    static final String OWNER_CHECK_TOK = "backup owner check failed (bk@pbs!t != other@pbs)";
    static final String OWNER_CHECK_POWER = "backup owner check failed (pu@pbs!t != other@pbs)";
    static final String MISSING_MODIFY_BACKUP =
            "permission check failed - missing Datastore.Modify|Datastore.Backup on /datastore/store";
    static final String MISSING_AUDIT_BACKUP =
            "permission check failed - missing Datastore.Audit|Datastore.Backup on /datastore/store";

    // ---- task log ---------------------------------------------------------------------------

    static JsonNode log(String upid, String query) throws Exception {
        Resp r = http.get("/api2/json/nodes/localhost/tasks/" + URLEncoder.encode(upid, StandardCharsets.UTF_8)
                + "/log" + query, admin);
        assertEquals(200, r.status(), r.text());
        return r.json();
    }

    static List<Integer> numbers(JsonNode page) {
        List<Integer> out = new ArrayList<>();
        page.get("data").forEach(n -> out.add(n.get("n").asInt()));
        return out;
    }

    @Test
    void taskLogIsNumberedFromOneAndStartIsTheFirstLineNumber() throws Exception {
        WorkerTask t = handler.services().tasks().begin("testlog", "store", "ad@pbs!t");
        for (int i = 1; i <= 5; i++) {
            t.log("line " + i);
        }
        String upid = t.upid().toString();
        // what proxmox-backup-client sends when following a task: start=1, limit=500, test-status
        JsonNode p = log(upid, "?start=1&limit=500&test-status=true");
        assertEquals(List.of(1, 2, 3, 4, 5), numbers(p));
        assertTrue(p.at("/data/0/t").asText().endsWith(": line 1"), p.toString());
        assertEquals(5, p.get("total").asInt());
        assertTrue(p.get("active").asBoolean(), "running");
        assertEquals(List.of(1, 2, 3, 4, 5), numbers(log(upid, "?start=0&limit=500")), "start=0 is the first line too");
        JsonNode from2 = log(upid, "?start=2&limit=500");
        assertEquals(List.of(2, 3, 4, 5), numbers(from2));
        assertTrue(from2.at("/data/0/t").asText().endsWith(": line 2"));
        assertEquals(List.of(2, 3), numbers(log(upid, "?start=2&limit=2")));
        assertEquals(List.of(1, 2, 3, 4, 5), numbers(log(upid, "?limit=0")), "limit=0 is all lines");
        JsonNode past = log(upid, "?start=6&test-status=1");
        assertEquals(List.of(), numbers(past));
        assertEquals(5, past.get("total").asInt());
        assertFalse(log(upid, "").has("active"), "active only with test-status");

        t.finish((Throwable) null);
        JsonNode end = log(upid, "?start=6&limit=500&test-status=true");
        assertEquals(List.of(6), numbers(end));
        assertTrue(end.at("/data/0/t").asText().endsWith("TASK OK"), end.toString());
        assertEquals(6, end.get("total").asInt());
        assertFalse(end.get("active").asBoolean());

        WorkerTask more = handler.services().tasks().begin("testlog2", null, "ad@pbs!t");
        for (int k = 0; k < 60; k++) {
            more.log("x" + k);
        }
        JsonNode d = log(more.upid().toString(), "");
        assertEquals(50, d.get("data").size(), "default limit 50");
        assertEquals(60, d.get("total").asInt());
        assertEquals(1, d.at("/data/0/n").asInt());
        more.finish((Throwable) null);
    }

    // ---- snapshot notes ---------------------------------------------------------------------

    @Test
    void snapshotNotesAreTheManifestsUnprotectedNotes() throws Exception {
        Resp r = call("GET", DS + "/notes?" + snap("tok"), backup);
        assertEquals(200, r.status(), r.text());
        assertEquals("{\"data\":\"\"}", r.json().toString(), "no notes: empty string");
        String text = "first line\nsecond line äö";
        assertNullData(call("PUT", DS + "/notes?" + snap("tok") + "&notes=" + URLEncoder.encode(text, StandardCharsets.UTF_8),
                backup));
        assertEquals(text, manifest("tok").unprotected().get("notes").asText(), "written into the manifest");
        assertEquals(text, call("GET", DS + "/notes?" + snap("tok"), backup).json().get("data").asText());
        JsonNode list = call("GET", DS + "/snapshots?backup-type=host&backup-id=tok", audit).json().get("data");
        assertEquals("first line", list.get(0).get("comment").asText(), "listed as the comment (first line)");

        // privileges: read Audit or Backup as owner, write Modify or Backup as owner
        assertEquals(200, call("GET", DS + "/notes?" + snap("foreign"), audit).status());
        assertEquals(200, call("GET", DS + "/notes?" + snap("foreign"), reader).status());
        assertEquals(200, call("GET", DS + "/notes?" + snap("foreign"), admin).status());
        assertError(400, OWNER_CHECK_TOK, call("GET", DS + "/notes?" + snap("foreign"), backup));
        assertError(400, OWNER_CHECK_POWER, call("GET", DS + "/notes?" + snap("foreign"), power));
        assertNullData(call("PUT", DS + "/notes?" + snap("foreign") + "&notes=admin", admin));
        assertEquals("admin", manifest("foreign").unprotected().get("notes").asText());
        assertError(400, OWNER_CHECK_TOK, call("PUT", DS + "/notes?" + snap("foreign") + "&notes=x", backup));
        assertError(400, OWNER_CHECK_POWER, call("PUT", DS + "/notes?" + snap("foreign") + "&notes=x", power));
        assertError(403, MISSING_MODIFY_BACKUP, call("PUT", DS + "/notes?" + snap("foreign") + "&notes=x", audit));
        assertError(403, MISSING_MODIFY_BACKUP, call("PUT", DS + "/notes?" + snap("foreign") + "&notes=x", reader));
        assertEquals("admin", manifest("foreign").unprotected().get("notes").asText(), "refusals changed nothing");

        // bad input
        assertError(400, "parameter verification failed - 'notes': parameter is missing and it is not optional.",
                call("PUT", DS + "/notes?" + snap("tok"), backup));
        assertError(400, "parameter verification failed - 'backup-time': parameter is missing and it is not optional.",
                call("GET", DS + "/notes?" + group("tok"), backup));
        assertError(400, "parameter verification failed - 'color': schema does not allow additional properties.",
                call("GET", DS + "/notes?" + snap("tok") + "&color=red", backup));
        assertError(400, "snapshot host/tok/2023-11-14T22:30:00Z does not exist",
                call("GET", DS + "/notes?backup-type=host&backup-id=tok&backup-time=" + (T + 1000), admin));
        // a JSON body works for PUT too (PBS accepts both placements)
        Resp j = http.sendBytes("PUT", DS + "/notes", admin, "application/json",
                ("{\"backup-type\":\"host\",\"backup-id\":\"pown\",\"backup-time\":" + T + ",\"notes\":\"json\"}")
                        .getBytes(StandardCharsets.UTF_8));
        assertNullData(j);
        assertEquals("json", manifest("pown").unprotected().get("notes").asText());
    }

    /**
     * PBS reads a form or JSON parameter body only below 512 KiB (400 "Request body too large");
     * jpbs took 16 MiB, so a Backup user could put megabytes of notes into every manifest and
     * group. Notes just below the limit are stored, over it nothing changes.
     */
    @Test
    void notesBodiesAreLimitedAsInPbs() throws Exception {
        String ok = "n".repeat(500 * 1024);
        assertNullData(http.send("PUT", DS + "/notes?" + snap("tok"), backup, "notes=" + ok));
        assertEquals(ok, manifest("tok").unprotected().get("notes").asText());
        String big = "b".repeat(600 * 1024);
        assertError(400, "Request body too large", http.send("PUT", DS + "/notes?" + snap("tok"), backup, "notes=" + big));
        assertError(400, "Request body too large", http.sendBytes("PUT", DS + "/notes", backup, "application/json",
                ("{\"backup-type\":\"host\",\"backup-id\":\"tok\",\"backup-time\":" + T + ",\"notes\":\"" + big + "\"}")
                        .getBytes(StandardCharsets.UTF_8)));
        assertError(400, "Request body too large",
                http.send("PUT", DS + "/group-notes?" + group("tok"), backup, "notes=" + big));
        assertEquals(ok, manifest("tok").unprotected().get("notes").asText(), "refused bodies changed nothing");
        assertNullData(http.send("PUT", DS + "/notes?" + snap("tok"), backup, "notes="));
    }

    /** A form body with raw bytes {@code prefix + bad + suffix} (ASCII prefix/suffix). */
    static byte[] form(String prefix, byte[] bad, String suffix) {
        byte[] a = prefix.getBytes(StandardCharsets.US_ASCII);
        byte[] c = suffix.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[a.length + bad.length + c.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(bad, 0, out, a.length, bad.length);
        System.arraycopy(c, 0, out, a.length + bad.length, c.length);
        return out;
    }

    /**
     * PBS's REST server refuses a parameter body that is not UTF-8 before parsing it, with 400
     * {@code "Request body not uft8: <Rust Utf8Error>"} (its spelling); jpbs stored such notes
     * with replacement characters. Form and JSON bodies, notes and group notes unchanged.
     */
    @Test
    void bodiesThatAreNotUtf8AreRefusedAsInPbs() throws Exception {
        String before = manifest("own").unprotected().path("notes").asText("");
        Path groupNotes = root.resolve("host/own/notes");
        boolean hadGroupNotes = Files.exists(groupNotes);
        String form = "application/x-www-form-urlencoded";
        assertError(400, "Request body not uft8: invalid utf-8 sequence of 1 bytes from index 8",
                http.sendBytes("PUT", DS + "/notes?" + snap("own"), admin, form,
                        form("notes=ab", new byte[] {(byte) 0xFF}, "cd")));
        assertError(400, "Request body not uft8: invalid utf-8 sequence of 1 bytes from index 6",
                http.sendBytes("PUT", DS + "/notes?" + snap("own"), backup, form,
                        form("notes=", new byte[] {(byte) 0xE9}, "t"))); // Latin-1 e-acute, before the privilege check
        assertError(400, "Request body not uft8: incomplete utf-8 byte sequence from index 6",
                http.sendBytes("PUT", DS + "/group-notes?" + group("own"), admin, form,
                        form("notes=", new byte[] {(byte) 0xE2, (byte) 0x82}, "")));
        String json = "{\"backup-type\":\"host\",\"backup-id\":\"own\",\"backup-time\":" + T + ",\"notes\":\"";
        assertError(400, "Request body not uft8: invalid utf-8 sequence of 3 bytes from index " + json.length(),
                http.sendBytes("PUT", DS + "/notes", admin, "application/json",
                        form(json, new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, 'x'}, "\"}")));
        // the POST of the real client (JSON body) is checked the same way
        assertError(400, "Request body not uft8: invalid utf-8 sequence of 1 bytes from index 59",
                http.sendBytes("POST", DS + "/change-owner", admin, "application/json",
                        form("{\"backup-type\":\"host\",\"backup-id\":\"own\",\"new-owner\":\"bk@pbs", new byte[] {(byte) 0xC0},
                                "\"}")));
        assertEquals("bk@pbs", Files.readString(root.resolve("host/own/owner")).strip());
        assertEquals(before, manifest("own").unprotected().path("notes").asText(""), "notes unchanged");
        assertEquals(hadGroupNotes, Files.exists(groupNotes), "group notes unchanged");
        // valid UTF-8 (raw or percent-encoded) is still taken as it is
        String text = "caf\u00e9 \u20ac \ud83d\ude00";
        assertNullData(http.sendBytes("PUT", DS + "/notes?" + snap("own"), admin, form,
                ("notes=" + text).getBytes(StandardCharsets.UTF_8)));
        assertEquals(text, manifest("own").unprotected().get("notes").asText());
        assertNullData(http.send("PUT", DS + "/notes?" + snap("own"), admin,
                "notes=" + URLEncoder.encode(before, StandardCharsets.UTF_8)));
    }

    // ---- group notes ------------------------------------------------------------------------

    @Test
    void groupNotesAreTheNotesFileOfTheGroup() throws Exception {
        Path notes = root.resolve("host/tok/notes");
        assertEquals("{\"data\":\"\"}", call("GET", DS + "/group-notes?" + group("tok"), backup).json().toString());
        assertNullData(call("PUT", DS + "/group-notes?" + group("tok") + "&notes=" + URLEncoder.encode("web\nserver",
                StandardCharsets.UTF_8), backup));
        assertEquals("web\nserver", Files.readString(notes), "the notes file, exactly the text");
        assertEquals("web\nserver", call("GET", DS + "/group-notes?" + group("tok"), backup).json().get("data").asText());
        JsonNode groups = call("GET", DS + "/groups", audit).json().get("data");
        String comment = null;
        for (JsonNode g : groups) {
            if (g.get("backup-id").asText().equals("tok")) {
                comment = g.get("comment").asText();
            }
        }
        assertEquals("web", comment, "listed as the group comment (first line)");

        assertEquals(200, call("GET", DS + "/group-notes?" + group("foreign"), audit).status());
        assertEquals(200, call("GET", DS + "/group-notes?" + group("foreign"), reader).status());
        assertError(400, OWNER_CHECK_TOK, call("GET", DS + "/group-notes?" + group("foreign"), backup));
        assertError(400, OWNER_CHECK_POWER, call("GET", DS + "/group-notes?" + group("foreign"), power));
        assertNullData(call("PUT", DS + "/group-notes?" + group("foreign") + "&notes=by-admin", admin));
        assertEquals("by-admin", Files.readString(root.resolve("host/foreign/notes")));
        assertError(400, OWNER_CHECK_TOK, call("PUT", DS + "/group-notes?" + group("foreign") + "&notes=x", backup));
        assertError(400, OWNER_CHECK_POWER, call("PUT", DS + "/group-notes?" + group("foreign") + "&notes=x", power));
        assertError(403, MISSING_MODIFY_BACKUP, call("PUT", DS + "/group-notes?" + group("foreign") + "&notes=x", audit));
        assertError(403, MISSING_MODIFY_BACKUP, call("PUT", DS + "/group-notes?" + group("foreign") + "&notes=x", reader));
        assertEquals("by-admin", Files.readString(root.resolve("host/foreign/notes")));
        // namespaced group: ns in the query
        assertNullData(call("PUT", DS + "/group-notes?ns=prod&" + group("web") + "&notes=prod-web", admin));
        assertEquals("prod-web", Files.readString(root.resolve("ns/prod/host/web/notes")));
        assertError(400, "backup group 'host/nosuch' does not exist",
                call("PUT", DS + "/group-notes?" + group("nosuch") + "&notes=x", admin));
        assertFalse(Files.exists(root.resolve("host/nosuch")));
    }

    // ---- protected --------------------------------------------------------------------------

    @Test
    void protectedIsTheProtectedMarkerFile() throws Exception {
        Path marker = snapDir("tok").resolve(".protected");
        assertEquals("{\"data\":false}", call("GET", DS + "/protected?" + snap("tok"), backup).json().toString());
        assertNullData(call("PUT", DS + "/protected?" + snap("tok") + "&protected=true", backup));
        assertTrue(Files.isRegularFile(marker));
        assertEquals(0, Files.size(marker));
        assertEquals("{\"data\":true}", call("GET", DS + "/protected?" + snap("tok"), backup).json().toString());
        assertError(400, "cannot remove protected snapshot",
                call("DELETE", DS + "/snapshots?" + snap("tok"), admin));
        assertNullData(call("PUT", DS + "/protected?" + snap("tok") + "&protected=0", backup));
        assertFalse(Files.exists(marker));

        assertEquals("{\"data\":false}", call("GET", DS + "/protected?" + snap("foreign"), audit).json().toString());
        assertEquals(200, call("GET", DS + "/protected?" + snap("foreign"), reader).status());
        assertError(400, OWNER_CHECK_TOK, call("GET", DS + "/protected?" + snap("foreign"), backup));
        assertError(400, OWNER_CHECK_TOK, call("PUT", DS + "/protected?" + snap("foreign") + "&protected=1", backup));
        assertError(400, OWNER_CHECK_POWER, call("PUT", DS + "/protected?" + snap("foreign") + "&protected=1", power));
        assertError(403, MISSING_MODIFY_BACKUP, call("PUT", DS + "/protected?" + snap("foreign") + "&protected=1", audit));
        assertError(403, MISSING_MODIFY_BACKUP, call("PUT", DS + "/protected?" + snap("foreign") + "&protected=1", reader));
        assertFalse(Files.exists(snapDir("foreign").resolve(".protected")));
        assertNullData(call("PUT", DS + "/protected?" + snap("foreign") + "&protected=1", admin));
        assertTrue(Files.exists(snapDir("foreign").resolve(".protected")));
        assertNullData(call("PUT", DS + "/protected?" + snap("foreign") + "&protected=false", admin));

        assertError(400, "parameter verification failed - 'protected': parameter is missing and it is not optional.",
                call("PUT", DS + "/protected?" + snap("tok"), backup));
        assertError(400, "parameter verification failed - 'protected': Unable to parse boolean option.",
                call("PUT", DS + "/protected?" + snap("tok") + "&protected=maybe", backup));
        assertError(400, "parameter verification failed - 'backup-type': value 'pc' is not defined in the enumeration.",
                call("GET", DS + "/protected?backup-type=pc&backup-id=tok&backup-time=" + T, backup));
    }

    // ---- change-owner -----------------------------------------------------------------------

    static Map<String, String> login(String user, String password) throws Exception {
        Resp r = http.send("POST", "/api2/json/access/ticket", Map.of(), "username=" + URLEncoder.encode(user,
                StandardCharsets.UTF_8) + "&password=" + URLEncoder.encode(password, StandardCharsets.UTF_8));
        assertEquals(200, r.status(), r.text());
        Map<String, String> h = new TreeMap<>();
        h.put("Cookie", "PBSAuthCookie=" + URLEncoder.encode(r.json().at("/data/ticket").asText(), StandardCharsets.UTF_8));
        h.put("CSRFPreventionToken", r.json().at("/data/CSRFPreventionToken").asText());
        return h;
    }

    static String owner(String id) throws Exception {
        return Files.readString(root.resolve("host").resolve(id).resolve("owner"));
    }

    static String changeOwner(String id, String newOwner) {
        return "{\"backup-type\":\"host\",\"backup-id\":\"" + id + "\",\"new-owner\":\"" + newOwner + "\"}";
    }

    @Test
    void changeOwnerRewritesTheOwnerFile() throws Exception {
        Map<String, String> user = login("bk@pbs", PASSWORD);
        // Datastore.Backup: a user may hand its group to its own token and back
        assertNullData(post(DS + "/change-owner", user, changeOwner("own", "bk@pbs!u")));
        assertEquals("bk@pbs!u\n", owner("own"));
        assertNullData(post(DS + "/change-owner", user, changeOwner("own", "bk@pbs")));
        assertEquals("bk@pbs\n", owner("own"));
        // ... but not to another user, nor take a foreign group
        assertError(401, "bk@pbs does not have permission to change owner of backup group 'host/own' to other@pbs",
                post(DS + "/change-owner", user, changeOwner("own", "other@pbs")));
        assertError(401, "bk@pbs does not have permission to change owner of backup group 'host/foreign' to bk@pbs",
                post(DS + "/change-owner", user, changeOwner("foreign", "bk@pbs")));
        // a token with Datastore.Backup may not move its group to a sibling token (only the user may)
        assertError(401, "bk@pbs!t does not have permission to change owner of backup group 'host/tok' to bk@pbs!u",
                post(DS + "/change-owner", backup, changeOwner("tok", "bk@pbs!u")));
        assertError(401, "pu@pbs!t does not have permission to change owner of backup group 'host/foreign' to pu@pbs",
                post(DS + "/change-owner", power, changeOwner("foreign", "pu@pbs")));
        assertError(403, MISSING_MODIFY_BACKUP, post(DS + "/change-owner", audit, changeOwner("foreign", "au@pbs")));
        assertError(403, MISSING_MODIFY_BACKUP, post(DS + "/change-owner", reader, changeOwner("foreign", "rd@pbs")));
        assertEquals("other@pbs\n", owner("foreign"));
        assertEquals("bk@pbs!t\n", owner("tok"));

        // Datastore.Modify: any change, to an active user or token
        assertError(400, "user 'nobody@pbs' is inactive or non-existent",
                post(DS + "/change-owner", admin, changeOwner("foreign", "nobody@pbs")));
        assertError(400, "API token 'other@pbs!none' is inactive or non-existent",
                post(DS + "/change-owner", admin, changeOwner("foreign", "other@pbs!none")));
        assertNullData(post(DS + "/change-owner", admin, changeOwner("foreign", "bk@pbs")));
        assertEquals("bk@pbs\n", owner("foreign"));
        assertEquals(200, call("GET", DS + "/notes?" + snap("foreign"), user).status(), "the new owner may read it");
        assertNullData(post(DS + "/change-owner", admin, changeOwner("foreign", "other@pbs")));
        assertEquals("other@pbs\n", owner("foreign"));

        assertError(400, "parameter verification failed - 'new-owner': parameter is missing and it is not optional.",
                post(DS + "/change-owner", admin, "{\"backup-type\":\"host\",\"backup-id\":\"foreign\"}"));
        assertError(400, "parameter verification failed - 'new-owner': value does not match the regex pattern",
                post(DS + "/change-owner", admin, changeOwner("foreign", "no-realm")));
        assertError(400, "backup group 'host/nosuch' does not exist",
                post(DS + "/change-owner", admin, changeOwner("nosuch", "bk@pbs")));
    }

    /**
     * PBS's Authid schema limits {@code new-owner} to 3..64 characters and checks that before the
     * pattern and before any privilege: every role gets the same 400 (jpbs answered "value does
     * not match the regex pattern" for a too long but well-formed id). The limit counts
     * characters, not bytes. The owner file stays as it was.
     */
    @Test
    void changeOwnerNewOwnerLengthAsPbsAuthidSchema() throws Exception {
        String before = owner("own");
        String long65 = "u".repeat(57) + "@pbs!tok"; // 65 characters, well-formed
        assertEquals(65, long65.length());
        for (Map<String, String> who : List.of(backup, power, admin, audit, reader)) {
            assertError(400, "parameter verification failed - 'new-owner': value may only be 64 characters long",
                    post(DS + "/change-owner", who, changeOwner("own", long65)));
            assertError(400, "parameter verification failed - 'new-owner': value must be at least 3 characters long",
                    post(DS + "/change-owner", who, changeOwner("own", "a@")));
        }
        // 64 characters pass the length check (then: no such user); so do 64 non-ASCII characters
        String ok64 = "u".repeat(56) + "@pbs!tok";
        assertError(400, "API token '" + ok64 + "' is inactive or non-existent",
                post(DS + "/change-owner", admin, changeOwner("own", ok64)));
        String wide64 = "\u00e9".repeat(60) + "@pbs";
        assertError(400, "user '" + wide64 + "' is inactive or non-existent",
                post(DS + "/change-owner", admin, changeOwner("own", wide64)));
        assertEquals(before, owner("own"));
    }

    /**
     * A group whose owner file is lost: with Datastore.Modify change-owner sets a new owner
     * without reading the old one (PBS), which is how an admin gives such a group back (jpbs
     * answered "does not exist"); with only Datastore.Backup the owner check fails.
     */
    @Test
    void changeOwnerRepairsAGroupWithoutOwner() throws Exception {
        Datastore ds = Datastore.open(root);
        snapshot(ds, BackupNamespace.ROOT, "lost", T, "other@pbs");
        Files.delete(root.resolve("host/lost/owner"));
        assertError(400, "backup group 'host/lost' does not exist",
                post(DS + "/change-owner", backup, changeOwner("lost", "bk@pbs!t")));
        assertFalse(Files.exists(root.resolve("host/lost/owner")));
        assertNullData(post(DS + "/change-owner", admin, changeOwner("lost", "other@pbs")));
        assertEquals("other@pbs\n", owner("lost"));
        try (var walk = Files.walk(root.resolve("host/lost"))) { // the other tests list the groups
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    // ---- upload-backup-log ------------------------------------------------------------------

    @Test
    void uploadBackupLogStoresClientLogBlob() throws Exception {
        byte[] log = "backup started\nbackup finished\n".repeat(20).getBytes(StandardCharsets.UTF_8);
        byte[] blob = DataBlob.encode(log, 0, log.length, true).raw();
        Path file = snapDir("tok").resolve("client.log.blob");
        List<String> manifestFiles = manifest("tok").files().stream().map(f -> f.filename()).toList();

        Resp r = http.sendBytes("POST", DS + "/upload-backup-log?" + snap("tok"), backup, "application/octet-stream", blob);
        assertNullData(r);
        assertArrayEquals(blob, Files.readAllBytes(file), "stored as sent");
        assertEquals(manifestFiles, manifest("tok").files().stream().map(f -> f.filename()).toList(),
                "not added to the manifest");
        assertError(400, "backup already contains a log.",
                http.sendBytes("POST", DS + "/upload-backup-log?" + snap("tok"), backup, "application/octet-stream", blob));
        assertArrayEquals(blob, Files.readAllBytes(file));
        // listed by files and snapshots, without size and crypt-mode (not in the manifest)
        JsonNode files = call("GET", DS + "/files?" + snap("tok"), backup).json().get("data");
        assertTrue(files.toString().contains("{\"filename\":\"client.log.blob\"}"), files.toString());
        JsonNode snaps = call("GET", DS + "/snapshots?backup-type=host&backup-id=tok", backup).json().get("data");
        assertTrue(snaps.get(0).get("files").toString().contains("\"filename\":\"client.log.blob\""), snaps.toString());

        // only the owner, whatever the role
        String q = DS + "/upload-backup-log?" + snap("foreign");
        assertError(400, OWNER_CHECK_TOK, http.sendBytes("POST", q, backup, "application/octet-stream", blob));
        assertError(400, OWNER_CHECK_POWER, http.sendBytes("POST", q, power, "application/octet-stream", blob));
        assertError(400, "backup owner check failed (ad@pbs!t != other@pbs)",
                http.sendBytes("POST", q, admin, "application/octet-stream", blob));
        assertError(403, "permission check failed - missing Datastore.Backup on /datastore/store",
                http.sendBytes("POST", q, audit, "application/octet-stream", blob));
        assertError(403, "permission check failed - missing Datastore.Backup on /datastore/store",
                http.sendBytes("POST", q, reader, "application/octet-stream", blob));
        assertFalse(Files.exists(snapDir("foreign").resolve("client.log.blob")));

        // the blob is checked
        String pq = DS + "/upload-backup-log?" + snap("pown");
        byte[] bad = blob.clone();
        bad[bad.length - 1] ^= 1;
        assertError(400, "Data blob has wrong CRC checksum.", http.sendBytes("POST", pq, power, "application/octet-stream", bad));
        byte[] noMagic = blob.clone();
        noMagic[0] ^= 1;
        assertError(400, "unable to parse raw blob - wrong magic",
                http.sendBytes("POST", pq, power, "application/octet-stream", noMagic));
        assertError(400, "blob too small (3 bytes).",
                http.sendBytes("POST", pq, power, "application/octet-stream", new byte[3]));
        assertFalse(Files.exists(snapDir("pown").resolve("client.log.blob")), "nothing written on a refusal");
        try (var s = Files.list(snapDir("pown"))) {
            assertEquals(List.of(), s.map(p -> p.getFileName().toString()).filter(n -> n.contains("tmp")).toList());
        }
        assertNullData(http.sendBytes("POST", pq, power, "application/octet-stream", blob));
        assertArrayEquals(blob, Files.readAllBytes(snapDir("pown").resolve("client.log.blob")));

        // an encrypted log (the client encrypts it with the backup's key): stored as sent, the CRC checked
        byte[] key = new byte[32];
        java.util.Arrays.fill(key, (byte) 7);
        byte[] enc = DataBlob.encodeEncrypted(log, 0, log.length, true, org.jpbs.core.crypto.CryptConfig.of(key)).raw();
        String later = DS + "/upload-backup-log?backup-type=host&backup-id=tok&backup-time=" + (T + 60);
        byte[] encBad = enc.clone();
        encBad[encBad.length - 1] ^= 1;
        assertError(400, "Data blob has wrong CRC checksum.",
                http.sendBytes("POST", later, backup, "application/octet-stream", encBad));
        assertNullData(http.sendBytes("POST", later, backup, "application/octet-stream", enc));
        assertArrayEquals(enc, Files.readAllBytes(root.resolve("host/tok/2023-11-14T22:14:20Z/client.log.blob")));
    }

    // ---- namespaces -------------------------------------------------------------------------

    static List<String> namespaces(String query) throws Exception {
        List<String> out = new ArrayList<>();
        call("GET", DS + "/namespace" + query, admin).json().get("data").forEach(n -> out.add(n.get("ns").asText()));
        return out;
    }

    @Test
    void namespaceCreateAndDelete() throws Exception {
        Resp r = post(DS + "/namespace", admin, "{\"parent\":\"\",\"name\":\"dev\"}");
        assertEquals(200, r.status(), r.text());
        assertEquals("{\"data\":\"dev\"}", r.json().toString());
        assertTrue(Files.isDirectory(root.resolve("ns/dev")));
        r = post(DS + "/namespace", admin, "{\"parent\":\"dev\",\"name\":\"web\"}");
        assertEquals("{\"data\":\"dev/web\"}", r.json().toString());
        assertTrue(Files.isDirectory(root.resolve("ns/dev/ns/web")));
        assertEquals("{\"data\":\"dev/web\"}", post(DS + "/namespace", admin, "{\"parent\":\"dev\",\"name\":\"web\"}")
                .json().toString(), "an existing namespace is fine");
        assertTrue(namespaces("").containsAll(List.of("", "dev", "dev/web", "prod")), namespaces("").toString());
        assertEquals(List.of("dev", "dev/web"), namespaces("?parent=dev"));
        assertEquals(List.of("dev"), namespaces("?parent=dev&max-depth=0"));

        assertError(400, "cannot create new namespace, parent nosuch doesn't already exists",
                post(DS + "/namespace", admin, "{\"parent\":\"nosuch\",\"name\":\"x\"}"));
        assertError(400, "parameter verification failed - 'name': value does not match the regex pattern",
                post(DS + "/namespace", admin, "{\"name\":\"a/b\"}"));
        assertError(400, "parameter verification failed - 'name': value may only be 32 characters long",
                post(DS + "/namespace", admin, "{\"name\":\"" + "n".repeat(33) + "\"}"));
        assertError(400, "parameter verification failed - 'name': parameter is missing and it is not optional.",
                post(DS + "/namespace", admin, "{\"parent\":\"dev\"}"));
        String deep = "a/b/c/d/e/f/g";
        Datastore.open(root).createNamespace(BackupNamespace.parse(deep));
        assertError(400, "namespace to deep, 8 > max 7",
                post(DS + "/namespace", admin, "{\"parent\":\"" + deep + "\",\"name\":\"h\"}"));
        for (Map<String, String> who : List.of(backup, power, audit, reader)) {
            assertError(403, "permission check failed - missing Datastore.Modify on /datastore/store",
                    post(DS + "/namespace", who, "{\"name\":\"nope\"}"));
            assertError(403, "permission check failed - missing Datastore.Modify on /datastore/store",
                    call("DELETE", DS + "/namespace?ns=dev", who));
        }
        assertFalse(Files.exists(root.resolve("ns/nope")));
        assertTrue(Files.isDirectory(root.resolve("ns/dev/ns/web")));

        // a namespace with a group is removed only with delete-groups, protected snapshots stay
        Datastore ds = Datastore.open(root);
        BackupNamespace devWeb = BackupNamespace.parse("dev/web");
        snapshot(ds, devWeb, "app", T, "ad@pbs!t");
        snapshot(ds, devWeb, "app", T + 60, "ad@pbs!t");
        snapshot(ds, devWeb, "keep", T, "ad@pbs!t");
        ds.setProtected(new BackupSnapshotRef(new BackupGroupRef(devWeb, BackupType.HOST, "keep"), T), true);
        assertError(400, "only partially deleted due to existing groups but `delete-groups` not true ",
                call("DELETE", DS + "/namespace?ns=dev", admin));
        assertTrue(Files.isDirectory(root.resolve("ns/dev/ns/web/host/app/2023-11-14T22:13:20Z")), "nothing removed");
        assertError(400, "group only partially deleted due to protected snapshots",
                call("DELETE", DS + "/namespace?ns=dev&delete-groups=true", admin));
        assertFalse(Files.exists(root.resolve("ns/dev/ns/web/host/app")), "unprotected group removed");
        assertTrue(Files.exists(root.resolve("ns/dev/ns/web/host/keep/2023-11-14T22:13:20Z/.protected")));
        ds.setProtected(new BackupSnapshotRef(new BackupGroupRef(devWeb, BackupType.HOST, "keep"), T), false);
        assertNullData(call("DELETE", DS + "/namespace?ns=dev&delete-groups=1", admin));
        assertFalse(Files.exists(root.resolve("ns/dev")));
        assertTrue(Files.isDirectory(root.resolve("ns/prod/host/web")), "other namespaces untouched");

        // an empty namespace goes without delete-groups
        post(DS + "/namespace", admin, "{\"name\":\"tmp\"}");
        assertNullData(call("DELETE", DS + "/namespace?ns=tmp", admin));
        assertFalse(Files.exists(root.resolve("ns/tmp")));
        assertError(400, "namespace 'tmp' does not exist", call("DELETE", DS + "/namespace?ns=tmp", admin));
        assertError(400, "parameter verification failed - 'ns': parameter is missing and it is not optional.",
                call("DELETE", DS + "/namespace", admin));
        // PBS check_ns_modification_privs: the root is refused before any privilege check
        assertError(400, "Cannot create/delete root namespace!", call("DELETE", DS + "/namespace?ns=", admin));
        assertError(400, "Cannot create/delete root namespace!", call("DELETE", DS + "/namespace?ns=", backup));
    }
}
