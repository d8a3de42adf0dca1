package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotWriter;
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
 * The "partial" privileges of {@code docs/api.md#conventions-as-pbs}, {@code docs/api.md#admindatastorestore} over HTTPS: with only
 * {@code Datastore.Backup} a token sees and reads only its own groups, with
 * {@code DatastorePowerUser} it may forget only its own snapshots; a user sees a datastore
 * through a namespace ACL; the namespace list is filtered. Needs no shared vectors.
 */
class OwnershipApiTest {
    static final String DS = "/api2/json/admin/datastore";
    static final long T = 1_700_000_000L;

    @TempDir
    static Path tmp;
    static JpbsServer server;
    static Client http;
    static Path root;
    static Map<String, String> alice;
    static Map<String, String> power;
    static Map<String, String> teamUser;

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
        BackupNamespace team = BackupNamespace.parse("team");
        ds.createNamespace(team);
        ds.createNamespace(BackupNamespace.parse("team/sub"));
        ds.createNamespace(BackupNamespace.parse("other"));
        snapshot(ds, BackupNamespace.ROOT, "mine", T, "alice@pbs!t");
        snapshot(ds, BackupNamespace.ROOT, "mine", T + 60, "alice@pbs!t");
        snapshot(ds, BackupNamespace.ROOT, "users", T, "alice@pbs");
        snapshot(ds, BackupNamespace.ROOT, "theirs", T, "bob@pbs");
        snapshot(ds, team, "web", T, "bob@pbs");
        snapshot(ds, BackupNamespace.ROOT, "pgrp", T, "alice@pbs!p");
        snapshot(ds, BackupNamespace.ROOT, "pgrp", T + 60, "alice@pbs!p");

        Path config = tmp.resolve("config");
        AuthConfig cfg = AuthConfig.open(config);
        cfg.addUser("alice@pbs", null, null);
        String aliceSecret = cfg.createToken("alice@pbs", "t", null);
        cfg.updateAcl("/datastore/store", "alice@pbs", "DatastorePowerUser", true, false);
        cfg.updateAcl("/datastore/store", "alice@pbs!t", "DatastoreBackup", true, false);
        String powerSecret = cfg.createToken("alice@pbs", "p", null);
        cfg.updateAcl("/datastore/store", "alice@pbs!p", "DatastorePowerUser", true, false);
        cfg.addUser("carol@pbs", null, null);
        String teamSecret = cfg.createToken("carol@pbs", "t", null);
        cfg.updateAcl("/datastore/store/team", "carol@pbs", "DatastoreAudit", true, false);
        cfg.updateAcl("/datastore/store/team", "carol@pbs!t", "DatastoreAudit", true, false);
        alice = token("alice@pbs!t", aliceSecret);
        power = token("alice@pbs!p", powerSecret);
        teamUser = token("carol@pbs!t", teamSecret);

        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of("store", root), "127.0.0.1", 0);
        server = JpbsServer.start(sc, auth, JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO));
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

    static List<String> ids(JsonNode data) {
        List<String> out = new ArrayList<>();
        data.forEach(n -> out.add(n.get("backup-id").asText()));
        return out;
    }

    @Test
    void backupOnlyTokensSeeAndReadTheirOwnGroups() throws Exception {
        assertEquals(List.of("mine"), ids(http.get(DS + "/store/groups", alice).json().get("data")));
        assertEquals(List.of("mine", "mine"), ids(http.get(DS + "/store/snapshots", alice).json().get("data")));
        assertEquals(200, http.get(DS + "/store/files?backup-type=host&backup-id=mine&backup-time=" + T, alice).status());
        Resp r = http.get(DS + "/store/files?backup-type=host&backup-id=theirs&backup-time=" + T, alice);
        assertEquals(400, r.status());
        assertEquals("backup owner check failed (alice@pbs!t != bob@pbs)", r.text());
        r = http.get(DS + "/store/download?backup-type=host&backup-id=theirs&backup-time=" + T
                + "&file-name=host.conf.blob", alice);
        assertEquals(400, r.status());
        JsonNode counts = http.get(DS + "/store/status?verbose=true", alice).json().at("/data");
        assertEquals(1, counts.at("/counts/host/groups").asInt(), "counts only owned groups: " + counts);
        assertEquals(2, counts.at("/counts/host/snapshots").asInt());
        assertFalse(counts.has("gc-status"), "gc status needs Datastore.Audit");
        assertEquals(403, http.get(DS + "/store/gc", alice).status());
        r = http.send("DELETE", DS + "/store/snapshots?backup-type=host&backup-id=mine&backup-time=" + T, alice, null);
        assertEquals(403, r.status(), "Datastore.Backup cannot forget");
        assertEquals("permission check failed - missing Datastore.Modify|Datastore.Prune on /datastore/store", r.text());
    }

    @Test
    void pruneAllowsForgettingOnlyOwnSnapshots() throws Exception {
        // the user alice@pbs owns the groups of its tokens; its token alice@pbs!p owns nothing
        Resp r = http.send("DELETE", DS + "/store/snapshots?backup-type=host&backup-id=theirs&backup-time=" + T, power, null);
        assertEquals(400, r.status());
        assertEquals("backup owner check failed (alice@pbs!p != bob@pbs)", r.text());
        assertTrue(Files.isDirectory(root.resolve("host/theirs/2023-11-14T22:13:20Z")));
        r = http.send("DELETE", DS + "/store/snapshots?backup-type=host&backup-id=mine&backup-time=" + T, power, null);
        assertEquals(400, r.status(), "a sibling token's group is not owned");
        assertTrue(Files.isDirectory(root.resolve("host/mine/2023-11-14T22:13:20Z")));
        r = http.send("DELETE", DS + "/store/snapshots?backup-type=host&backup-id=pgrp&backup-time=" + T, power, null);
        assertEquals(200, r.status(), r.text());
        assertFalse(Files.exists(root.resolve("host/pgrp/2023-11-14T22:13:20Z")));
        assertTrue(Files.isDirectory(root.resolve("host/pgrp/2023-11-14T22:14:20Z")));
    }

    @Test
    void namespaceAclsShowTheStoreAndFilterNamespaces() throws Exception {
        JsonNode list = http.get(DS, teamUser).json().get("data");
        assertEquals(1, list.size(), "visible through /datastore/store/team");
        assertEquals("store", list.get(0).get("store").asText());
        assertTrue(list.get(0).get("comment").isNull());
        List<String> ns = new ArrayList<>();
        http.get(DS + "/store/namespace", teamUser).json().get("data").forEach(n -> ns.add(n.get("ns").asText()));
        assertEquals(List.of("team", "team/sub"), ns);
        List<String> shallow = new ArrayList<>();
        http.get(DS + "/store/namespace?parent=team&max-depth=0", teamUser).json().get("data")
                .forEach(n -> shallow.add(n.get("ns").asText()));
        assertEquals(List.of("team"), shallow);
        Resp r = http.get(DS + "/store/groups", teamUser);
        assertEquals(403, r.status());
        assertEquals("permission check failed - missing Datastore.Audit|Datastore.Backup on /datastore/store", r.text());
        assertEquals(List.of("web"), ids(http.get(DS + "/store/groups?ns=team", teamUser).json().get("data")));
        r = http.get(DS + "/store/namespace?parent=other", teamUser);
        assertEquals(403, r.status());
        assertEquals("permission check failed", r.text(), "PBS: nothing visible below a parent without privileges");
        r = http.get(DS + "/store/namespace?parent=nosuch", teamUser);
        assertEquals(403, r.status());
        assertEquals("permission check failed", r.text(), "a missing namespace looks like a forbidden one");
        r = http.get(DS + "/store/namespace?max-depth=8", teamUser);
        assertEquals("parameter verification failed - 'max-depth': value must have a maximum value of 7", r.text());
        JsonNode usage = http.get("/api2/json/status/datastore-usage", teamUser).json().get("data");
        assertEquals("{\"store\":\"store\"}", usage.get(0).toString(), "only the name through a namespace ACL");
    }
}
