package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.api.ApiTestSupport.Client;
import org.jpbs.server.api.ApiTestSupport.Resp;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.auth.Role;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET access/permissions} as PBS ({@code docs/api.md#access}): per datastore role the
 * caller's privileges on {@code /datastore/store} with their propagate bits; paths without a
 * privilege are not shown; another caller's permissions only with Sys.Audit on {@code /access}
 * or for one's own token; a bad path is a parameter error.
 */
class PermissionsApiTest {
    static final String PATH = "/api2/json/access/permissions";

    @TempDir
    static Path tmp;
    static JpbsServer server;
    static Client http;
    static Map<String, Map<String, String>> callers;

    @BeforeAll
    static void start() throws Exception {
        DatastorePool.create(tmp.resolve("store"), SyncLevel.NONE);
        Path config = tmp.resolve("config");
        callers = ApiTestSupport.roleCallers(AuthConfig.open(config), "/access");
        server = ApiTestSupport.startWithJobs(config, Map.of("store", tmp.resolve("store")));
        http = new Client(server.port());
    }

    @AfterAll
    static void stop() throws Exception {
        ApiTestSupport.close(http, server);
    }

    static Resp get(String caller, String query) throws Exception {
        return http.get(PATH + query, callers.get(caller));
    }

    static List<String> names(JsonNode privs) {
        List<String> out = new ArrayList<>();
        privs.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void eachDatastoreRoleGetsItsPrivilegesOnTheDatastoreWithTheirPropagateBit() throws Exception {
        Map<String, String> roles = Map.of("backup", "DatastoreBackup", "power", "DatastorePowerUser",
                "dsadmin", "DatastoreAdmin", "audit", "DatastoreAudit", "reader", "DatastoreReader");
        for (var e : roles.entrySet()) {
            Resp r = get(e.getKey(), "?path=/datastore/store");
            assertEquals(200, r.status(), r.text());
            JsonNode privs = r.json().get("data").get("/datastore/store");
            long mask = Role.byName(e.getValue()).orElseThrow().privileges();
            assertEquals(Privilege.names(mask).stream().sorted().toList(), names(privs).stream().sorted().toList(), e.getKey());
            privs.forEach(v -> assertTrue(v.asBoolean(), "granted with propagate on /datastore: " + e.getKey()));
        }
    }

    @Test
    void pathsWithoutPrivilegesAreNotShown() throws Exception {
        JsonNode all = get("backup", "").json().get("data");
        assertEquals(List.of("Datastore.Backup"), names(all.get("/datastore")));
        assertFalse(all.has("/") || all.has("/access") || all.has("/system"), all.toString());
        assertEquals(0, get("backup", "?path=/system").json().get("data").size());
        JsonNode admin = get("admin", "?path=/").json().get("data").get("/");
        assertTrue(admin.has("Sys.Audit") && admin.has("Datastore.Modify"), admin.toString());
    }

    @Test
    void anotherCallersPermissionsNeedSysAuditOnAccessOrAreOnesOwnToken() throws Exception {
        Resp refused = get("backup", "?auth-id=root@pam");
        assertEquals(400, refused.status());
        assertEquals("not allowed to list permissions of root@pam", refused.text());
        Resp audited = get("sysaudit", "?auth-id=alice@pbs!backup&path=/datastore/store");
        assertEquals(200, audited.status(), audited.text());
        assertEquals(List.of("Datastore.Backup"), names(audited.json().get("data").get("/datastore/store")));
        Resp bad = get("admin", "?path=datastore");
        assertEquals(400, bad.status());
        assertTrue(bad.text().startsWith("parameter verification failed - 'path'"), bad.text());
        assertEquals(401, http.get(PATH, Map.of()).status());
    }
}
