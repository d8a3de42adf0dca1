package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scheduled job notifies like a job started by hand ({@code docs/notifications.md#events}): a
 * verification job of {@code verification.cfg} with schedule {@code *:0/1} on a datastore
 * whose snapshot is damaged fails within about a minute, and the webhook of the matcher
 * {@code match-field exact:type=verification} receives its notification with the datastore and
 * the job id.
 */
class ScheduledJobNotificationTest {
    @TempDir
    Path tmp;

    @Test
    void aFailedScheduledVerificationJobIsNotified() throws Exception {
        BlockingQueue<String> posts = new LinkedBlockingQueue<>();
        HttpServer hooks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hooks.createContext("/", ex -> {
            posts.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        hooks.start();
        Path config = tmp.resolve("config");
        Path root = tmp.resolve("ds");
        Datastore ds = DatastorePool.datastore(root, SyncLevel.NONE);
        OwnershipApiTest.snapshot(ds, BackupNamespace.ROOT, "web", 1_700_000_000L, "root@pam");
        Path blob = ds.snapshotDir(new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "web"),
                1_700_000_000L)).resolve("host.conf.blob");
        byte[] b = Files.readAllBytes(blob);
        b[b.length - 1] ^= 0x55;
        Files.write(blob, b);
        AuthConfig.open(config);
        Files.writeString(config.resolve("datastore.cfg"), "datastore: store1\n\tpath " + root + "\n");
        Files.writeString(config.resolve("verification.cfg"),
                "verification: verify1\n\tignore-verified false\n\tschedule *:0/1\n\tstore store1\n");
        String body = "{\"title\":\"{{ title }}\",\"severity\":\"{{ severity }}\",\"type\":\"{{ fields.type }}\","
                + "\"datastore\":\"{{ fields.datastore }}\",\"job\":\"{{ fields.job-id }}\"}";
        Files.writeString(config.resolve("notifications.cfg"), "webhook: hook\n\tbody "
                + Base64.getEncoder().encodeToString(body.getBytes(StandardCharsets.UTF_8)) + "\n\tmethod post\n\turl http://127.0.0.1:"
                + hooks.getAddress().getPort() + "/\n\nmatcher: verifications\n\tmatch-field exact:type=verification\n\ttarget hook\n");
        try (JpbsServer server = ApiTestSupport.startWithJobs(config, Map.of())) {
            server.services().scheduler().start(new ScheduledJobs(server.services(), config)::all, Duration.ofSeconds(1));
            String post = posts.poll(80, TimeUnit.SECONDS);
            assertNotNull(post, "the scheduled verification job was notified within 80 s");
            JsonNode j = ApiTestSupport.JSON.readTree(post);
            assertEquals("Verify Datastore 'store1' failed", j.get("title").asText());
            assertEquals("error", j.get("severity").asText());
            assertEquals("verification", j.get("type").asText());
            assertEquals("store1", j.get("datastore").asText());
            assertEquals("verify1", j.get("job").asText());
            assertTrue(server.services().notifier().failedCount() == 0);
        } finally {
            hooks.stop(0);
        }
    }
}
