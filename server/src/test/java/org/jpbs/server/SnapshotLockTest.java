package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.datastore.prune.PruneOptions;
import org.jpbs.datastore.prune.Pruner;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.api.JpbsRestHandler;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot locks of sessions ({@code docs/protocol.md#backup-upgrade} step 9, {@code docs/protocol.md#reader-session};
 * {@code docs/gc.md#prune}): while a reader session reads a snapshot, or a backup
 * builds on it, forget answers 400 naming the snapshot as locked and prune keeps it with a
 * warning; once the session ends (also by a dropped connection) both work.
 */
class SnapshotLockTest {
    static final long T = 1_700_000_000L;
    static final String DS = "/api2/json/admin/datastore";

    @TempDir
    static Path tmp;
    static JpbsServer server;
    static HttpClient http;
    static String token;
    static Datastore ds;

    @BeforeAll
    static void start() throws Exception {
        Path cfgDir = tmp.resolve("config");
        AuthConfig auth = AuthConfig.open(cfgDir);
        token = "root@pam!admin:" + auth.createToken("root@pam", "admin", null);
        auth.updateAcl("/", "root@pam!admin", "Admin", true, false);
        Path p = tmp.resolve("ds-store1");
        ds = DatastorePool.datastore(p, SyncLevel.NONE);
        DatastoreConfigStore.open(cfgDir).update(f -> f.withDatastore(new DatastoreConfig("store1",
                Map.of("path", p.toString(), "tuning", "sync-level=none"))));
        FileAuthenticator fa = FileAuthenticator.open(cfgDir);
        ServerConfig sc = new ServerConfig(cfgDir, Map.of(), "127.0.0.1", 0);
        server = JpbsServer.start(sc, fa, JpbsRestHandler.create(sc, fa).withFailureDelays(Duration.ZERO, Duration.ZERO));
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] c, String a) {}

            @Override
            public void checkServerTrusted(X509Certificate[] c, String a) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
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

    record Resp(int status, String text) {}

    static Resp forget(String id, long time) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + DS
                        + "/store1/snapshots?backup-type=vm&backup-id=" + id + "&backup-time=" + time))
                .header("Authorization", "PBSAPIToken=" + token).timeout(Duration.ofSeconds(60))
                .method("DELETE", HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> a = http.send(r, HttpResponse.BodyHandlers.ofString());
        return new Resp(a.statusCode(), a.body());
    }

    static PbsTestClient session(String protocol, String path, String query) throws Exception {
        PbsTestClient c = PbsTestClient.connect(server.port(), server.fingerprint(), protocol);
        c.upgradeOrFail(path, query, token);
        return c;
    }

    static void backup(String id, long time) throws Exception {
        try (PbsTestClient c = session(PbsTestClient.BACKUP, "/api2/json/backup", Backups.backupQuery("store1", id, time))) {
            Backups.imageBackup(c, id, time, Backups.image(time, 1, 1000));
        }
        awaitIdle();
    }

    static void awaitIdle() throws InterruptedException {
        for (int i = 0; i < 600 && server.activeSessions() > 0; i++) {
            Thread.sleep(50);
        }
        assertEquals(0, server.activeSessions(), "sessions still live after 30 s");
    }

    static BackupSnapshotRef vm(String id, long time) {
        return new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, id), time);
    }

    static void assertLockedRefusal(Resp r, String id, long time) {
        assertEquals(400, r.status(), r.text());
        String snap = "vm/" + id + "/" + BackupSnapshotRef.formatTime(time);
        assertTrue(r.text().contains("snapshot " + snap) && r.text().contains("is locked by another operation"), r.text());
        assertFalse(r.text().contains("\n"), "one line: " + r.text());
    }

    @Test
    void readerSessionBlocksForgetAndPruneUntilItEnds() throws Exception {
        backup("100", T);
        backup("100", T + 60);
        String q = "backup-id=100&backup-time=" + T + "&backup-type=vm&store=store1";
        try (PbsTestClient reader = session(PbsTestClient.READER, "/api2/json/reader", q)) {
            assertEquals(200, reader.call("GET", "/download?file-name=index.json.blob").status());
            Resp r = forget("100", T);
            assertLockedRefusal(r, "100", T);
            assertTrue(r.text().contains("reader"), r.text());
            // prune (keep-last 1 marks T for removal): PBS warns and keeps the snapshot
            Pruner.Result pr = Pruner.prune(ds, vm("100", T).group(),
                    new PruneOptions(1, null, null, null, null, null), false, ZoneOffset.UTC);
            assertTrue(pr.removed().isEmpty(), pr.toString());
            assertEquals(1, pr.warnings().size(), pr.toString());
            assertTrue(pr.warnings().get(0).contains("is locked by another operation"), pr.warnings().get(0));
            assertTrue(Files.isDirectory(ds.snapshotDir(vm("100", T))));
            assertEquals(200, reader.call("GET", "/download?file-name=index.json.blob").status(), "reader unaffected");
        }
        awaitIdle();
        assertEquals(200, forget("100", T).status(), "free once the reader closed");
        assertFalse(Files.exists(ds.snapshotDir(vm("100", T))));
    }

    @Test
    void droppedReaderConnectionReleasesTheLock() throws Exception {
        backup("101", T);
        PbsTestClient reader = session(PbsTestClient.READER, "/api2/json/reader",
                "backup-id=101&backup-time=" + T + "&backup-type=vm&store=store1");
        assertEquals(200, reader.call("GET", "/download?file-name=index.json.blob").status());
        assertLockedRefusal(forget("101", T), "101", T);
        reader.abort();
        awaitIdle();
        assertEquals(200, forget("101", T).status());
    }

    @Test
    void runningBackupLocksItsPreviousSnapshotUntilTheConnectionDrops() throws Exception {
        backup("102", T);
        PbsTestClient b = session(PbsTestClient.BACKUP, "/api2/json/backup", Backups.backupQuery("store1", "102", T + 60));
        assertEquals(200, b.call("GET", "/previous_backup_time").status());
        Resp r = forget("102", T);
        assertLockedRefusal(r, "102", T);
        assertTrue(r.text().contains("backup"), r.text());
        b.abort(); // a killed client: the unfinished backup is removed and the base released
        awaitIdle();
        assertEquals(200, forget("102", T).status());
        assertFalse(Files.exists(ds.groupDir(vm("102", T).group())), "group removed with its last snapshot");
    }

    @Test
    void readerOfASnapshotBeingRemovedIsRefusedNotHalfServed() throws Exception {
        backup("103", T);
        // a forget holding the snapshot lock (as another process would): the reader is refused at once
        try (var l = org.jpbs.datastore.lock.DirLock.exclusive(ds.snapshotDir(vm("103", T)), "snapshot x", "forget/prune")) {
            PbsTestClient c = PbsTestClient.connect(server.port(), server.fingerprint(), PbsTestClient.READER);
            try (c) {
                PbsTestClient.Resp r = c.upgrade("/api2/json/reader?backup-id=103&backup-time=" + T
                        + "&backup-type=vm&store=store1", Map.of("Authorization", "PBSAPIToken " + token));
                assertEquals(400, r.status());
                assertTrue(r.text().contains("is locked by another operation"), r.text());
            }
        }
        awaitIdle();
    }
}
