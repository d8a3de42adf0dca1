package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET access/users}, {@code POST access/users/{userid}/token/{name}}, {@code GET access/acl}
 * and {@code GET nodes/localhost/certificates/info} per caller: root@pam (ticket), alice@pbs
 * (ticket; DatastoreAdmin on /datastore), her tokens with each datastore role, and bob@pbs, a
 * foreign user. Datastore roles give no privilege on /access or /system: everyone but root sees
 * only themselves and cannot read the certificate.
 */
class AccessApiTest {
    static final String[][] ROLES = {{"backup", "DatastoreBackup"}, {"power", "DatastorePowerUser"},
            {"admin", "DatastoreAdmin"}, {"audit", "DatastoreAudit"}, {"reader", "DatastoreReader"}};
    @TempDir
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
        cfg.updateAcl("/datastore", "alice@pbs", "DatastoreAdmin", true, false);
        cfg.updateAcl("/datastore/store", "bob@pbs", "DatastoreBackup", true, false);
        for (String[] r : ROLES) {
            String secret = cfg.createToken("alice@pbs", r[0], null);
            cfg.updateAcl("/datastore", "alice@pbs!" + r[0], r[1], true, false);
            caller.put(r[0], OwnershipApiTest.token("alice@pbs!" + r[0], secret));
        }
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of("store", tmp.resolve("ds")), "127.0.0.1", 0);
        Datastore.create(tmp.resolve("ds"), SyncLevel.NONE);
        server = JpbsServer.start(sc, auth, JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO));
        http = new Client(server.port());
        caller.put("root", login("root@pam", "root-password-1"));
        caller.put("alice", login("alice@pbs", "alice-password-1"));
        caller.put("bob", login("bob@pbs", "bob-password-1"));
    }

    static Map<String, String> login(String user, String password) throws Exception {
        Resp r = http.send("POST", "/api2/json/access/ticket", Map.of(), "username=" + URLEncoder.encode(user, StandardCharsets.UTF_8)
                + "&password=" + password);
        assertEquals(200, r.status(), r.text());
        JsonNode t = r.json().get("data");
        return Map.of("Cookie", "PBSAuthCookie=" + URLEncoder.encode(t.get("ticket").asText(), StandardCharsets.UTF_8),
                "CSRFPreventionToken", t.get("CSRFPreventionToken").asText());
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

    static List<String> field(JsonNode array, String name) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get(name).asText()));
        return out;
    }

    @Test
    void usersAreListedWithSysAuditElseOnlyTheCallersOwn() throws Exception {
        Resp all = http.get("/api2/json/access/users?include_tokens=1", caller.get("root"));
        assertEquals(200, all.status(), all.text());
        assertEquals(List.of("root@pam", "alice@pbs", "bob@pbs"), field(all.json().get("data"), "userid"));
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
}
