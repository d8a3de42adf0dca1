package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.PrometheusText.Exposition;
import org.jpbs.server.api.JpbsRestHandler;
import org.jpbs.server.api.LocalDatastoreJobs;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} on a running server ({@code docs/metrics.md#prometheus}): Prometheus text
 * checked with a strict parser ({@link PrometheusText}); Sys.Audit on /system/status needed (a
 * DatastoreAudit-only token gets 403, no credentials 401); datastore usage gauges; the task,
 * backup and GC counters move by what a backup and a garbage collection did.
 */
class MetricsEndpointTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;
    static JpbsServer server;
    static Path root;
    static String monitor;
    static String auditOnly;
    static String admin;

    @BeforeAll
    static void start() throws Exception {
        root = tmp.resolve("ds");
        DatastorePool.create(root, SyncLevel.NONE);
        Path config = tmp.resolve("config");
        AuthConfig cfg = AuthConfig.open(config);
        cfg.addUser("alice@pbs", null, null);
        cfg.updateAcl("/", "alice@pbs", "Admin", true, false);
        monitor = "alice@pbs!mon:" + cfg.createToken("alice@pbs", "mon", null);
        cfg.updateAcl("/system/status", "alice@pbs!mon", "Audit", true, false);
        auditOnly = "alice@pbs!aud:" + cfg.createToken("alice@pbs", "aud", null);
        cfg.updateAcl("/datastore", "alice@pbs!aud", "DatastoreAudit", true, false);
        admin = "alice@pbs!admin:" + cfg.createToken("alice@pbs", "admin", null);
        cfg.updateAcl("/datastore", "alice@pbs!admin", "DatastoreAdmin", true, false);
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of("store", root), "127.0.0.1", 0);
        JpbsRestHandler rest = JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO);
        rest = rest.withServices(rest.services().withJobs(new LocalDatastoreJobs("root@pam", rest.services().budget())));
        server = JpbsServer.start(sc, auth, rest);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    static RawHttps.Response call(String method, String path, String token) throws Exception {
        try (RawHttps h = new RawHttps(server.port())) {
            return h.request(method, path, token == null ? Map.of() : Map.of("Authorization", "PBSAPIToken " + token),
                    method.equals("POST") ? new byte[0] : null);
        }
    }

    static Exposition scrape() throws Exception {
        RawHttps.Response r = call("GET", "/metrics", monitor);
        assertEquals(200, r.status(), r.text());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", r.headers().get("content-type"));
        return PrometheusText.parse(r.text());
    }

    static long chunkFiles() throws Exception {
        try (Stream<Path> s = Files.walk(root.resolve(".chunks"))) {
            return s.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().length() == 64).count();
        }
    }

    @Test
    void needsSysAuditOnSystemStatus() throws Exception {
        assertEquals(401, call("GET", "/metrics", null).status());
        RawHttps.Response r = call("GET", "/metrics", auditOnly);
        assertEquals(403, r.status());
        assertTrue(r.text().contains("permission check failed"), r.text());
        assertEquals(400, call("GET", "/metrics?x=1", monitor).status());
    }

    @Test
    void usageAndCountersMoveWithABackupAndAGc() throws Exception {
        Exposition before = scrape();
        assertEquals("gauge", before.types().get("jpbs_datastore_total_bytes"));
        double total = before.get("jpbs_datastore_total_bytes", "datastore", "store");
        double used = before.get("jpbs_datastore_used_bytes", "datastore", "store");
        double avail = before.get("jpbs_datastore_avail_bytes", "datastore", "store");
        assertTrue(total > 0 && used >= 0 && used <= total && avail <= total, total + " " + used + " " + avail);

        // two backups; the second one's snapshot is then removed and every chunk made old: GC removes its chunks
        byte[] keep = Backups.image(1, 2, 1000);
        byte[] gone = Backups.image(2, 3, 500);
        try (PbsTestClient c = PbsTestClient.connect(server.port(), server.fingerprint(), PbsTestClient.BACKUP)) {
            c.upgradeOrFail("/api2/json/backup", Backups.backupQuery("store", "keep", 1_700_000_000L), admin);
            Backups.imageBackup(c, "keep", 1_700_000_000L, keep);
        }
        try (PbsTestClient c = PbsTestClient.connect(server.port(), server.fingerprint(), PbsTestClient.BACKUP)) {
            c.upgradeOrFail("/api2/json/backup", Backups.backupQuery("store", "gone", 1_700_000_000L), admin);
            Backups.imageBackup(c, "gone", 1_700_000_000L, gone);
        }
        for (int i = 0; i < 600 && server.activeSessions() > 0; i++) {
            Thread.sleep(100);
        }
        Exposition afterBackup = scrape();
        assertEquals(before.count("jpbs_tasks_total", "type", "backup", "status", "ok") + 2,
                afterBackup.count("jpbs_tasks_total", "type", "backup", "status", "ok"));
        assertEquals("counter", afterBackup.types().get("jpbs_tasks_total"));
        double bytes = afterBackup.count("jpbs_backup_bytes_total", "type", "backup", "datastore", "store")
                - before.count("jpbs_backup_bytes_total", "type", "backup", "datastore", "store");
        assertTrue(bytes >= keep.length + gone.length, "backup bytes " + bytes);
        assertEquals(before.count("jpbs_backup_chunks_total", "type", "backup", "datastore", "store") + 3 + 4,
                afterBackup.count("jpbs_backup_chunks_total", "type", "backup", "datastore", "store"));
        assertEquals(before.count("jpbs_task_duration_seconds_count", "type", "backup", "status", "ok") + 2,
                afterBackup.count("jpbs_task_duration_seconds_count", "type", "backup", "status", "ok"));

        AtomicFiles.deleteTree(Datastore.open(root).snapshotDir(new BackupSnapshotRef(
                new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "gone"), 1_700_000_000L)));
        FileTime old = FileTime.from(Instant.now().minus(Duration.ofDays(3)));
        try (Stream<Path> s = Files.walk(root.resolve(".chunks"))) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                Files.setAttribute(p, "lastAccessTime", old);
            }
        }
        long chunksBefore = chunkFiles();
        RawHttps.Response r = call("POST", "/api2/json/admin/datastore/store/gc", admin);
        assertEquals(200, r.status(), r.text());
        String upid = JSON.readTree(r.body()).get("data").asText();
        JsonNode st = null;
        for (int i = 0; i < 600; i++) {
            st = JSON.readTree(call("GET", "/api2/json/nodes/localhost/tasks/"
                    + URLEncoder.encode(upid, StandardCharsets.UTF_8) + "/status", admin).body()).get("data");
            if (st.get("status").asText().equals("stopped")) {
                break;
            }
            Thread.sleep(100);
        }
        assertEquals("OK", st.get("exitstatus").asText());
        long removed = chunksBefore - chunkFiles();
        assertTrue(removed > 0, "GC removed chunks");

        Exposition afterGc = scrape();
        assertEquals(afterBackup.count("jpbs_tasks_total", "type", "garbage_collection", "status", "ok") + 1,
                afterGc.count("jpbs_tasks_total", "type", "garbage_collection", "status", "ok"));
        assertEquals(afterBackup.count("jpbs_gc_removed_chunks_total", "type", "garbage_collection", "datastore", "store")
                + removed, afterGc.count("jpbs_gc_removed_chunks_total", "type", "garbage_collection", "datastore", "store"));
        assertTrue(afterGc.count("jpbs_gc_removed_bytes_total", "type", "garbage_collection", "datastore", "store") > 0);
        assertEquals(chunkFiles(), afterGc.get("jpbs_datastore_chunks", "datastore", "store"));
        assertEquals(1, afterGc.count("jpbs_task_duration_seconds_count", "type", "garbage_collection", "status", "ok")
                - afterBackup.count("jpbs_task_duration_seconds_count", "type", "garbage_collection", "status", "ok"));
    }
}
