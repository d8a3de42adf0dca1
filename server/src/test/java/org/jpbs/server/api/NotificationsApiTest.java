package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.api.ApiTestSupport.Client;
import org.jpbs.server.api.ApiTestSupport.Resp;
import org.jpbs.server.auth.AuthConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /api2/json/config/notifications/...} ({@code docs/notifications.md#api-and-commands}):
 * privileges per role (the datastore roles have no rights here; Audit on
 * /system/notifications reads; Admin changes), secrets never answered and kept in the 0600
 * private file, updates keep secrets given by name, built-ins cannot be removed, a test of a
 * target that is down is a 500 naming it.
 */
class NotificationsApiTest {
    static final String N = "/api2/json/config/notifications";

    @TempDir
    static Path tmp;
    static Path config;
    static JpbsServer server;
    static Client http;
    static final Map<String, Map<String, String>> caller = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        Path root = tmp.resolve("ds");
        Datastore.create(root, SyncLevel.NONE);
        config = tmp.resolve("config");
        AuthConfig cfg = AuthConfig.open(config);
        cfg.addUser("alice@pbs", null, null);
        cfg.updateAcl("/", "alice@pbs", "Admin", true, false);
        for (String[] t : new String[][] {{"backup", "/datastore", "DatastoreBackup"},
                {"power", "/datastore", "DatastorePowerUser"}, {"dsadmin", "/datastore", "DatastoreAdmin"},
                {"audit", "/datastore", "DatastoreAudit"}, {"reader", "/datastore", "DatastoreReader"},
                {"sysaudit", "/system/notifications", "Audit"}, {"admin", "/", "Admin"}}) {
            String secret = cfg.createToken("alice@pbs", t[0], null);
            cfg.updateAcl(t[1], "alice@pbs!" + t[0], t[2], true, false);
            caller.put(t[0], OwnershipApiTest.token("alice@pbs!" + t[0], secret));
        }
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
    }

    static Resp as(String who, String method, String path, String form) throws Exception {
        return http.send(method, N + path, caller.get(who), form);
    }

    @Test
    void datastoreRolesHaveNoRightsAuditReadsAdminChanges() throws Exception {
        for (String who : new String[] {"backup", "power", "dsadmin", "audit", "reader"}) {
            Resp r = as(who, "GET", "/targets", null);
            assertEquals(403, r.status(), who);
            assertTrue(r.text().contains("permission check failed - missing Sys.Audit on /system/notifications"), r.text());
            assertEquals(403, as(who, "POST", "/endpoints/gotify", "name=g1&server=http://x&token=t").status(), who);
        }
        assertEquals(200, as("sysaudit", "GET", "/targets", null).status());
        assertEquals(200, as("sysaudit", "GET", "/matchers", null).status());
        Resp r = as("sysaudit", "POST", "/endpoints/gotify", "name=g1&server=http://x&token=t");
        assertEquals(403, r.status());
        assertTrue(r.text().contains("missing Sys.Modify"), r.text());
        assertEquals(403, as("sysaudit", "POST", "/targets/mail-to-root/test", "").status());
        assertEquals(401, http.send("GET", N + "/targets", Map.of(), null).status());
    }

    @Test
    void secretsAreKeptPrivateAndNeverAnswered() throws Exception {
        assertEquals(200, as("admin", "POST", "/endpoints/smtp", "name=mail1&server=127.0.0.1&port=2525&mode=insecure"
                + "&from-address=a%40example.com&mailto=x%40example.com&mailto=y%40example.com&username=u&password=PW-123")
                .status());
        assertEquals(200, as("admin", "POST", "/endpoints/webhook", "name=hook1&url=http://127.0.0.1:1/x&method=post"
                + "&secret=name%3Dk%2Cvalue%3DU0VDUkVU&comment=first").status());
        assertEquals(200, as("admin", "POST", "/matchers", "name=m1&match-severity=error&target=mail1&target=hook1")
                .status());
        String pub = Files.readString(config.resolve("notifications.cfg"));
        String priv = Files.readString(config.resolve("notifications-priv.cfg"));
        assertFalse(pub.contains("PW-123") || pub.contains("U0VDUkVU"), pub);
        assertTrue(priv.contains("\tpassword PW-123\n") && priv.contains("\tsecret name=k,value=U0VDUkVU\n"), priv);
        assertTrue(pub.contains("\tmailto x@example.com\n\tmailto y@example.com\n"), pub);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(config.resolve("notifications-priv.cfg"))));

        JsonNode smtp = as("sysaudit", "GET", "/endpoints/smtp/mail1", null).json().get("data");
        assertFalse(smtp.has("password"), smtp.toString());
        assertEquals(2, smtp.get("mailto").size());
        JsonNode hook = as("admin", "GET", "/endpoints/webhook", null).json().get("data").get(0);
        assertEquals("[\"name=k\"]", hook.get("secret").toString());
        assertFalse(as("admin", "GET", "/targets", null).text().contains("U0VDUkVU"));

        // update: the secret named without a value keeps its value; delete removes the comment
        assertEquals(200, as("admin", "PUT", "/endpoints/webhook/hook1", "secret=name%3Dk&delete=comment").status());
        assertTrue(Files.readString(config.resolve("notifications-priv.cfg")).contains("secret name=k,value=U0VDUkVU"));
        assertFalse(as("admin", "GET", "/endpoints/webhook/hook1", null).json().get("data").has("comment"));

        Resp bad = as("admin", "POST", "/matchers", "name=m2&target=nope");
        assertEquals(400, bad.status());
        assertTrue(bad.text().contains("target 'nope' does not exist"), bad.text());
        assertEquals(400, as("admin", "POST", "/endpoints/smtp", "name=mail2&server=x").status());
        assertEquals(404, as("admin", "GET", "/endpoints/smtp/none", null).status());

        Resp t = as("admin", "POST", "/targets/hook1/test", "");
        assertEquals(500, t.status());
        assertTrue(t.text().contains("hook1") && t.text().contains("connect") && !t.text().contains("SECRET"), t.text());
        assertEquals(404, as("admin", "POST", "/targets/none/test", "").status());

        assertEquals(400, as("admin", "DELETE", "/endpoints/sendmail/mail-to-root", null).status());
        assertEquals(200, as("admin", "DELETE", "/matchers/m1", null).status());
        assertEquals(200, as("admin", "DELETE", "/endpoints/smtp/mail1", null).status());
        assertFalse(Files.readString(config.resolve("notifications-priv.cfg")).contains("PW-123"));
    }
}
