package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import jakarta.mail.internet.MimeMessage;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.jobs.JobKind;
import org.jpbs.server.ServerServices;
import org.jpbs.server.api.ScheduledJobs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sync job whose remote's certificate changed fails with both fingerprints in its task log,
 * and the failure is notified ({@code docs/sync.md#remotes}, {@code docs/notifications.md}): the
 * server's scheduler runs the job with the sync engine {@code jpbs serve} hands in; a matcher on
 * {@code type=sync} sends the error to a real SMTP server (GreenMail on 127.0.0.1), whose mail
 * names the job and carries the fingerprint error from the task log, and to a webhook receiver.
 */
class SyncNotificationTest {
    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    @Test
    void aChangedRemoteCertificateFailsTheJobAndIsNotified() throws Exception {
        BlockingQueue<String> posts = new LinkedBlockingQueue<>();
        HttpServer hooks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hooks.createContext("/", ex -> {
            posts.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        hooks.start();
        GreenMail mail = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        mail.start();
        try (NetTestServer remote = NetTestServer.startWithUsers(tmp.resolve("remote"));
             NetTestServer local = NetTestServer.startWithUsers(tmp.resolve("local"))) {
            Path config = local.dir.resolve("config");
            // pinned: the local server's own fingerprint, not the remote's (as after a renewal)
            Files.writeString(config.resolve("remote.cfg"), "remote: offsite\n\thost 127.0.0.1\n\tport " + remote.port()
                    + "\n\tauth-id " + NetTestServer.TOKEN_ID + "\n\tpassword " + Base64.getEncoder().encodeToString(
                    remote.tokenSecret.getBytes(StandardCharsets.UTF_8)) + "\n\tfingerprint " + local.fingerprint() + "\n");
            String body = "{\"title\":\"{{ title }}\",\"severity\":\"{{ severity }}\",\"type\":\"{{ fields.type }}\"}";
            Files.writeString(config.resolve("notifications.cfg"), "smtp: mail\n\tfrom-address jpbs@example.com\n"
                    + "\tmailto admin@example.com\n\tmode insecure\n\tport " + mail.getSmtp().getPort()
                    + "\n\tserver 127.0.0.1\n\nwebhook: hook\n\tbody "
                    + Base64.getEncoder().encodeToString(body.getBytes(StandardCharsets.UTF_8)) + "\n\tmethod post\n\turl http://127.0.0.1:"
                    + hooks.getAddress().getPort() + "/\n\nmatcher: syncs\n\tmatch-field exact:type=sync\n\ttarget mail\n"
                    + "\ttarget hook\n");
            ServerServices svc = local.server.services();
            svc.scheduler().syncTasks(org.jpbs.cli.admin.SyncEngineTasks.of(config));
            JobConfig job = new JobConfig(JobKind.SYNC, "offsite-pull", Map.of("store", NetTestServer.STORE,
                    "remote", "offsite", "remote-store", NetTestServer.STORE));
            Upid upid = svc.scheduler().runNow(new ScheduledJobs(svc, config).of(job), "root@pam");
            String post = posts.poll(60, TimeUnit.SECONDS);
            assertNotNull(post, "the failed sync job was notified");
            JsonNode j = new ObjectMapper().readTree(post);
            assertEquals("error", j.get("severity").asText(), post);
            assertEquals("sync", j.get("type").asText(), post);
            assertEquals("Sync remote 'offsite' datastore 'store1' failed", j.get("title").asText(), post);
            String error = "remote 'offsite' (127.0.0.1:" + remote.port()
                    + "): the server's certificate changed - remote.cfg pins fingerprint " + local.fingerprint()
                    + ", the server presents " + remote.fingerprint();
            String log = String.join("\n", svc.tasks().log(upid, 0, Long.MAX_VALUE).lines());
            assertTrue(log.contains("TASK ERROR: " + error), log);

            assertTrue(mail.waitForIncomingEmail(60_000, 1), "the failed sync job was mailed");
            MimeMessage m = mail.getReceivedMessages()[0];
            assertEquals("Sync remote 'offsite' datastore 'store1' failed", m.getSubject());
            assertEquals("admin@example.com", m.getAllRecipients()[0].toString());
            String text = ((String) m.getContent()).replace("\r\n", "\n");
            assertTrue(text.contains("Job type:  sync\nJob ID:    offsite-pull\nDatastore: store1\n"), text);
            assertTrue(text.contains("Status:    " + error + "; check the server, then update the remote's fingerprint"),
                    text);
            assertTrue(text.contains("TASK ERROR: " + error), "task log excerpt: " + text);
        } finally {
            hooks.stop(0);
            mail.stop();
        }
    }
}
