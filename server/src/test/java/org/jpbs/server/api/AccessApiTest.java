package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
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
 * {@code GET access/users}, {@code POST access/users/{userid}/token/{name}}, {@code GET access/acl}
 * and {@code GET nodes/localhost/certificates/info} per caller: root@pam (ticket), alice@pbs
 * (ticket; DatastoreAdmin on /datastore), her tokens with each datastore role, and bob@pbs, a
 * foreign user. Datastore roles give no privilege on /access or /system: everyone but root sees
 * only themselves and cannot read the certificate or the host metrics. Also the metrics API
 * ({@code admin/datastore/{store}/rrd}, {@code nodes/localhost/rrd}) and the usage history.
 */
class AccessApiTest {
    static final String[][] ROLES = {{"backup", "DatastoreBackup"}, {"power", "DatastorePowerUser"},
            {"admin", "DatastoreAdmin"}, {"audit", "DatastoreAudit"}, {"reader", "DatastoreReader"}};
    @TempDir(factory = org.jpbs.server.ShmTempDirFactory.class)
    static Path tmp;
    static JpbsServer server;
    static Client http;
    static final Map<String, Map<String, String>> caller = new TreeMap<>();

    @BeforeAll
    static void start() throws Exception {
        Path config = tmp.resolve("config");
        AuthConfig cfg = AuthConfig.open(config);
        cfg.setPassword("root@pam", "root-password-1");
        cfg.addUser("alice@pbs", "alice-password-1", "Alice");
        cfg.addUser("bob@pbs", "bob-password-1", null);
        cfg.addUser("carol@pbs", "carol-password-1", null); // no ACL entry at all
        cfg.updateAcl("/datastore", "alice@pbs", "DatastoreAdmin", true, false);
        cfg.updateAcl("/datastore/store", "bob@pbs", "DatastoreBackup", true, false);
        for (String[] r : ROLES) {
            String secret = cfg.createToken("alice@pbs", r[0], null);
            cfg.updateAcl("/datastore", "alice@pbs!" + r[0], r[1], true, false);
            caller.put(r[0], OwnershipApiTest.token("alice@pbs!" + r[0], secret));
        }
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of("store", tmp.resolve("ds")), "127.0.0.1", 0);
        DatastorePool.create(tmp.resolve("ds"), SyncLevel.NONE);
        samplesOfTheLast20Days(config);
        server = JpbsServer.start(sc, auth, JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO));
        http = new Client(server.port());
        caller.put("root", login("root@pam", "root-password-1"));
        caller.put("alice", login("alice@pbs", "alice-password-1"));
        caller.put("bob", login("bob@pbs", "bob-password-1"));
        caller.put("carol", login("carol@pbs", "carol-password-1"));
    }

    static long now = System.currentTimeMillis() / 1000;
    static double usedNow;

    /**
     * Before the server (and its sampler) starts: usage growing linearly from 25 % to 50 % of
     * the disk over 20 days, one point a day, the last (this half hour) given so many samples
     * that the sampler's own first one (the real usage) hardly moves its average; and one write
     * rate 30 s ago.
     */
    static void samplesOfTheLast20Days(Path config) throws Exception {
        long total = java.nio.file.Files.getFileStore(tmp.resolve("ds")).getTotalSpace();
        usedNow = 0.5;
        org.jpbs.server.rrd.RrdStore rrd = org.jpbs.server.rrd.RrdStore.forConfigDir(config);
        for (int d = 20; d >= 0; d--) {
            for (int i = 0; i < (d == 0 ? 10_000 : 1); i++) {
                rrd.update("datastore/store/total", now - d * 86400L, total);
                rrd.update("datastore/store/used", now - d * 86400L, total * usedNow * (1 - d / 40.0));
            }
        }
        rrd.update("datastore/store/write_bytes", now - 30, 4096);
    }

    static Map<String, String> login(String user, String password) throws Exception {
        return ApiTestSupport.login(http, user, password);
    }

    @AfterAll
    static void stop() throws Exception {
        ApiTestSupport.close(http, server);
    }

    static List<String> field(JsonNode array, String name) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get(name).asText()));
        return out;
    }

    @Test
    void usersAreListedWithSysAuditElseOnlyTheCallersOwn() throws Exception {
        Resp all = http.get("/api2/json/access/users?include_tokens=1", caller.get("root"));
        assertEquals(200, all.status(), all.text());
        assertEquals(List.of("root@pam", "alice@pbs", "bob@pbs", "carol@pbs"), field(all.json().get("data"), "userid"));
        JsonNode alice = all.json().get("data").get(1);
        assertEquals("Alice", alice.get("comment").asText());
        assertEquals(List.of("alice@pbs!backup", "alice@pbs!power", "alice@pbs!admin", "alice@pbs!audit", "alice@pbs!reader"),
                field(alice.get("tokens"), "tokenid").subList(0, 5)); // then those made by the token test, if it ran first
        Resp own = http.get("/api2/json/access/users?include_tokens=1", caller.get("alice"));
        assertEquals(List.of("alice@pbs"), field(own.json().get("data"), "userid"));
        assertTrue(own.json().get("data").get(0).get("tokens").size() >= 5);
        for (String[] r : ROLES) {
            Resp t = http.get("/api2/json/access/users?include_tokens=1", caller.get(r[0]));
            assertEquals(200, t.status(), r[0] + ": " + t.text());
            assertEquals(List.of("alice@pbs"), field(t.json().get("data"), "userid"), r[0]);
            assertEquals(List.of("alice@pbs!" + r[0]), field(t.json().get("data").get(0).get("tokens"), "tokenid"), r[0]);
        }
        Resp foreign = http.get("/api2/json/access/users", caller.get("bob"));
        assertEquals(List.of("bob@pbs"), field(foreign.json().get("data"), "userid"));
        assertEquals(400, http.get("/api2/json/access/users?bogus=1", caller.get("root")).status());
        assertEquals(401, http.get("/api2/json/access/users", Map.of()).status());
    }

    @Test
    void aTokenIsCreatedByItsUserOrWithPermissionsModifyAndItsSecretWorks() throws Exception {
        Resp made = http.send("POST", "/api2/json/access/users/alice%40pbs/token/web", caller.get("alice"), "comment=from+the+UI");
        assertEquals(200, made.status(), made.text());
        assertEquals("alice@pbs!web", made.json().get("data").get("tokenid").asText());
        String secret = made.json().get("data").get("value").asText();
        assertTrue(secret.matches("[0-9a-f-]{36}"), secret);
        assertEquals(200, http.get("/api2/json/version", OwnershipApiTest.token("alice@pbs!web", secret)).status());
        Resp again = http.send("POST", "/api2/json/access/users/alice%40pbs/token/web", caller.get("alice"), "");
        assertEquals(400, again.status());
        assertEquals("token 'web' for user 'alice@pbs' already exists.", again.text());
        for (String[] r : ROLES) { // a token may not create tokens, not even for its own user
            Resp t = http.send("POST", "/api2/json/access/users/alice%40pbs/token/by" + r[0], caller.get(r[0]), "");
            assertEquals(403, t.status(), r[0]);
            assertEquals("permission check failed", t.text());
        }
        Resp foreign = http.send("POST", "/api2/json/access/users/bob%40pbs/token/x", caller.get("alice"), "");
        assertEquals(403, foreign.status());
        assertEquals(200, http.send("POST", "/api2/json/access/users/bob%40pbs/token/byroot", caller.get("root"), "").status());
        Resp bad = http.send("POST", "/api2/json/access/users/alice%40pbs/token/a%20b", caller.get("alice"), "");
        assertEquals(400, bad.status());
        assertEquals("parameter verification failed - 'token-name': value does not match the regex pattern", bad.text());
        Resp noCsrf = http.send("POST", "/api2/json/access/users/alice%40pbs/token/nocsrf",
                Map.of("Cookie", caller.get("alice").get("Cookie")), "");
        assertEquals(401, noCsrf.status());
    }

    @Test
    void aclEntriesAreListedWithSysAuditElseTheCallersOwn() throws Exception {
        Resp all = http.get("/api2/json/access/acl", caller.get("root"));
        assertEquals(200, all.status(), all.text());
        List<String> ugids = field(all.json().get("data"), "ugid");
        assertTrue(ugids.containsAll(List.of("alice@pbs", "bob@pbs", "alice@pbs!backup")), ugids.toString());
        JsonNode first = all.json().get("data").get(0);
        assertEquals(List.of("path", "propagate", "roleid", "ugid", "ugid_type"), fieldNames(first));
        Resp alice = http.get("/api2/json/access/acl", caller.get("alice"));
        List<String> own = field(alice.json().get("data"), "ugid");
        assertEquals(6, own.size(), own.toString());
        assertTrue(own.stream().allMatch(u -> u.startsWith("alice@pbs")), own.toString());
        for (String[] r : ROLES) {
            Resp t = http.get("/api2/json/access/acl", caller.get(r[0]));
            assertEquals(List.of("alice@pbs!" + r[0]), field(t.json().get("data"), "ugid"), r[0]);
            assertEquals(r[1], t.json().get("data").get(0).get("roleid").asText());
        }
        Resp bob = http.get("/api2/json/access/acl?path=/datastore/store&exact=1", caller.get("bob"));
        assertEquals(List.of("/datastore/store"), field(bob.json().get("data"), "path"));
    }

    static List<String> fieldNames(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void theCertificateInfoNeedsSysAudit() throws Exception {
        Resp r = http.get("/api2/json/nodes/localhost/certificates/info", caller.get("root"));
        assertEquals(200, r.status(), r.text());
        JsonNode c = r.json().get("data").get(0);
        assertEquals(server.fingerprint(), c.get("fingerprint").asText());
        assertEquals("proxy.pem", c.get("filename").asText());
        assertTrue(c.get("pem").asText().startsWith("-----BEGIN CERTIFICATE-----"));
        assertTrue(!c.toString().contains(tmp.toString()), "no server path in the answer");
        for (String who : List.of("alice", "bob", "backup", "power", "admin", "audit", "reader")) {
            Resp d = http.get("/api2/json/nodes/localhost/certificates/info", caller.get(who));
            assertEquals(403, d.status(), who);
            assertEquals("permission check failed", d.text());
        }
    }

    @Test
    void datastoreMetricsNeedAuditOrBackupAndFollowTheSamples() throws Exception {
        String q = "/api2/json/admin/datastore/store/rrd?timeframe=hour&cf=AVERAGE";
        for (String who : List.of("root", "alice", "bob", "backup", "power", "admin", "audit", "reader")) {
            Resp r = http.get(q, caller.get(who));
            assertEquals(200, r.status(), who + ": " + r.text());
        }
        JsonNode hour = http.get(q, caller.get("audit")).json().get("data");
        assertEquals(61, hour.size(), "one point a minute for the last hour");
        assertEquals(List.of("time"), fieldNames(hour.get(0)));
        JsonNode written = null;
        for (JsonNode point : hour) {
            if (point.get("time").asLong() == (now - 30) / 60 * 60) {
                written = point;
            }
        }
        assertEquals(4096.0, written.get("write_bytes").asDouble(), hour.toString());
        assertEquals(hour.get(0).get("time").asLong() + 60, hour.get(1).get("time").asLong());
        JsonNode month = http.get("/api2/json/admin/datastore/store/rrd?timeframe=month&cf=MAX", caller.get("root")).json().get("data");
        assertEquals(1441, month.size(), "30-minute slots for 30 days");
        Resp none = http.get(q, caller.get("carol"));
        assertEquals(403, none.status());
        assertEquals("permission check failed", none.text());
        assertEquals(400, http.get("/api2/json/admin/datastore/nostore/rrd?timeframe=hour&cf=MAX", caller.get("root")).status());
        Resp bad = http.get("/api2/json/admin/datastore/store/rrd?timeframe=minute&cf=MAX", caller.get("root"));
        assertEquals(400, bad.status());
        assertEquals("parameter verification failed - 'timeframe': value 'minute' is not defined in the enumeration.", bad.text());
        Resp missing = http.get("/api2/json/admin/datastore/store/rrd?timeframe=day", caller.get("root"));
        assertEquals("parameter verification failed - 'cf': parameter is missing and it is not optional.", missing.text());

        JsonNode usage = http.get("/api2/json/status/datastore-usage", caller.get("root")).json().get("data").get(0);
        long full = usage.get("estimated-full-date").asLong();
        long expected = now + 40 * 86400; // +1.25 % a day from 50 %
        assertTrue(Math.abs(full - expected) < 86400, "estimated full " + full + ", expected about " + expected);
        int known = 0;
        for (JsonNode h : usage.get("history")) {
            known += h.isNull() ? 0 : 1;
        }
        assertEquals(21, known, "one history point per sampled day");
        JsonNode light = http.get("/api2/json/status/datastore-usage?history=0", caller.get("root")).json().get("data").get(0);
        assertEquals(full, light.get("estimated-full-date").asLong(), "history=0 keeps the estimate");
        for (String f : List.of("history", "history-start", "history-delta")) {
            assertFalse(light.has(f), "history=0 leaves out " + f);
        }
        assertEquals(usage.get("total"), light.get("total"));
    }

    @Test
    void hostMetricsNeedSysAudit() throws Exception {
        org.jpbs.server.rrd.RrdStore.forConfigDir(tmp.resolve("config")).update("host/loadavg",
                System.currentTimeMillis() / 1000, 0.5);
        Resp r = http.get("/api2/json/nodes/localhost/rrd?timeframe=day&cf=MAX", caller.get("root"));
        assertEquals(200, r.status(), r.text());
        assertEquals(1441, r.json().get("data").size());
        for (String who : List.of("alice", "bob", "carol", "backup", "power", "admin", "audit", "reader")) {
            Resp d = http.get("/api2/json/nodes/localhost/rrd?timeframe=day&cf=MAX", caller.get(who));
            assertEquals(403, d.status(), who);
        }
    }
}
