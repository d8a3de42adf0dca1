package org.jpbs.server.api;

import static org.jpbs.server.api.ApiTestSupport.assertSameShape;
import static org.jpbs.server.api.ApiTestSupport.assertShape;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.FileVisitResult;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.api.ApiTestSupport.Client;
import org.jpbs.server.api.ApiTestSupport.Resp;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.AuthState;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.auth.PasswordHash;
import org.jpbs.core.testing.SharedVectors;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REST API over HTTPS against the datastore a real PBS 3.1.2 wrote, compared with what that
 * PBS answered ({@code vectors/real-pbs/api/}, README there): status codes, JSON shapes (and,
 * where the data is the same, values) and error texts. The users and ACLs are PBS's own
 * {@code user.cfg} and {@code acl.cfg} ({@code bench@pbs!t1} with DatastoreAdmin on golden and
 * store1); only the token secret and a password are set by the test.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealPbsApiTest {
    static final String ADMIN = "bench@pbs!t1";
    static final String ADMIN_SECRET = "0b3e1b8e-2f4c-4a8e-9d57-3c1f5e2a6b7d";
    static final String PASSWORD = "bench-password";
    static final String SNAP_T1 = "backup-type=vm&backup-id=100&backup-time=1700000000";
    static final String SNAP_T2 = "backup-type=vm&backup-id=100&backup-time=1700003600";
    static final String DS = "/api2/json/admin/datastore";

    @TempDir
    static Path tmp;
    static Path api;
    static Path golden;
    static JpbsServer server;
    static Client http;
    static String auditSecret;

    @BeforeAll
    static void start() throws Exception {
        Path shared = SharedVectors.require("vectors/real-pbs");
        api = shared.resolve("api");
        Process p = new ProcessBuilder("tar", "-xzf", shared.resolve("datastore.tar.gz").toString(), "--no-same-owner",
                "-C", tmp.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "tar failed: " + out);
        golden = tmp.resolve("golden-ds");
        Path store1 = tmp.resolve("store1");
        DatastorePool.create(store1, SyncLevel.NONE);
        Files.copy(golden.resolve(".gc-status"), store1.resolve(".gc-status")); // as if GC had run there too

        Path config = tmp.resolve("config");
        Files.createDirectories(config);
        Files.copy(shared.resolve("config/user.cfg"), config.resolve("user.cfg"));
        Files.copy(shared.resolve("config/acl.cfg"), config.resolve("acl.cfg"));
        Files.writeString(config.resolve(AuthState.TOKEN_SHADOW), "{\"" + ADMIN + "\": \""
                + PasswordHash.hash(ADMIN_SECRET, PasswordHash.TOKEN_ITERATIONS) + "\"}\n");
        AuthConfig cfg = AuthConfig.open(config);
        cfg.setPassword("bench@pbs", PASSWORD);
        cfg.addUser("audit@pbs", null, "can only look");
        auditSecret = cfg.createToken("audit@pbs", "t", null);
        cfg.updateAcl("/datastore/golden", "audit@pbs", "DatastoreAudit", true, false);
        cfg.updateAcl("/datastore/golden", "audit@pbs!t", "DatastoreAudit", true, false);

        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of("golden", golden, "store1", store1), "127.0.0.1", 0);
        server = JpbsServer.start(sc, auth,
                JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO));
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

    static Map<String, String> token(String id, String secret) {
        return Map.of("Authorization", "PBSAPIToken " + id + ":" + secret);
    }

    static Map<String, String> admin() {
        return token(ADMIN, ADMIN_SECRET);
    }

    static Map<String, String> auditor() {
        return Map.of("Authorization", "PBSAPIToken=audit@pbs!t:" + auditSecret);
    }

    static int goldenStatus(String name) throws Exception {
        return Integer.parseInt(Files.readString(api.resolve(name + ".status")).strip());
    }

    static String goldenText(String name) throws Exception {
        return Files.readString(api.resolve(name + ".body"));
    }

    static JsonNode goldenJson(String name) throws Exception {
        return ApiTestSupport.JSON.readTree(api.resolve(name + ".body").toFile());
    }

    static String goldenContentType(String name) throws Exception {
        for (String line : Files.readAllLines(api.resolve(name + ".headers"))) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-type:")) {
                return line.substring("content-type:".length()).strip();
            }
        }
        return null;
    }

    /** Status and content type as PBS answered {@code name}. */
    static void assertStatusAndType(String name, Resp r) throws Exception {
        assertEquals(goldenStatus(name), r.status(), name + ": " + r.text());
        assertEquals(goldenContentType(name), r.contentType(), name + ": content type");
    }

    /** Every file below the datastore root (without .chunks) with its size. */
    static Map<String, Long> tree() throws Exception {
        Map<String, Long> m = new TreeMap<>();
        Files.walkFileTree(golden, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                if (dir.equals(golden.resolve(".chunks"))) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                m.put(golden.relativize(dir).toString(), -1L);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                m.put(golden.relativize(file).toString(), attrs.size());
                return FileVisitResult.CONTINUE;
            }
        });
        return m;
    }

    @Test
    @Order(1)
    void listingsAreExactlyWhatPbsAnswered() throws Exception {
        Map<String, String> calls = Map.of(
                "groups", DS + "/golden/groups",
                "snapshots", DS + "/golden/snapshots",
                "snapshots-ns-prod", DS + "/golden/snapshots?ns=prod",
                "namespaces", DS + "/golden/namespace",
                "files", DS + "/golden/files?" + SNAP_T1,
                "gc-status", DS + "/golden/gc");
        for (Map.Entry<String, String> c : calls.entrySet()) {
            Resp r = http.get(c.getValue(), admin());
            assertStatusAndType(c.getKey(), r);
            assertEquals(goldenJson(c.getKey()), r.json(), c.getKey() + " (same datastore, same values)");
        }
    }

    @Test
    @Order(2)
    void versionStatusListAndUsageHaveThePbsShapes() throws Exception {
        Resp r = http.get("/api2/json/version", admin());
        assertStatusAndType("version", r);
        assertShape(goldenJson("version"), r.json(), "version");

        r = http.get(DS + "/golden/status?verbose=1", admin());
        assertStatusAndType("status-verbose", r);
        JsonNode st = r.json();
        assertShape(goldenJson("status-verbose"), st, "status-verbose");
        assertEquals(goldenJson("status-verbose").at("/data/counts"), st.at("/data/counts"));
        assertEquals(goldenJson("status-verbose").at("/data/gc-status"), st.at("/data/gc-status"));
        assertTrue(st.at("/data/total").asLong() >= st.at("/data/used").asLong());
        JsonNode plain = http.get(DS + "/golden/status", admin()).json().get("data");
        assertFalse(plain.has("counts") || plain.has("gc-status"), "without verbose: " + plain);

        r = http.get(DS, admin());
        assertStatusAndType("datastore-list", r);
        assertShape(goldenJson("datastore-list"), r.json(), "datastore-list");
        Set<String> stores = new HashSet<>();
        r.json().get("data").forEach(n -> stores.add(n.get("store").asText()));
        assertEquals(Set.of("golden", "store1"), stores);

        r = http.get("/api2/json/status/datastore-usage", admin());
        assertStatusAndType("datastore-usage", r);
        JsonNode expected = goldenJson("datastore-usage").get("data");
        JsonNode actual = r.json().get("data");
        assertEquals(expected.size(), actual.size());
        for (JsonNode e : expected) {
            JsonNode a = null;
            for (JsonNode x : actual) {
                if (x.get("store").equals(e.get("store"))) {
                    a = x;
                }
            }
            assertTrue(a != null, "store " + e.get("store"));
            assertEquals(e.get("history").size(), a.get("history").size());
            var ec = e.deepCopy();
            var ac = a.deepCopy();
            ((com.fasterxml.jackson.databind.node.ObjectNode) ec).remove("history");
            ((com.fasterxml.jackson.databind.node.ObjectNode) ac).remove("history");
            assertSameShape(ec, ac, "datastore-usage " + e.get("store"));
        }
    }

    @Test
    @Order(3)
    void errorsHaveThePbsStatusAndText() throws Exception {
        Map<String, Resp> calls = new TreeMap<>();
        calls.put("err-unknown-store", http.get(DS + "/nope/groups", admin()));
        calls.put("err-no-auth", http.get("/api2/json/version", Map.of()));
        calls.put("err-bad-token", http.get("/api2/json/version", token(ADMIN, "d63e505a-e3ec-449a-9bc7-1da610d4ccde")));
        calls.put("err-bad-param", http.get(DS + "/golden/snapshots?backup-type=xx", admin()));
        calls.put("err-unknown-path", http.get(DS + "/golden/nosuch", admin()));
        for (Map.Entry<String, Resp> c : calls.entrySet()) {
            assertStatusAndType(c.getKey(), c.getValue());
            assertEquals(goldenText(c.getKey()), c.getValue().text(), c.getKey());
        }
        // PBS labels this 401 as JSON; our HTTP layer sends 401s without a content type
        Resp r = http.send("POST", "/api2/json/access/ticket", Map.of(), "username=bench%40pbs&password=wrong");
        assertEquals(goldenStatus("err-ticket-wrong"), r.status());
        assertEquals(goldenText("err-ticket-wrong"), r.text());
        assertEquals(401, http.send("POST", "/api2/json/access/ticket", Map.of(), "username=nobody%40pbs&password="
                + PASSWORD).status());
    }

    @Test
    @Order(4)
    void parameterErrorsUseThePbsReasons() throws Exception {
        Map<String, String> bad = new TreeMap<>(Map.of(
                DS + "/golden/files?backup-type=vm&backup-id=100",
                "parameter verification failed - 'backup-time': parameter is missing and it is not optional.",
                DS + "/golden/files?" + SNAP_T1.replace("1700000000", "abc"),
                "parameter verification failed - 'backup-time': invalid digit found in string",
                DS + "/golden/files?" + SNAP_T1.replace("1700000000", "0"), // minimum 1 as in the upgrade (docs/protocol.md#backup-upgrade)
                "parameter verification failed - 'backup-time': value must have a minimum value of 1",
                DS + "/golden/files?" + SNAP_T1.replace("id=100", "id=a/b"),
                "parameter verification failed - 'backup-id': value does not match the regex pattern",
                DS + "/golden/groups?foo=1",
                "parameter verification failed - 'foo': schema does not allow additional properties.",
                DS + "/golden/groups?ns=-bad",
                "parameter verification failed - 'ns': value does not match the regex pattern",
                DS + "/golden/status?verbose=maybe",
                "parameter verification failed - 'verbose': Unable to parse boolean option.",
                DS + "/ab/groups",
                "parameter verification failed - 'store': value must be at least 3 characters long",
                DS + "/golden/download?" + SNAP_T1 + "&file-name=../owner",
                "parameter verification failed - 'file-name': value does not match the regex pattern"));
        for (Map.Entry<String, String> b : bad.entrySet()) {
            Resp r = http.get(b.getKey(), admin());
            assertEquals(400, r.status(), b.getKey());
            assertEquals(b.getValue(), r.text(), b.getKey());
        }
        assertEquals(200, http.get(DS + "/golden/groups?_dc=12345", admin()).status(), "_dc is ignored");
        assertEquals(401, http.get(DS + "/golden/groups", Map.of()).status(), "a known path needs credentials");
        assertEquals(404, http.get("/api2/json/nosuch", Map.of()).status(), "unknown paths are 404 without credentials");
        assertEquals(404, http.send("PUT", DS + "/golden/groups", admin(), "").status(), "unknown method");
    }

    @Test
    @Order(5)
    void ticketLoginCookieAndCsrf() throws Exception {
        Resp r = http.send("POST", "/api2/json/access/ticket", Map.of(),
                "username=bench%40pbs&password=" + URLEncoder.encode(PASSWORD, StandardCharsets.UTF_8));
        assertStatusAndType("ticket", r);
        JsonNode t = r.json();
        assertShape(goldenJson("ticket"), t, "ticket");
        String ticket = t.at("/data/ticket").asText();
        String csrf = t.at("/data/CSRFPreventionToken").asText();
        assertTrue(ticket.matches("PBS:bench@pbs:[0-9A-F]{8}::[A-Za-z0-9+/]+"), ticket);
        assertTrue(csrf.matches("[0-9A-F]{8}:[A-Za-z0-9+/]+"), csrf);
        assertEquals("bench@pbs", t.at("/data/username").asText());

        Map<String, String> cookie = Map.of("Cookie", "PBSAuthCookie=" + URLEncoder.encode(ticket, StandardCharsets.UTF_8));
        assertEquals(200, http.get(DS + "/golden/groups", cookie).status());
        Map<String, Long> before = tree();
        Resp del = http.send("DELETE", DS + "/golden/snapshots?" + SNAP_T2, cookie, null);
        assertEquals(401, del.status());
        assertEquals("authentication failed - missing CSRF prevention token", del.text());
        assertEquals(before, tree(), "nothing removed");

        Map<String, String> withCsrf = new TreeMap<>(cookie);
        withCsrf.put("CSRFPreventionToken", csrf);
        r = http.send("DELETE", DS + "/golden/snapshots?backup-type=vm&backup-id=100&backup-time=1600000000", withCsrf, null);
        assertEquals(400, r.status(), "authenticated with ticket + CSRF token, then the snapshot is not found");
        assertEquals("snapshot vm/100/2020-09-13T12:26:40Z does not exist", r.text());

        // a JSON body works too, and a valid ticket as the password renews it
        r = http.postJson("/api2/json/access/ticket", "{\"username\":\"bench@pbs\",\"password\":\"" + ticket + "\"}");
        assertEquals(200, r.status(), r.text());
        assertEquals("bench@pbs", r.json().at("/data/username").asText());
        r = http.postJson("/api2/json/access/ticket", "{\"username\":\"bench@pbs\"}");
        assertEquals(400, r.status());
        assertEquals("parameter verification failed - 'password': parameter is missing and it is not optional.", r.text());
    }

    @Test
    @Order(6)
    void downloadServesTheRawFile() throws Exception {
        Resp r = http.get(DS + "/golden/download?" + SNAP_T1 + "&file-name=qemu-server.conf.blob", admin());
        assertEquals(200, r.status(), r.text());
        assertEquals("application/octet-stream", r.contentType());
        assertArrayEquals(Files.readAllBytes(golden.resolve("vm/100/2023-11-14T22:13:20Z/qemu-server.conf.blob")), r.body());
        r = http.get(DS + "/golden/download?backup-type=host&backup-id=web&backup-time=1700000000&ns=prod"
                + "&file-name=index.json.blob", admin());
        assertArrayEquals(Files.readAllBytes(golden.resolve("ns/prod/host/web/2023-11-14T22:13:20Z/index.json.blob")),
                r.body());
        r = http.get(DS + "/golden/download?" + SNAP_T1 + "&file-name=nosuch.blob", admin());
        assertEquals(400, r.status());
        assertEquals("File open failed: No such file or directory (os error 2)", r.text());
        r = http.get(DS + "/golden/download?" + SNAP_T1 + "&file-name=qemu-server.conf.blob", auditor());
        assertEquals(403, r.status());
        assertEquals("permission check failed - missing Datastore.Read|Datastore.Backup on /datastore/golden", r.text());
    }

    @Test
    @Order(7)
    void aTokenWithoutThePrivilegeIsRefusedAndNothingChanges() throws Exception {
        assertEquals(200, http.get(DS + "/golden/groups", auditor()).status(), "Datastore.Audit may list");
        Map<String, Long> before = tree();
        Resp r = http.send("DELETE", DS + "/golden/snapshots?" + SNAP_T2, auditor(), null);
        assertEquals(403, r.status());
        assertEquals("permission check failed - missing Datastore.Modify|Datastore.Prune on /datastore/golden", r.text());
        r = http.get(DS + "/store1/groups", auditor());
        assertEquals(403, r.status());
        assertEquals("permission check failed - missing Datastore.Audit|Datastore.Backup on /datastore/store1", r.text());
        JsonNode list = http.get(DS, auditor()).json().get("data");
        assertEquals(1, list.size());
        assertEquals("golden", list.get(0).get("store").asText());
        assertEquals(before, tree(), "nothing changed on disk");
    }

    @Test
    @Order(8)
    void forgetRemovesASnapshotButRefusesAProtectedOne() throws Exception {
        Map<String, Long> before = tree();
        Resp r = http.send("DELETE", DS + "/golden/snapshots?" + SNAP_T1, admin(), null);
        assertEquals(400, r.status());
        assertEquals("cannot remove protected snapshot", r.text());
        assertEquals(before, tree(), "the protected snapshot is untouched");

        r = http.send("DELETE", DS + "/golden/snapshots?" + SNAP_T2, admin(), null);
        assertEquals(200, r.status(), r.text());
        assertEquals("{\"data\":null}", r.text());
        assertFalse(Files.exists(golden.resolve("vm/100/2023-11-14T23:13:20Z")));
        assertTrue(Files.isDirectory(golden.resolve("vm/100/2023-11-14T22:13:20Z")));
        JsonNode groups = http.get(DS + "/golden/groups", admin()).json().get("data");
        assertEquals(1, groups.get(0).get("backup-count").asInt());
        assertEquals(1700000000, groups.get(0).get("last-backup").asLong());
        assertEquals(2, http.get(DS + "/golden/snapshots", admin()).json().get("data").size());

        r = http.send("DELETE", DS + "/golden/snapshots?" + SNAP_T2, admin(), null);
        assertEquals(400, r.status(), "already gone");
        assertEquals("snapshot vm/100/2023-11-14T23:13:20Z does not exist", r.text());
    }
}
