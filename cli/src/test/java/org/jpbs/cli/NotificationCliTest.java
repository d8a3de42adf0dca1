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
 * errors (unknown type, a bad, missing or foreign option: usage, exit 2, naming the option;
 * a taken name exit 4; a missing entry exit 3) and a notifications.cfg with an unknown key.
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

            // usage errors: exit 2, one line naming the option
            r = cli.run("notification", "endpoint", "gotify", "create", "gy", "--url", "http://x");
            assertUsage(r, "--url: schema does not allow additional properties.");
            r = cli.run("notification", "endpoint", "webhook", "create", "hook2", "--url", "http://127.0.0.1:1/h");
            assertUsage(r, "--method: parameter is missing and it is not optional.");
            r = cli.run("notification", "endpoint", "webhook", "create", "hook2", "--url", "http://127.0.0.1:1/h",
                    "--method", "patch");
            assertUsage(r, "--method: value 'patch' is not defined in the enumeration.");
            r = cli.run("notification", "endpoint", "smtp", "create", "mail9", "--server", "mail.example", "--from-address",
                    "a@example", "--port", "70000");
            assertUsage(r, "--port: value must have a maximum value of 65535 (got 70000)");
            r = cli.run("notification", "endpoint", "pager", "list");
            assertEquals(2, r.exit(), r.all());
            // PBS's texts: a taken name (exit 4), a missing entry (exit 3), a target still used
            r = cli.run("notification", "endpoint", "sendmail", "create", "hook", "--mailto", "a@example");
            assertEquals(4, r.exit(), r.all());
            assertTrue(r.err().contains("Cannot create 'hook', an entity with the same name already exists"), r.err());
            r = cli.run("notification", "endpoint", "gotify", "show", "hook");
            assertEquals(3, r.exit(), r.all());
            assertTrue(r.err().contains("endpoint 'hook' not found"), r.err());
            r = cli.run("notification", "endpoint", "webhook", "remove", "hook");
            assertEquals(1, r.exit(), r.all());
            assertTrue(r.err().contains("cannot delete 'hook', referenced by: errs"), r.err());
            r = cli.run("notification", "matcher", "remove", "errs");
            assertEquals(0, r.exit(), r.all());
            assertFalse(Files.readString(cfg.resolve("notifications.cfg")).contains("errs"));

            // an unknown key in the file: one line naming file, line, key and section; nothing used
            Files.writeString(cfg.resolve("notifications.cfg"), Files.readString(cfg.resolve("notifications.cfg"))
                    .replace("\tmethod post\n", "\tmethod post\n\tmethd post\n"));
            r = cli.run("notification", "target", "list");
            assertEquals(1, r.exit(), r.all());
            assertTrue(r.err().matches("jpbs: error: notifications.cfg line \\d+: unknown property 'methd' in section"
                    + " 'webhook: hook'\\n"), r.err());
            r = cli.run("notification", "target", "test", "hook");
            assertEquals(1, r.exit(), r.all());
            assertTrue(r.err().contains("unknown property 'methd'"), r.err());
        } finally {
            http.stop(0);
        }
    }

    private static void assertUsage(CliRunner.Result r, String message) {
        assertEquals(2, r.exit(), r.all());
        assertTrue(r.err().startsWith("jpbs: error: " + message), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }
}
