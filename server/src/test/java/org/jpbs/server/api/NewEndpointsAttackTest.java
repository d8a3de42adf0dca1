package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.api.ApiTestSupport.Client;
import org.jpbs.server.api.ApiTestSupport.Resp;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second user and an operator against the session-7 endpoints ({@code status/datastore-usage}
 * with and without {@code history}, {@code status/stale-groups}, {@code access/permissions},
 * {@code POST config/datastore}): per datastore role and for a caller who holds only a
 * namespace of the store, what each sees; bad values are 400 naming the parameter, never a
 * server path; creating a datastore over an existing one (configured or not, through
 * {@code ..} or a symlink) is refused and leaves it intact.
 */
class NewEndpointsAttackTest {
    @TempDir
    static Path tmp;
    static Path config;
    static JpbsServer server;
    static Client http;
    static Map<String, Map<String, String>> callers;

    @BeforeAll
    static void start() throws Exception {
        Datastore ds = DatastorePool.datastore(tmp.resolve("store"), SyncLevel.NONE);
        DatastorePool.create(tmp.resolve("other"), SyncLevel.NONE);
        ds.createNamespace(BackupNamespace.parse("team"));
        OwnershipApiTest.snapshot(ds, BackupNamespace.ROOT, "bobs", 1_000_000, "bob@pbs");
        config = tmp.resolve("config");
        AuthConfig auth = AuthConfig.open(config);
        callers = ApiTestSupport.roleCallers(auth, "/access");
        auth.addUser("carol@pbs", null, null);
        String secret = auth.createToken("carol@pbs", "team", null);
        auth.updateAcl("/datastore/store/team", "carol@pbs", "DatastoreBackup", true, false);
        auth.updateAcl("/datastore/store/team", "carol@pbs!team", "DatastoreBackup", true, false);
        callers.put("team", OwnershipApiTest.token("carol@pbs!team", secret));
        server = ApiTestSupport.startWithJobs(config, Map.of("store", tmp.resolve("store"), "other", tmp.resolve("other")));
        http = new Client(server.port());
    }

    @AfterAll
    static void stop() throws Exception {
        ApiTestSupport.close(http, server);
    }

