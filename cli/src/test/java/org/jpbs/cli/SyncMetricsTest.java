package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.jobs.JobKind;
import org.jpbs.server.PrometheusText;
import org.jpbs.server.PrometheusText.Exposition;
import org.jpbs.server.ServerServices;
import org.jpbs.server.api.ScheduledJobs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, "the metrics endpoint's counters move with a sync" ({@code docs/metrics.md}): a pull
 * sync job run by a server's scheduler (the engine {@code jpbs serve} hands in) from a second
 * server on loopback. The exposition (what {@code GET /metrics} answers, checked with the strict
 * parser; the endpoint itself: {@code MetricsEndpointTest}) of the pulling server counts the
 * snapshots, chunks and bytes the job copied, and nothing more for a no-change run; the source
 * server's reader counters count the same chunks.
 */
class SyncMetricsTest {
    static final String[] SYNC = {"type", "syncjob", "datastore", NetTestServer.STORE};

    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    private static Exposition scrape(NetTestServer s) {
        return PrometheusText.parse(s.server.services().metrics().scrape());
    }

    /** Runs the job now and waits (up to 120 s) until the metrics count its end. */
    private static Exposition run(NetTestServer local, JobConfig job) throws Exception {
        ServerServices svc = local.server.services();
        Path config = local.dir.resolve("config");
        double before = scrape(local).count("jpbs_tasks_total", "type", "syncjob", "status", "ok");
        var scheduled = new ScheduledJobs(svc, config).of(job);
        svc.scheduler().runNow(scheduled, "root@pam");
        for (int i = 0; i < 1200; i++) {
            Exposition e = scrape(local);
            // the task is counted when it ends; the scheduler lets go of the job just after
            if (e.count("jpbs_tasks_total", "type", "syncjob", "status", "ok") > before
                    && !svc.scheduler().isRunning(scheduled)) {
                return e;
            }
            assertEquals(0.0, e.count("jpbs_tasks_total", "type", "syncjob", "status", "error"), "the sync job failed");
            Thread.sleep(100);
        }
        throw new AssertionError("the sync job did not end within 120 s");
    }

    @Test
    void syncCountersMoveWithAPull() throws Exception {
        try (NetTestServer remote = NetTestServer.startWithUsers(tmp.resolve("remote"));
             NetTestServer local = NetTestServer.startWithUsers(tmp.resolve("local"))) {
            SyncServersTest.backup(remote.datastore(), new BackupSnapshotRef(SyncServersTest.VM100, SyncServersTest.T1),
                    5, 9, 0);
            long chunks = SyncServersTest.chunkFiles(remote.storePath);
            Path config = local.dir.resolve("config");
            Files.writeString(config.resolve("remote.cfg"), "remote: offsite\n\thost 127.0.0.1\n\tport " + remote.port()
                    + "\n\tauth-id " + NetTestServer.TOKEN_ID + "\n\tpassword " + Base64.getEncoder().encodeToString(
                    remote.tokenSecret.getBytes(StandardCharsets.UTF_8)) + "\n\tfingerprint " + remote.fingerprint() + "\n");
            local.server.services().scheduler().syncTasks(org.jpbs.cli.admin.SyncEngineTasks.of(config));
            JobConfig job = new JobConfig(JobKind.SYNC, "offsite-pull", Map.of("store", NetTestServer.STORE,
                    "remote", "offsite", "remote-store", NetTestServer.STORE));
            Exposition before = scrape(local);
            double served = scrape(remote).count("jpbs_restore_chunks_total", "type", "reader", "datastore",
                    NetTestServer.STORE);

            Exposition first = run(local, job);
            assertEquals("counter", first.types().get("jpbs_sync_chunks_total"));
            assertEquals(1, first.count("jpbs_sync_snapshots_total", SYNC) - before.count("jpbs_sync_snapshots_total", SYNC));
            assertEquals(chunks, first.count("jpbs_sync_chunks_total", SYNC) - before.count("jpbs_sync_chunks_total", SYNC));
            double bytes = first.count("jpbs_sync_bytes_total", SYNC) - before.count("jpbs_sync_bytes_total", SYNC);
            assertTrue(bytes >= 9 << 20, "random data does not compress: " + bytes + " bytes for 9 MiB");
            double sent = 0;
            for (int i = 0; i < 300 && sent < chunks; i++) { // the reader task ends when its connection closes
                sent = scrape(remote).count("jpbs_restore_chunks_total", "type", "reader", "datastore", NetTestServer.STORE)
                        - served;
                Thread.sleep(i == 0 ? 0 : 100);
            }
            assertEquals(chunks, sent, "the source's reader sessions sent the same chunks");

            // an incremental backup on the source: only its new chunk crosses
            SyncServersTest.backup(remote.datastore(), new BackupSnapshotRef(SyncServersTest.VM100,
                    SyncServersTest.T1 + 3600), 5, 9, 7);
            Exposition second = run(local, job);
            assertEquals(1, second.count("jpbs_sync_snapshots_total", SYNC) - first.count("jpbs_sync_snapshots_total", SYNC));
            assertEquals(1, second.count("jpbs_sync_chunks_total", SYNC) - first.count("jpbs_sync_chunks_total", SYNC));
            assertEquals(chunks - 1, second.count("jpbs_sync_chunks_reused_total", SYNC)
                    - first.count("jpbs_sync_chunks_reused_total", SYNC), "the unchanged chunks were not sent");

            Exposition third = run(local, job); // nothing changed: the task is counted, no transfer
            assertEquals(second.count("jpbs_sync_chunks_total", SYNC), third.count("jpbs_sync_chunks_total", SYNC));
            assertEquals(second.count("jpbs_sync_snapshots_total", SYNC), third.count("jpbs_sync_snapshots_total", SYNC));
            assertEquals(2, third.count("jpbs_task_duration_seconds_count", "type", "syncjob", "status", "ok")
                    - first.count("jpbs_task_duration_seconds_count", "type", "syncjob", "status", "ok"));
        }
    }
}
