package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import jakarta.mail.internet.MimeMessage;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.jpbs.server.api.ApiTestSupport.Client;
import org.jpbs.server.api.ApiTestSupport.Resp;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Notifications of task ends on a running server ({@code docs/notifications.md}): a real SMTP
 * server (GreenMail on 127.0.0.1), a webhook receiver and a webhook target whose port is
 * closed. A garbage collection that fails (a broken index in a snapshot) mails the
 * {@code smtp} target and POSTs to the webhook, each with job type, datastore and the task log
 * excerpt; the dead target is logged and changes nothing. Matchers filter: {@code errors}
 * ({@code match-severity error}) sends failures to mail + webhook, {@code gc-ok}
 * ({@code match-field exact:type=gc}, {@code match-severity info}) sends successful GCs to the
 * webhook only, so a successful verify notifies nobody.
 */
class TaskNotificationServerTest {
    static final String DS = "/api2/json/admin/datastore/store";
    static final String TASKS = "/api2/json/nodes/localhost/tasks/";

    @TempDir
    static Path tmp;
    static GreenMail mail;
    static HttpServer hooks;
    static final BlockingQueue<String[]> received = new LinkedBlockingQueue<>();
    static JpbsServer server;
    static Client http;
    static Map<String, String> admin;
    static Path root;
    static Path broken;

