package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.api.JpbsRestHandler;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** REST review findings over raw HTTP/1.1: login flood, backup-time minimum, strict JSON types. */
class RestHardeningTest {
    @TempDir
    Path tmp;

    private record Server(JpbsServer server, String adminToken) implements AutoCloseable {
        @Override
        public void close() {
            server.close();
        }
    }

    private Server start() throws Exception {
        Path cfgDir = tmp.resolve("config");
        AuthConfig auth = AuthConfig.open(cfgDir);
        String admin = "root@pam!admin:" + auth.createToken("root@pam", "admin", null);
        auth.updateAcl("/", "root@pam!admin", "Admin", true, false);
        auth.addUser("alice@pbs", "correct horse", null);
        Path ds = tmp.resolve("ds-store1");
        DatastorePool.create(ds, SyncLevel.NONE);
        FileAuthenticator fa = FileAuthenticator.open(cfgDir);
        ServerConfig sc = new ServerConfig(cfgDir, Map.of("store1", ds), "127.0.0.1", 0);
        JpbsRestHandler rest = JpbsRestHandler.create(sc, fa).withFailureDelays(Duration.ZERO, Duration.ZERO);
        return new Server(JpbsServer.start(sc, fa, rest), admin);
    }

    private static RawHttps.Response login(int port, String user, String password) throws Exception {
        try (RawHttps h = new RawHttps(port)) {
            byte[] body = ("username=" + user + "&password=" + password.replace(" ", "+")).getBytes(StandardCharsets.UTF_8);
            return h.request("POST", "/api2/json/access/ticket",
                    Map.of("Content-Type", "application/x-www-form-urlencoded"), body);
        }
    }

    @Test
    void loginFloodDoesNotStarveTheApi() throws Exception {
        try (Server s = start()) {
            int port = s.server().port();
            List<CompletableFuture<Integer>> flood = new ArrayList<>();
            for (int i = 0; i < 48; i++) {
                flood.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return login(port, "alice@pbs", "wrong password").status();
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }, r -> Thread.ofVirtual().start(r)));
            }
            Map<String, String> auth = Map.of("Authorization", "PBSAPIToken=" + s.adminToken());
            for (int i = 0; i < 3; i++) {
                try (RawHttps h = new RawHttps(port)) {
                    RawHttps.Response v = h.request("GET", "/api2/json/version", auth, null);
                    assertEquals(200, v.status(), "the API answers during the flood");
                    assertEquals(200, h.request("GET", "/api2/json/admin/datastore/store1/groups", auth, null).status());
                }
            }
            int busy = 0;
            for (CompletableFuture<Integer> f : flood) {
                int st = f.get();
                assertTrue(st == 401 || st == 503, "wrong password: 401, or 503 when the checks are saturated; got " + st);
                busy += st == 503 ? 1 : 0;
            }
            RawHttps.Response ok = login(port, "alice@pbs", "correct horse");
            assertEquals(200, ok.status(), ok.text());
            assertTrue(ok.text().contains("\"ticket\":\"PBS:alice@pbs:"), ok.text());
            System.out.println("login flood: " + busy + " of " + flood.size() + " refused with 503");
        }
    }

    @Test
    void backupTimeMinimumIsOneAndJsonTypesAreStrict() throws Exception {
        try (Server s = start(); RawHttps h = new RawHttps(s.server().port())) {
            Map<String, String> auth = Map.of("Authorization", "PBSAPIToken=" + s.adminToken());
            String ds = "/api2/json/admin/datastore/store1";
            RawHttps.Response r = h.request("GET", ds + "/files?backup-type=vm&backup-id=100&backup-time=0", auth, null);
            assertEquals(400, r.status());
            assertEquals("parameter verification failed - 'backup-time': value must have a minimum value of 1", r.text());
            r = h.request("GET", ds + "/files?backup-type=vm&backup-id=100&backup-time=5", auth, null);
            assertTrue(r.status() != 400 || !r.text().startsWith("parameter verification failed"),
                    "backup-time 5 passes the schema like the protocol's: " + r.status() + " " + r.text());
            Map<String, String> json = new java.util.HashMap<>(auth);
            json.put("Content-Type", "application/json");
            r = h.request("POST", ds + "/prune", json,
                    "{\"backup-type\":\"vm\",\"backup-id\":\"100\",\"keep-last\":\"3\"}".getBytes(StandardCharsets.UTF_8));
            assertEquals(400, r.status());
            assertEquals("parameter verification failed - 'keep-last': Expected integer value.", r.text());
            r = h.request("POST", ds + "/prune", json,
                    "{\"backup-type\":\"vm\",\"backup-id\":\"100\",\"dry-run\":\"true\"}".getBytes(StandardCharsets.UTF_8));
            assertEquals("parameter verification failed - 'dry-run': Expected boolean value.", r.text());
            r = h.request("POST", ds + "/prune", json,
                    "{\"backup-type\":\"vm\",\"backup-id\":100}".getBytes(StandardCharsets.UTF_8));
            assertEquals("parameter verification failed - 'backup-id': Expected string value.", r.text());
            r = h.request("POST", ds + "/verify", json, "{\"backup-time\":\"1700000000\"}".getBytes(StandardCharsets.UTF_8));
            assertEquals("parameter verification failed - 'backup-time': Expected integer value.", r.text());
            r = h.request("POST", "/api2/json/access/ticket", Map.of("Content-Type", "application/json"),
                    "{\"username\":5,\"password\":\"x\"}".getBytes(StandardCharsets.UTF_8));
            assertEquals(400, r.status());
            assertEquals("parameter verification failed - 'username': Expected string value.", r.text());
            r = h.request("POST", ds + "/prune", json,
                    "{\"backup-type\":\"vm\",\"backup-id\":\"100\",\"keep-last\":3,\"dry-run\":true}".getBytes(StandardCharsets.UTF_8));
            assertTrue(r.status() != 400, "right JSON types pass: " + r.status() + " " + r.text());
        }
    }
}
