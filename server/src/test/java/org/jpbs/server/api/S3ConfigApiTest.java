package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * {@code /api2/json/config/s3} ({@code docs/s3.md#api}): the five datastore roles get 403,
 * Audit on /system/s3-endpoint reads, Admin changes; {@code secret-key} is never answered; an
 * endpoint a datastore uses cannot be removed.
 */
class S3ConfigApiTest {
    static final String N = "/api2/json/config/s3";
    static final String FP = "3e:" + "aa:".repeat(30) + "9a";

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
        caller.putAll(ApiTestSupport.roleCallers(AuthConfig.open(config), "/system/s3-endpoint"));
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
    void datastoreRolesGet403AuditReadsAdminChangesSecretsNeverAnswered() throws Exception {
        String create = "id=minio1&endpoint=s3.example.net&port=9000&region=eu-central-1&access-key=backup-user"
                + "&secret-key=SECRET-123&path-style=true&fingerprint=" + FP.replace(":", "%3A");
        for (String who : new String[] {"backup", "power", "dsadmin", "audit", "reader"}) {
            Resp r = as(who, "GET", "", null);
            assertEquals(403, r.status(), who);
            assertTrue(r.text().contains("permission check failed - missing Sys.Audit on /system/s3-endpoint"), r.text());
            assertEquals(403, as(who, "POST", "", create).status(), who);
            assertEquals(403, as(who, "GET", "/minio1", null).status(), who);
            assertEquals(403, as(who, "PUT", "/minio1", "region=us-east-1").status(), who);
            assertEquals(403, as(who, "DELETE", "/minio1", null).status(), who);
        }
        assertEquals(401, http.send("GET", N, Map.of(), null).status());
        Resp denied = as("sysaudit", "POST", "", create);
        assertEquals(403, denied.status());
        assertTrue(denied.text().contains("missing Sys.Modify on /system/s3-endpoint"), denied.text());

        Resp created = as("admin", "POST", "", create);
        assertEquals(200, created.status(), created.text());
        assertTrue(Files.readString(config.resolve("s3.cfg")).contains("SECRET-123"));
        assertEquals(400, as("admin", "POST", "", create).status(), "an existing id");
        assertEquals(400, as("admin", "POST", "", "id=bad1&endpoint=https://x&access-key=a&secret-key=b").status());

        JsonNode list = as("sysaudit", "GET", "", null).json().get("data");
        assertEquals(1, list.size());
        assertEquals("minio1", list.get(0).get("id").asText());
        assertEquals("s3.example.net", list.get(0).get("endpoint").asText());
        assertFalse(list.get(0).has("secret-key"), list.toString());
        JsonNode one = as("sysaudit", "GET", "/minio1", null).json().get("data");
        assertEquals("9000", one.get("port").asText());
        assertFalse(one.toString().contains("SECRET-123"), one.toString());
        assertEquals(404, as("admin", "GET", "/nosuch", null).status());

        assertEquals(200, as("admin", "PUT", "/minio1", "region=us-east-1&delete=fingerprint").status());
        one = as("admin", "GET", "/minio1", null).json().get("data");
        assertEquals("us-east-1", one.get("region").asText());
        assertFalse(one.has("fingerprint"), one.toString());
        assertTrue(Files.readString(config.resolve("s3.cfg")).contains("SECRET-123"), "the secret is kept");
        assertEquals(400, as("admin", "PUT", "/minio1", "delete=secret-key").status());

        // in use by a datastore: not removable
        Files.writeString(config.resolve("datastore.cfg"), "datastore: offsite\n\tbackend bucket=b1x,client=minio1,type=s3\n"
                + "\tpath " + tmp.resolve("cache") + "\n");
        Resp inUse = as("admin", "DELETE", "/minio1", null);
        assertEquals(400, inUse.status());
        assertTrue(inUse.text().contains("in use by datastore 'offsite'"), inUse.text());
        Files.delete(config.resolve("datastore.cfg"));
        assertEquals(200, as("admin", "DELETE", "/minio1", null).status());
        assertEquals(0, as("admin", "GET", "", null).json().get("data").size());
    }
}