    static Resp get(String who, String path) throws Exception {
        return http.get("/api2/json/" + path, callers.get(who));
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static List<String> fields(JsonNode o) {
        List<String> out = new ArrayList<>();
        o.fieldNames().forEachRemaining(out::add);
        return out.stream().sorted().toList();
    }

    @Test
    void datastoreUsagePerRoleShowsOnlyTheStoresTheCallerMaySee() throws Exception {
        // roleCallers grant the datastore roles on /datastore: both stores in full
        for (String who : List.of("backup", "power", "dsadmin", "audit", "reader")) {
            for (String q : List.of("", "?history=0")) {
                JsonNode d = get(who, "status/datastore-usage" + q).json().get("data");
                assertEquals(2, d.size(), who + q + ": " + d);
                for (JsonNode s : d) {
                    assertTrue(s.has("total") && s.has("gc-status"), who + ": " + s);
                    assertEquals(q.isEmpty(), s.has("history"), who + q + ": " + s);
                }
            }
        }
        // a namespace ACL only: the store's name, nothing else; the other store not at all
        for (String q : List.of("", "?history=0")) {
            JsonNode d = get("team", "status/datastore-usage" + q).json().get("data");
            assertEquals(1, d.size(), d.toString());
            assertEquals(List.of("store"), fields(d.get(0)), d.toString());
        }
        Resp bad = get("admin", "status/datastore-usage?history=maybe");
        assertEquals(400, bad.status(), bad.text());
        assertTrue(bad.text().startsWith("parameter verification failed - 'history'"), bad.text());
        Resp extra = get("admin", "status/datastore-usage?store=x");
        assertEquals(400, extra.status(), extra.text());
        assertTrue(extra.text().contains("'store': schema does not allow additional properties."), extra.text());
    }

    /** A datastore that cannot be opened is listed with its error, which names no server path. */
    @Test
    void datastoreUsageErrorsCarryNoServerPath() throws Exception {
        Path gone = tmp.resolve("gone-dir");
        Path cfg = config.resolve("datastore.cfg");
        Files.writeString(cfg, "datastore: gone\n\tpath " + gone + "\n");
        try {
            JsonNode entry = null;
            for (int i = 0; i < 50 && entry == null; i++) { // a hand edit is noticed within a second
                for (JsonNode s : get("admin", "status/datastore-usage?history=0").json().get("data")) {
                    if (s.get("store").asText().equals("gone")) {
                        entry = s;
                    }
                }
                Thread.sleep(100);
            }
            assertTrue(entry != null && entry.has("error"), String.valueOf(entry));
            assertFalse(entry.get("error").asText().contains(tmp.toString()), entry.toString());
            assertFalse(entry.get("error").asText().isBlank(), entry.toString());
        } finally {
            Files.delete(cfg);
        }
    }

    @Test
    void staleGroupsForeignCallerAndBadValues() throws Exception {
        JsonNode team = get("team", "status/stale-groups?older-than=0").json();
        assertEquals(0, team.get("total").asInt(), "bob's group in the root is not carol's: " + team);
        JsonNode backup = get("backup", "status/stale-groups?older-than=0").json();
        assertEquals(0, backup.get("total").asInt(), "bob's group is not alice's: " + backup);
        assertEquals(1, get("audit", "status/stale-groups?older-than=0").json().get("total").asInt());
        for (String[] c : new String[][] {{"?store=" + enc("../store"), "'store'"}, {"?limit=-1", "'limit'"},
                {"?older-than=" + enc("1e3"), "'older-than'"}, {"?ns=team", "'ns'"}}) {
            Resp r = get("admin", "status/stale-groups" + c[0]);
            assertEquals(400, r.status(), c[0] + ": " + r.text());
            assertTrue(r.text().startsWith("parameter verification failed - " + c[1]), c[0] + ": " + r.text());
        }
    }

    @Test
    void permissionsOfOthersAndTraversalPathsAreRefused() throws Exception {
        for (String[] c : new String[][] {{"team", "alice@pbs"}, {"team", "alice@pbs!backup"}, {"backup", "carol@pbs!team"},
                {"backup", "alice@pbs!admin"}, {"backup", "alice@pbs"}}) {
            Resp r = get(c[0], "access/permissions?auth-id=" + enc(c[1]));
            assertEquals(400, r.status(), c[0] + " asking " + c[1] + ": " + r.text());
            assertEquals("not allowed to list permissions of " + c[1], r.text());
        }
        JsonNode mine = get("team", "access/permissions").json().get("data");
        assertEquals(List.of("/datastore/store/team"), fields(mine), mine.toString());
        for (String p : List.of("/datastore/../access", "/datastore/./store", "//", "/datastore/", "")) {
            Resp r = get("admin", "access/permissions?path=" + enc(p));
            assertEquals(400, r.status(), p + ": " + r.text());
            assertTrue(r.text().startsWith("parameter verification failed - 'path'"), p + ": " + r.text());
        }
        Resp badId = get("admin", "access/permissions?auth-id=" + enc("../etc"));
        assertEquals(400, badId.status());
        assertTrue(badId.text().startsWith("parameter verification failed - 'auth-id'"), badId.text());
    }

    @Test
    void creatingADatastoreOverAnExistingOneIsRefusedAndLeavesItIntact() throws Exception {
        Path store = tmp.resolve("store"); // served from the command line (not in datastore.cfg)
        Datastore loose = DatastorePool.datastore(tmp.resolve("loose"), SyncLevel.NONE); // a datastore nobody serves
        OwnershipApiTest.snapshot(loose, BackupNamespace.ROOT, "kept", 1_000_000, "bob@pbs");
        Files.createSymbolicLink(tmp.resolve("link"), store);
        String[][] cases = {
            {"name=store&path=" + enc(tmp.resolve("fresh").toString()), "'name': datastore 'store' already exists."},
            {"name=copy1&path=" + enc(store + "/"), "'path': path is already used by datastore 'store'"},
            {"name=copy2&path=" + enc(tmp.resolve("x/../store").toString()) + "&reuse-datastore=1",
                "'path': path is already used by datastore 'store'"},
            // PBS's text; the other datastore's path is a server path, hidden as everywhere in answers
            {"name=inner&path=" + enc(store + "/sub/inner"), "'path': nested datastores not allowed: 'store' already in \"<"},
            {"name=around&path=" + enc(tmp.toString()), "'path': nested datastores not allowed: '"}, // any served one
            {"name=" + enc("../evil") + "&path=" + enc(tmp.resolve("evil").toString()), "'name'"},
            {"name=" + enc("a/b") + "&path=" + enc(tmp.resolve("evil").toString()), "'name'"},
            {"name=evil&path=" + enc(tmp.resolve("evil").toString()) + "&tuning=" + enc("sync-level=../x"), "tuning"},
            {"name=evil&path=" + enc(tmp.resolve("evil").toString()) + "&comment=" + enc("a\nb"), "comment"},
        };
        for (String[] c : cases) {
            Resp r = http.send("POST", "/api2/json/config/datastore", callers.get("admin"), c[0]);
            assertEquals(400, r.status(), c[0] + ": " + r.text());
            assertTrue(r.text().startsWith("parameter verification failed - ") && r.text().contains(c[1]), c[0] + ": " + r.text());
            assertFalse(r.text().contains(config.toString()) || r.text().contains(tmp.toString()), r.text());
        }
        assertFalse(Files.exists(tmp.resolve("evil")));
        assertFalse(Files.exists(tmp.resolve("fresh")));
        assertFalse(Files.exists(config.resolve("datastore.cfg")), "nothing was added");
        // through a symlink to a served store, or over a datastore nobody serves: the task fails, both stay intact
        for (String[] c : new String[][] {{"vialink", tmp.resolve("link").toString()}, {"loose", tmp.resolve("loose").toString()}}) {
            Resp r = http.send("POST", "/api2/json/config/datastore", callers.get("admin"), "name=" + c[0] + "&path=" + enc(c[1]));
            String[] t = DatastoreConfigApiTest.awaitTask(http, r, callers.get("admin"));
            assertTrue(t[0].contains("already a datastore"), c[0] + ": " + t[0]);
        }
        for (String p : List.of("store", "loose")) {
            assertTrue(Files.isDirectory(tmp.resolve(p).resolve(".chunks/ffff")), p);
            assertTrue(Files.exists(tmp.resolve(p).resolve(".lock")), p);
        }
        assertTrue(Files.isDirectory(store.resolve("host/bobs")));
        assertTrue(Files.isDirectory(tmp.resolve("loose/host/kept")));
        assertFalse(Files.exists(config.resolve("datastore.cfg")), "nothing was added");
        assertEquals(200, get("admin", "admin/datastore/store/groups").status());
    }
}
