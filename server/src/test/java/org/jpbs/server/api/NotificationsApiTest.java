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
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /api2/json/config/notifications/...} ({@code docs/notifications.md#api-and-commands}):
 * privileges per role (the datastore roles have no rights here; Audit on
 * /system/notifications reads; Admin changes), secrets never answered and kept in the 0600
 * private file, updates keep secrets given by name, built-ins cannot be removed, a test of a
 * target that is down is a 500 naming it; PBS's error texts; a file with an unknown key is
 * refused in one line naming file, line, key and section.
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
        DatastorePool.create(root, SyncLevel.NONE);
        config = tmp.resolve("config");
        caller.putAll(ApiTestSupport.roleCallers(AuthConfig.open(config), "/system/notifications"));
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

        // PBS's error texts (proxmox-notify, proxmox-schema)
        assertError(404, "endpoint 'nope' does not exist", as("admin", "POST", "/matchers", "name=m2&target=nope"));
        assertError(400, "parameter verification failed - 'from-address': parameter is missing and it is not optional.",
                as("admin", "POST", "/endpoints/smtp", "name=mail2&server=x"));
        assertError(400, "parameter verification failed - 'port': value must have a maximum value of 65535 (got 70000)",
                as("admin", "POST", "/endpoints/smtp", "name=mail2&server=x&from-address=a%40b&port=70000"));
        assertError(400, "parameter verification failed - 'method': value 'patch' is not defined in the enumeration.",
                as("admin", "POST", "/endpoints/webhook", "name=hook2&url=http://127.0.0.1:1/x&method=patch"));
        assertError(400, "Cannot create 'mail1', an entity with the same name already exists",
                as("admin", "POST", "/endpoints/gotify", "name=mail1&server=http://x&token=t"));
        assertError(404, "endpoint 'none' not found", as("admin", "GET", "/endpoints/smtp/none", null));
        assertError(404, "endpoint 'mail1' not found", as("admin", "PUT", "/endpoints/gotify/mail1", "comment=x"));
        assertError(404, "matcher 'none' not found", as("admin", "DELETE", "/matchers/none", null));
        assertError(400, "secret 'other' not known", as("admin", "PUT", "/endpoints/webhook/hook1", "secret=name%3Dother"));
        assertError(400, "cannot delete 'hook1', referenced by: m1", as("admin", "DELETE", "/endpoints/webhook/hook1", null));

        Resp t = as("admin", "POST", "/targets/hook1/test", "");
        assertEquals(500, t.status());
        assertTrue(t.text().contains("hook1") && t.text().contains("connect") && !t.text().contains("SECRET"), t.text());
        assertError(404, "endpoint 'none' does not exist", as("admin", "POST", "/targets/none/test", ""));

        assertEquals(200, as("admin", "DELETE", "/endpoints/sendmail/mail-to-root", null).status(), "a built-in stays (reset)");
        assertEquals(200, as("admin", "DELETE", "/matchers/m1", null).status());
        assertEquals(200, as("admin", "DELETE", "/endpoints/smtp/mail1", null).status());
        assertFalse(Files.readString(config.resolve("notifications-priv.cfg")).contains("PW-123"));
    }

    /**
     * As proxmox-notify: a built-in entry is never removed, only reset to its default. DELETE of an
     * unchanged built-in answers 200 and changes nothing; of a changed one (modified-builtin) it
     * drops the change, even while a matcher names the target.
     */
    @Test
    void deletingABuiltInResetsIt() throws Exception {
        String cfgBefore = Files.exists(config.resolve("notifications.cfg")) ? Files.readString(config.resolve("notifications.cfg")) : "";
        Resp r = as("admin", "DELETE", "/matchers/default-matcher", null);
        assertEquals(200, r.status(), r.text());
        assertEquals("builtin", as("admin", "GET", "/matchers/default-matcher", null).json().get("data").get("origin").asText());
        assertEquals(cfgBefore, Files.exists(config.resolve("notifications.cfg")) ? Files.readString(config.resolve("notifications.cfg")) : "");

        assertEquals(200, as("admin", "PUT", "/endpoints/sendmail/mail-to-root", "comment=changed").status());
        JsonNode changed = as("admin", "GET", "/endpoints/sendmail/mail-to-root", null).json().get("data");
        assertEquals("modified-builtin", changed.get("origin").asText(), changed.toString());
        r = as("admin", "DELETE", "/endpoints/sendmail/mail-to-root", null); // default-matcher names it: reset anyway
        assertEquals(200, r.status(), r.text());
        JsonNode reset = as("admin", "GET", "/endpoints/sendmail/mail-to-root", null).json().get("data");
        assertEquals("builtin", reset.get("origin").asText(), reset.toString());
        assertEquals("Send mails to root@pam's email address", reset.get("comment").asText(), "the default comment is back");
        assertEquals(403, as("audit", "DELETE", "/matchers/default-matcher", null).status());
    }

    @Test
    void aFileWithAnUnknownKeyIsRefusedNamingFileSectionAndKey() throws Exception {
        Path pub = config.resolve("notifications.cfg");
        String before = Files.exists(pub) ? Files.readString(pub) : "";
        try {
            String broken = "sendmail: s1\n\tmailto a@example.com\n\tmail-to b@example.com\n";
            Files.writeString(pub, broken);
            String line = "notifications.cfg line 3: unknown property 'mail-to' in section 'sendmail: s1'";
            assertError(400, line, as("admin", "GET", "/targets", null));
            assertError(400, line, as("admin", "POST", "/endpoints/sendmail", "name=s2&mailto=c%40example.com"));
            assertEquals(broken, Files.readString(pub), "nothing written");
            assertError(400, line, as("admin", "POST", "/targets/s1/test", ""));
        } finally {
            Files.writeString(pub, before);
        }
    }

    private static void assertError(int status, String text, Resp r) {
        assertEquals(status, r.status(), r.text());
        assertEquals(text, r.text().strip());
    }
}
