package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jpbs notification endpoint|matcher|target} on a config directory
 * ({@code docs/notifications.md#api-and-commands}): create, update, show, list, remove, the
 * files they write, secrets hidden, a test notification to a local webhook receiver, and the
 * errors (unknown type: usage, exit 2; property of another type: named, exit 1).
 */
class NotificationCliTest {
    @TempDir
    Path home;

    @Test
    void manageTargetsAndMatchersAndSendATest() throws Exception {
        Path cfg = home.resolve("cfg");
        CliRunner cli = new CliRunner(home, Map.of("JPBS_CONFIG_DIR", cfg.toString()));
        List<String> got = new CopyOnWriteArrayList<>();
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/", ex -> {
            got.add(ex.getRequestURI() + " " + new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        http.start();
        try {
            String body = Base64.getEncoder().encodeToString("{\"t\":\"{{ title }}\",\"k\":\"{{ secrets.k }}\"}"
                    .getBytes(StandardCharsets.UTF_8));
            CliRunner.Result r = cli.run("notification", "endpoint", "webhook", "create", "hook", "--url",
                    "http://127.0.0.1:" + http.getAddress().getPort() + "/h", "--method", "post", "--body", body,
                    "--secret", "name=k,value=" + Base64.getEncoder().encodeToString("zebra-7".getBytes(StandardCharsets.UTF_8)));
            assertEquals(0, r.exit(), r.all());
            r = cli.run("notification", "matcher", "create", "errs", "--match-severity", "error", "--target", "hook",
                    "--comment", "only errors");
            assertEquals(0, r.exit(), r.all());
            assertTrue(Files.readString(cfg.resolve("notifications.cfg")).contains("matcher: errs\n\tcomment only errors\n"
                    + "\tmatch-severity error\n\ttarget hook\n"));

            r = cli.run("notification", "endpoint", "webhook", "show", "hook");
            assertEquals(0, r.exit(), r.all());
            assertTrue(r.out().contains("\"name=k\"") && !r.out().contains("emVicmEtNw"), r.out());
            r = cli.run("notification", "target", "list");
            assertTrue(r.out().contains("hook") && r.out().contains("mail-to-root") && r.out().contains("builtin"), r.out());

            r = cli.run("notification", "target", "test", "hook");
            assertEquals(0, r.exit(), r.all());
            assertEquals(List.of("/h {\"t\":\"Test notification\",\"k\":\"zebra-7\"}"), got);

            r = cli.run("notification", "matcher", "update", "errs", "--delete", "comment", "--mode", "any");
            assertEquals(0, r.exit(), r.all());
            r = cli.run("notification", "matcher", "list");
            assertTrue(r.out().contains("\"mode\" : \"any\"") && !r.out().contains("only errors"), r.out());

            r = cli.run("notification", "endpoint", "gotify", "create", "gy", "--url", "http://x");
            assertEquals(1, r.exit(), r.all());
            assertTrue(r.err().contains("parameter 'url': schema does not allow additional properties"), r.err());
            r = cli.run("notification", "endpoint", "pager", "list");
            assertEquals(2, r.exit(), r.all());
            r = cli.run("notification", "matcher", "remove", "errs");
            assertEquals(0, r.exit(), r.all());
            assertFalse(Files.readString(cfg.resolve("notifications.cfg")).contains("errs"));
        } finally {
            http.stop(0);
        }
    }
}
