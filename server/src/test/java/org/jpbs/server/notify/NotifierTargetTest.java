package org.jpbs.server.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Notifier#test} against real receivers on 127.0.0.1: an SMTP server (GreenMail; with
 * and without SMTP AUTH), the sendmail target's SMTP-to-localhost fallback, a Gotify-style HTTP
 * receiver; a receiver answering 500 and a secret that must not appear in the error.
 */
class NotifierTargetTest {
    @TempDir
    Path config;
    GreenMail mail;
    HttpServer http;
    final List<String[]> got = new CopyOnWriteArrayList<>();
    int status = 200;

    @BeforeEach
    void start() throws IOException {
        mail = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        mail.start();
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/", ex -> {
            got.add(new String[] {ex.getRequestURI().toString(), ex.getRequestHeaders().getFirst("X-Gotify-Key"),
                    new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)});
            ex.sendResponseHeaders(status, -1);
            ex.close();
        });
        http.start();
    }

    @AfterEach
    void stop() {
        mail.stop();
        http.stop(0);
        System.clearProperty("jpbs.notify.local-smtp-port");
        System.clearProperty("jpbs.notify.sendmail");
    }

    Notifier notifier(String cfg, String priv) throws IOException {
        Files.writeString(config.resolve(NotificationConfig.FILE), cfg);
        Files.writeString(config.resolve(NotificationConfig.PRIV_FILE), priv);
        return new Notifier(config, "pbs1");
    }

    @Test
    void smtpTargetDeliversToARealSmtpServer() throws Exception {
        Notifier n = notifier("smtp: m\n\tserver 127.0.0.1\n\tport " + mail.getSmtp().getPort()
                + "\n\tmode insecure\n\tmailto root@example.com\n\tfrom-address jpbs@example.com\n\tauthor jpbs\n", "");
        n.test("m");
        MimeMessage[] got = mail.getReceivedMessages();
        assertEquals(1, got.length);
        assertEquals("Test notification", got[0].getSubject());
        assertEquals("root@example.com", got[0].getAllRecipients()[0].toString());
        assertEquals("jpbs <jpbs@example.com>", got[0].getFrom()[0].toString());
        assertTrue(((String) got[0].getContent()).contains("notification target 'm'"));
    }

    @Test
    void smtpTargetLogsInWithUsernameAndPrivatePassword() throws Exception {
        mail.setUser("jpbs@example.com", "mailuser", "mailpass");
        Notifier n = notifier("smtp: m\n\tserver 127.0.0.1\n\tport " + mail.getSmtp().getPort()
                + "\n\tmode insecure\n\tusername mailuser\n\tmailto root@example.com\n\tfrom-address jpbs@example.com\n",
                "smtp: m\n\tpassword mailpass\n");
        n.test("m");
        assertEquals(1, mail.getReceivedMessages().length);
    }

    @Test
    void sendmailTargetWithoutBinaryUsesSmtpOnLocalhostAndUserEmail() throws Exception {
        System.setProperty("jpbs.notify.sendmail", config.resolve("no-sendmail").toString());
        System.setProperty("jpbs.notify.local-smtp-port", Integer.toString(mail.getSmtp().getPort()));
        Files.writeString(config.resolve("user.cfg"), "user: alice@pbs\n\temail alice@example.com\n\tenable true\n");
        Notifier n = notifier("sendmail: s\n\tmailto-user alice@pbs\n\tmailto-user nobody@pbs\n", "");
        n.test("s");
        MimeMessage[] got = mail.getReceivedMessages();
        assertEquals(1, got.length);
        assertEquals("alice@example.com", got[0].getAllRecipients()[0].toString());
        assertEquals("root@pbs1", ((jakarta.mail.internet.InternetAddress) got[0].getFrom()[0]).getAddress());
    }

    @Test
    void gotifyTargetPostsTitleMessagePriorityWithToken() throws Exception {
        Notifier n = notifier("gotify: g\n\tserver http://127.0.0.1:" + http.getAddress().getPort() + "/\n",
                "gotify: g\n\ttoken T0KEN\n");
        n.test("g");
        assertEquals(1, got.size());
        assertEquals("/message", got.getFirst()[0]);
        assertEquals("T0KEN", got.getFirst()[1]);
        var j = new com.fasterxml.jackson.databind.ObjectMapper().readTree(got.getFirst()[2]);
        assertEquals("Test notification", j.get("title").asText());
        assertEquals(1, j.get("priority").asInt());
        assertEquals("text/markdown", j.at("/extras/client::display/contentType").asText());
    }

    @Test
    void aFailingReceiverIsAnErrorWithTheSecretMasked() throws Exception {
        status = 500;
        Notifier n = notifier("webhook: w\n\tmethod post\n\turl http://127.0.0.1:" + http.getAddress().getPort()
                + "/x?token={{ secrets.tok }}\n", "webhook: w\n\tsecret name=tok,value="
                + java.util.Base64.getEncoder().encodeToString("hush-hush".getBytes(StandardCharsets.UTF_8)) + "\n");
        IOException e = assertThrows(IOException.class, () -> n.test("w"));
        assertTrue(e.getMessage().startsWith("HTTP 500"), e.getMessage());
        assertEquals("/x?token=hush-hush", got.getFirst()[0]);
        status = 200;
        http.stop(0);
        IOException down = assertThrows(IOException.class, () -> n.test("w"));
        assertTrue(!down.getMessage().contains("hush-hush") && down.getMessage().contains("connect"), down.getMessage());
        assertThrows(IllegalArgumentException.class, () -> n.test("nope"));
    }
}
