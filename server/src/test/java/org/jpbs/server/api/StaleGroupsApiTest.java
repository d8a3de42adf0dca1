package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jpbs.core.api.BackupNamespace;
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
 * {@code GET status/stale-groups} ({@code docs/api.md#without-datastore}) per role: a group is
 * listed exactly when the caller's {@code groups} call lists it (Audit: every group of the
 * namespace; Backup, PowerUser: own groups only, never a foreign one; nothing without either),
 * with the same {@code last-backup} and {@code backup-count}; the oldest first, {@code limit}
 * with the full {@code total}, {@code older-than}, {@code store}. Also the other half of the
 * dashboard's speed: {@code status/datastore-usage} goes out deflated to a browser (as PBS).
 */
class StaleGroupsApiTest {
    static final String PATH = "/api2/json/status/stale-groups";
    static final long NOW = System.currentTimeMillis() / 1000;
    static final long OLD = NOW - 10 * 86400;

    @TempDir
    static Path tmp;
    static JpbsServer server;
    static Client http;
    static final Map<String, Map<String, String>> CALLERS = new java.util.HashMap<>();

    @BeforeAll
    static void start() throws Exception {
        Datastore ds = DatastorePool.datastore(tmp.resolve("store"), SyncLevel.NONE);
        Datastore other = DatastorePool.datastore(tmp.resolve("other"), SyncLevel.NONE);
        BackupNamespace team = BackupNamespace.parse("team");
        ds.createNamespace(team);
        OwnershipApiTest.snapshot(ds, BackupNamespace.ROOT, "mine-old", OLD - 3600, "alice@pbs!t");
        OwnershipApiTest.snapshot(ds, BackupNamespace.ROOT, "mine-old", OLD, "alice@pbs!t");
        OwnershipApiTest.snapshot(ds, BackupNamespace.ROOT, "mine-new", NOW - 3600, "alice@pbs!t");
        OwnershipApiTest.snapshot(ds, BackupNamespace.ROOT, "bobs-old", OLD - 86400, "bob@pbs");
        OwnershipApiTest.snapshot(ds, BackupNamespace.ROOT, "power-old", OLD - 7200, "alice@pbs!p");
        OwnershipApiTest.snapshot(ds, team, "team-old", OLD - 2 * 86400, "bob@pbs");
        OwnershipApiTest.snapshot(other, BackupNamespace.ROOT, "other-old", OLD - 3 * 86400, "bob@pbs");

        Path config = tmp.resolve("config");
        AuthConfig cfg = AuthConfig.open(config);
        cfg.addUser("alice@pbs", null, null);
        cfg.addUser("carol@pbs", null, null);
        caller(cfg, "alice@pbs", "t", "/datastore/store", "DatastoreBackup");
        caller(cfg, "alice@pbs", "p", "/datastore/store", "DatastorePowerUser");
        caller(cfg, "alice@pbs", "admin", "/datastore", "DatastoreAdmin");
        caller(cfg, "alice@pbs", "audit", "/datastore/store", "DatastoreAudit");
        caller(cfg, "alice@pbs", "reader", "/datastore/store", "DatastoreReader");
        caller(cfg, "carol@pbs", "team", "/datastore/store/team", "DatastoreAudit");
        caller(cfg, "carol@pbs", "none", null, null);
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of("store", tmp.resolve("store"), "other", tmp.resolve("other")),
                "127.0.0.1", 0);
        server = JpbsServer.start(sc, auth, JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO));
        http = new Client(server.port());
    }

    private static void caller(AuthConfig cfg, String user, String name, String path, String role) throws Exception {
        String id = user + "!" + name;
        String secret = cfg.createToken(user, name, null);
        if (path != null) {
            cfg.updateAcl(path, user, role, true, false); // a token gets at most its user's privileges
            cfg.updateAcl(path, id, role, true, false);
        }
        CALLERS.put(name, Map.of("Authorization", "PBSAPIToken " + id + ":" + secret));
    }

    @AfterAll
    static void stop() throws Exception {
        ApiTestSupport.close(http, server);
    }

    static JsonNode stale(String caller, String query) throws Exception {
        Resp r = http.get(PATH + query, CALLERS.get(caller));
        assertEquals(200, r.status(), r.text());
        return r.json();
    }

    /** "store ns type/id" of each row, in the answer's order. */
    static List<String> rows(JsonNode whole) {
        List<String> out = new ArrayList<>();
        whole.get("data").forEach(n -> out.add(n.get("store").asText() + " " + n.path("ns").asText("") + " "
                + n.get("backup-type").asText() + "/" + n.get("backup-id").asText()));
        return out;
    }

    @Test
    void anAdminSeesEveryStaleGroupOfEveryDatastoreOldestFirst() throws Exception {
        JsonNode r = stale("admin", "");
        assertEquals(List.of("other  host/other-old", "store team host/team-old", "store  host/bobs-old",
                "store  host/power-old", "store  host/mine-old"), rows(r));
        assertEquals(5, r.get("total").asInt());
        JsonNode first = r.get("data").get(4);
        assertEquals(OLD, first.get("last-backup").asLong());
        assertEquals(2, first.get("backup-count").asInt());
        assertEquals("alice@pbs!t", first.get("owner").asText());
        assertTrue(r.get("data").get(1).has("ns") && !r.get("data").get(0).has("ns"), "ns only outside the root");
    }

    @Test
    void auditAndReaderSeeEveryGroupOfTheirDatastoreOnly() throws Exception {
        List<String> store = List.of("store team host/team-old", "store  host/bobs-old", "store  host/power-old",
                "store  host/mine-old");
        assertEquals(store, rows(stale("audit", "")));
        assertEquals(store, rows(stale("reader", "")));
    }

    @Test
    void backupAndPowerUsersSeeOnlyTheirOwnGroupsNeverAForeignOne() throws Exception {
        assertEquals(List.of("store  host/mine-old"), rows(stale("t", "")));
        assertEquals(List.of("store  host/power-old"), rows(stale("p", "")));
    }

    @Test
    void aNamespaceAclShowsThatNamespaceAndNoPrivilegeShowsNothing() throws Exception {
        assertEquals(List.of("store team host/team-old"), rows(stale("team", "")));
        JsonNode none = stale("none", "");
        assertEquals(0, none.get("total").asInt());
        assertEquals(0, none.get("data").size());
    }

    @Test
    void theRowsAgreeWithTheGroupsListing() throws Exception {
        for (JsonNode row : stale("admin", "").get("data")) {
            String q = row.has("ns") ? "?ns=" + row.get("ns").asText() : "";
            Resp g = http.get("/api2/json/admin/datastore/" + row.get("store").asText() + "/groups" + q, CALLERS.get("admin"));
            JsonNode match = null;
            for (JsonNode x : g.json().get("data")) {
                if (x.get("backup-id").asText().equals(row.get("backup-id").asText())) {
                    match = x;
                }
            }
            assertTrue(match != null, row.toString());
            for (String k : List.of("last-backup", "backup-count", "owner", "backup-type")) {
                assertEquals(match.get(k), row.get(k), k + " of " + row);
            }
        }
    }

    @Test
    void olderThanLimitAndStoreNarrowTheAnswer() throws Exception {
        JsonNode two = stale("admin", "?limit=2");
        assertEquals(List.of("other  host/other-old", "store team host/team-old"), rows(two));
        assertEquals(5, two.get("total").asInt(), "total counts them all");
        assertEquals(List.of("store  host/mine-old"), rows(stale("t", "?older-than=" + (NOW - OLD - 600))));
        assertEquals(List.of(), rows(stale("t", "?older-than=" + (NOW - OLD + 600))));
        assertEquals(List.of("store  host/mine-new", "store  host/mine-old"),
                rows(stale("t", "?older-than=60")).stream().sorted().toList());
        assertEquals(List.of("other  host/other-old"), rows(stale("admin", "?store=other")));
        Resp bad = http.get(PATH + "?older-than=soon", CALLERS.get("admin"));
        assertEquals(400, bad.status());
        assertTrue(bad.text().contains("'older-than'"), bad.text());
        assertEquals(401, http.get(PATH, Map.of()).status());
    }

    @Test
    void aGroupsSummaryIsReusedUntilItsDirectoryChanges() throws Exception {
        Datastore ds = DatastorePool.datastore(tmp.resolve("unserved"), SyncLevel.NONE);
        OwnershipApiTest.snapshot(ds, BackupNamespace.ROOT, "g", OLD, "bob@pbs");
        Path dir = ds.groupDir(new org.jpbs.core.api.BackupGroupRef(BackupNamespace.ROOT,
                org.jpbs.core.api.BackupType.HOST, "g"));
        java.nio.file.Files.setLastModifiedTime(dir, java.nio.file.attribute.FileTime.fromMillis((NOW - 3600) * 1000));
        var first = StaleGroupsApi.summary(dir);
        assertEquals(OLD, first.last());
        assertTrue(first.settled(), "finished newest snapshot, directory not changed for an hour");
        assertTrue(first == StaleGroupsApi.summary(dir), "reused");
        OwnershipApiTest.snapshot(ds, BackupNamespace.ROOT, "g", NOW - 60, "bob@pbs"); // changes the directory
        var second = StaleGroupsApi.summary(dir);
        assertEquals(NOW - 60, second.last());
        assertEquals(2, second.count());
        assertTrue(!second.settled(), "changed a moment ago: read again next time");
        // an unfinished newest snapshot (no manifest): last-backup stays the finished one, never settled
        java.nio.file.Files.createDirectories(dir.resolve(org.jpbs.core.api.BackupSnapshotRef.formatTime(NOW)));
        java.nio.file.Files.setLastModifiedTime(dir, java.nio.file.attribute.FileTime.fromMillis((NOW - 3600) * 1000));
        var third = StaleGroupsApi.summary(dir);
        assertEquals(NOW - 60, third.last());
        assertEquals(3, third.count());
        assertTrue(!third.settled());
    }

    @Test
    void theUsageAnswerIsDeflatedWhenTheClientAcceptsItAsPbsDoes() throws Exception {
        javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
        ssl.init(null, new javax.net.ssl.TrustManager[] {new ApiTestSupport.TrustAll()}, null);
        try (java.net.http.HttpClient c = java.net.http.HttpClient.newBuilder().sslContext(ssl)
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build()) {
            java.util.function.Function<String, java.net.http.HttpResponse<byte[]>> get = enc -> {
                var b = java.net.http.HttpRequest.newBuilder(java.net.URI.create("https://127.0.0.1:" + server.port()
                        + "/api2/json/status/datastore-usage")).header("Authorization", CALLERS.get("admin").get("Authorization"));
                if (enc != null) {
                    b.header("Accept-Encoding", enc);
                }
                try {
                    return c.send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofByteArray());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };
            var plain = get.apply(null);
            var chrome = get.apply("gzip, deflate, br, zstd");
            assertEquals(200, chrome.statusCode());
            assertEquals("deflate", chrome.headers().firstValue("content-encoding").orElse(""));
            assertTrue(chrome.body().length * 5 < plain.body().length, chrome.body().length + " vs " + plain.body().length);
            byte[] inflated;
            try (var in = new java.util.zip.InflaterInputStream(new java.io.ByteArrayInputStream(chrome.body()))) {
                inflated = in.readAllBytes(); // zlib format, as PBS
            }
            JsonNode a = ApiTestSupport.JSON.readTree(plain.body()).get("data");
            JsonNode b = ApiTestSupport.JSON.readTree(inflated).get("data");
            assertEquals(a.size(), b.size());
            for (int i = 0; i < a.size(); i++) {
                for (String k : List.of("store", "total", "history", "history-start", "history-delta", "gc-status")) {
                    assertEquals(a.get(i).get(k), b.get(i).get(k), k);
                }
            }
            assertTrue(plain.headers().firstValue("content-encoding").isEmpty(), "none without Accept-Encoding");
            assertTrue(get.apply("gzip, br").headers().firstValue("content-encoding").isEmpty(), "deflate only, as PBS");
            assertTrue(get.apply("deflate;q=0, gzip").headers().firstValue("content-encoding").isEmpty(), "q=0 refuses");
        }
    }
}