    @BeforeAll
    static void start() throws Exception {
        mail = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        mail.start();
        hooks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hooks.createContext("/", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            received.add(new String[] {ex.getRequestMethod(), ex.getRequestURI().toString(),
                    ex.getRequestHeaders().getFirst("Content-Type"), ex.getRequestHeaders().getFirst("X-Secret"),
                    new String(body, StandardCharsets.UTF_8)});
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        hooks.start();
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }

        root = tmp.resolve("ds");
        Datastore ds = DatastorePool.datastore(root, SyncLevel.NONE);
        OwnershipApiTest.snapshot(ds, BackupNamespace.ROOT, "web", 1_700_000_000L, "alice@pbs");
        broken = ds.snapshotDir(new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "web"),
                1_700_000_000L)).resolve("broken.fidx");
        Files.write(broken, "this is not an index file".getBytes(StandardCharsets.UTF_8));

        Path config = tmp.resolve("config");
        AuthConfig cfg = AuthConfig.open(config);
        cfg.addUser("alice@pbs", null, null);
        String secret = cfg.createToken("alice@pbs", "admin", null);
        cfg.updateAcl("/datastore", "alice@pbs", "DatastoreAdmin", true, false);
        cfg.updateAcl("/datastore", "alice@pbs!admin", "DatastoreAdmin", true, false);
        admin = OwnershipApiTest.token("alice@pbs!admin", secret);
        String body = "{\"title\":\"{{ title }}\",\"severity\":\"{{ severity }}\",\"type\":\"{{ fields.type }}\","
                + "\"datastore\":\"{{ fields.datastore }}\",\"message\":\"{{ escape message }}\"}";
        Files.writeString(config.resolve("notifications.cfg"), """
                smtp: mail
                \tfrom-address jpbs@example.com
                \tmailto admin@example.com
                \tmailto ops@example.com
                \tmode insecure
                \tport %d
                \tserver 127.0.0.1

                webhook: hook
                \tbody %s
                \theader name=Content-Type,value=%s
                \theader name=X-Secret,value=%s
                \tmethod post
                \turl http://127.0.0.1:%d/hook?severity={{ url-encode severity }}

                webhook: dead
                \tmethod post
                \turl http://127.0.0.1:%d/nobody

                matcher: errors
                \tmatch-severity error
                \ttarget mail
                \ttarget hook
                \ttarget dead

                matcher: gc-ok
                \tmatch-field exact:type=gc
                \tmatch-severity info,notice
                \ttarget hook
                """.formatted(mail.getSmtp().getPort(), b64(body), b64("application/json"), b64("{{ secrets.key }}"),
                hooks.getAddress().getPort(), closedPort));
        Files.writeString(config.resolve("notifications-priv.cfg"), "webhook: hook\n\tsecret name=key,value="
                + b64("s3cr3t-value") + "\n");
        server = ApiTestSupport.startWithJobs(config, Map.of("store", root));
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
        if (hooks != null) {
            hooks.stop(0);
        }
        if (mail != null) {
            mail.stop();
        }
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Starts a job and waits for its end; returns its exit status. */
    static String runTask(String path, String form) throws Exception {
        Resp r = http.send("POST", DS + "/" + path, admin, form);
        assertEquals(200, r.status(), r.text());
        String upid = r.json().get("data").asText();
        for (int i = 0; i < 300; i++) {
            JsonNode s = http.get(TASKS + java.net.URLEncoder.encode(upid, StandardCharsets.UTF_8) + "/status", admin)
                    .json().get("data");
            if (s.get("status").asText().equals("stopped")) {
                return s.get("exitstatus").asText();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("task " + upid + " did not end");
    }

    @Test
    void aFailedGcIsMailedAndPostedAndSuccessesFollowTheMatchers() throws Exception {
        // 1. a failing GC: mail + webhook, with type, datastore and the task log excerpt
        String status = runTask("gc", "");
        assertTrue(status.startsWith("cannot mark the chunks of index"), status);

        for (int i = 0; i < 150 && mail.getReceivedMessages().length < 2; i++) {
            Thread.sleep(100);
        }
        assertEquals(2, mail.getReceivedMessages().length, "one mail per recipient within 15 s");
        MimeMessage m = mail.getReceivedMessages()[0];
        assertEquals("Garbage Collect Datastore 'store' failed", m.getSubject());
        assertEquals("Proxmox Backup Server <jpbs@example.com>", m.getFrom()[0].toString());
        String text = ((String) m.getContent()).replace("\r\n", "\n");
        assertTrue(text.contains("Job type:  gc\n"), text);
        assertTrue(text.contains("Datastore: store\n"), text);
        // the API hides server paths in the exit status; the admin's mail names the broken file
        assertTrue(text.contains("Status:    cannot mark the chunks of index " + broken), text);
        assertTrue(text.contains("TASK ERROR: cannot mark the chunks of index " + broken), "task log excerpt: " + text);
        assertTrue(text.contains("fixed index shorter than its 4096-byte header"), text);
        assertEquals(2, m.getAllRecipients().length);

        String[] hook = received.poll(15, TimeUnit.SECONDS);
        assertNotNull(hook, "webhook POST within 15 s");
        assertEquals("POST", hook[0]);
        assertEquals("/hook?severity=error", hook[1]);
        assertEquals("application/json", hook[2]);
        assertEquals("s3cr3t-value", hook[3]);
        JsonNode j = ApiTestSupport.JSON.readTree(hook[4]);
        assertEquals("Garbage Collect Datastore 'store' failed", j.get("title").asText());
        assertEquals("error", j.get("severity").asText());
        assertEquals("gc", j.get("type").asText());
        assertEquals("store", j.get("datastore").asText());
        assertTrue(j.get("message").asText().contains("TASK ERROR: cannot mark the chunks of index " + broken), j.toString());

        // 2. the GC succeeds: matcher gc-ok sends it to the webhook only (no mail)
        Files.delete(broken);
        assertEquals("OK", runTask("gc", ""));
        hook = received.poll(15, TimeUnit.SECONDS);
        assertNotNull(hook, "successful GC posted by matcher gc-ok");
        j = ApiTestSupport.JSON.readTree(hook[4]);
        assertEquals("Garbage Collect Datastore 'store' successful", j.get("title").asText());
        assertEquals("info", j.get("severity").asText());
        assertEquals("/hook?severity=info", hook[1]);

        // 3. a successful verify matches no matcher: nothing is sent
        assertEquals("OK", runTask("verify", ""));
        assertNull(received.poll(2, TimeUnit.SECONDS), "nothing posted for a successful verify");
        Thread.sleep(500);
        assertEquals(2, mail.getReceivedMessages().length, "no more mail than the failure's");
        // the dead target failed without harm: counted, and every other send went through
        assertEquals(1, server.services().notifier().failedCount());
        assertEquals(3, server.services().notifier().sentCount());
    }
}
