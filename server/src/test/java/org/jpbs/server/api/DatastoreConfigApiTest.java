package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jpbs.s3.client.ObjectStore;
import org.jpbs.s3.client.S3Connector;
import org.jpbs.s3.client.S3Options;
import org.jpbs.s3.config.S3ConfigStore;
import org.jpbs.s3.testing.TestS3Server;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.api.ApiTestSupport.Client;
import org.jpbs.server.api.ApiTestSupport.Resp;
import org.jpbs.server.auth.AuthConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api2/json/config/datastore} ({@code docs/api.md#datastore-config-configdatastore}):
 * only Datastore.Allocate on /datastore (Admin) creates; the five datastore roles, Audit on
 * /system/s3-endpoint and Admin on one other datastore's path get 403 and nothing is made; bad
 * values are 400 naming the parameter; a directory datastore and an S3 one (against a real S3
 * server) are created by task {@code create-datastore}; a bucket datastore in use is refused
 * unless {@code overwrite-in-use}, leaving nothing behind.
 */
class DatastoreConfigApiTest {
    static final String N = "/api2/json/config/datastore";
    static final String TASKS = "/api2/json/nodes/localhost/tasks";

    @TempDir
    static Path tmp;
    static Path config;
    static JpbsServer server;
    static Client http;
    static TestS3Server s3;
    static final Map<String, Map<String, String>> caller = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        config = tmp.resolve("config");
        AuthConfig auth = AuthConfig.open(config);
        caller.putAll(ApiTestSupport.roleCallers(auth, "/system/s3-endpoint"));
        String secret = auth.createToken("alice@pbs", "otherstore", null);
        auth.updateAcl("/datastore/other", "alice@pbs!otherstore", "Admin", true, false);
        caller.put("otherstore", OwnershipApiTest.token("alice@pbs!otherstore", secret));
        s3 = TestS3Server.start(tmp, null, "pbs-api");
        S3ConfigStore.open(config).create(s3.endpoint("local-s3"));
        server = ApiTestSupport.startWithJobs(config, Map.of());
        http = new Client(server.port());
    }

    @AfterAll
    static void stop() throws Exception {
        if (http != null) {
            http.close();
        }
        if (server != null) {
            server.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    static Resp post(String who, String form) throws Exception {
        return http.send("POST", N, caller.get(who), form);
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String cfg() throws Exception {
        Path f = config.resolve("datastore.cfg");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    /** Waits for the task; its exit status and log. */
    static String[] await(Resp r, String who) throws Exception {
        return awaitTask(http, r, caller.get(who));
    }

    /** Waits for the {@code create-datastore} task of {@code r} as {@code who}; its exit status and log. */
    static String[] awaitTask(Client http, Resp r, Map<String, String> who) throws Exception {
        assertEquals(200, r.status(), r.text());
        String u = enc(r.json().get("data").asText());
        assertTrue(u.contains("create-datastore"), u);
        for (int i = 0; i < 1200; i++) {
            var d = http.send("GET", TASKS + "/" + u + "/status", who, null).json().get("data");
            if (d.get("status").asText().equals("stopped")) {
                StringBuilder log = new StringBuilder();
                http.send("GET", TASKS + "/" + u + "/log?limit=0", who, null).json().get("data")
                        .forEach(l -> log.append(l.get("t").asText()).append('\n'));
                return new String[] {d.get("exitstatus").asText(), log.toString()};
            }
            Thread.sleep(50);
        }
        throw new AssertionError("task did not stop: " + u);
    }

    @Test
    void onlyDatastoreAllocateOnDatastoreCreatesAndNothingIsMadeOtherwise() throws Exception {
        Path dir = tmp.resolve("denied");
        String s3form = "name=denied3&path=" + enc(tmp.resolve("denied3").toString()) + "&backend="
                + enc("type=s3,client=local-s3,bucket=pbs-api");
        for (String who : new String[] {"backup", "power", "dsadmin", "audit", "reader", "sysaudit", "otherstore"}) {
            Resp r = post(who, "name=denied&path=" + enc(dir.toString()));
            assertEquals(403, r.status(), who + ": " + r.text());
            assertTrue(r.text().contains("permission check failed - missing Datastore.Allocate on /datastore"), r.text());
            assertEquals(403, post(who, s3form).status(), who);
        }
        assertFalse(Files.exists(dir));
        assertFalse(Files.exists(tmp.resolve("denied3")));
        assertFalse(cfg().contains("denied"), cfg());
        assertFalse(s3.blobStore().list("pbs-api").contents().stream().anyMatch(o -> o.key().startsWith("denied")),
                "nothing in the bucket");
    }

    @Test
    void badValuesAre400NamingTheParameter() throws Exception {
        String[][] cases = {
            {"name=x&path=" + enc(tmp.resolve("b1").toString()), "'name'"},
            {"name=bad1&path=relative/dir", "'path': expected an absolute path"},
            {"name=bad1&path=" + enc(tmp.resolve("b1").toString()) + "&backend=" + enc("type=ftp"), "'backend'"},
            {"name=bad1&path=" + enc(tmp.resolve("b1").toString()) + "&backend="
                    + enc("type=s3,client=nope1,bucket=pbs-api"), "'backend': s3 endpoint 'nope1' does not exist"},
            {"name=bad1&path=" + enc(tmp.resolve("b1").toString()) + "&backend="
                    + enc("type=s3,client=local-s3,bucket=Bad_Bucket"), "'backend': bucket 'Bad_Bucket'"},
            {"name=bad1&path=" + enc(tmp.resolve("b1").toString()) + "&gc-schedule=nonsense", "gc-schedule"},
            {"path=" + enc(tmp.resolve("b1").toString()), "'name'"},
        };
        for (String[] c : cases) {
            Resp r = post("admin", c[0]);
            assertEquals(400, r.status(), c[0] + ": " + r.text());
            assertTrue(r.text().contains(c[1]), c[0] + ": " + r.text());
            assertFalse(r.text().contains(config.toString()), "no server path in " + r.text());
        }
        assertFalse(Files.exists(tmp.resolve("b1")));
        assertFalse(cfg().contains("bad1"), cfg());
    }

    @Test
    void adminCreatesADirectoryAndAnS3DatastoreAndABucketInUseIsRefusedUnlessOverwritten() throws Exception {
        Path dir = tmp.resolve("plain");
        String[] t = await(post("admin", "name=plain1&path=" + enc(dir.toString()) + "&comment=first"), "admin");
        assertEquals("OK", t[0], t[1]);
        assertTrue(Files.isDirectory(dir.resolve(".chunks")));
        assertTrue(cfg().contains("datastore: plain1\n"), cfg());
        Resp again = post("admin", "name=plain1&path=" + enc(tmp.resolve("plain-2").toString()));
        assertEquals(400, again.status());
        assertTrue(again.text().contains("datastore 'plain1' already exists"), again.text());

        Path cache = tmp.resolve("cache1");
        String backend = "&backend=" + enc("type=s3,client=local-s3,bucket=pbs-api");
        t = await(post("admin", "name=offsite&path=" + enc(cache.toString()) + backend), "admin");
        assertEquals("OK", t[0], t[1]);
        assertTrue(cfg().contains("\tbackend bucket=pbs-api,client=local-s3,type=s3\n"), cfg());
        assertTrue(Files.isDirectory(cache.resolve(".chunks")));
        assertTrue(s3.blobStore().blobExists("pbs-api", "offsite/.in-use"), "the in-use marker is written");

        // another server's datastore in the bucket: refused, nothing left behind, then taken over
        ObjectStore taken = S3Connector.open(s3.endpoint("local-s3"), "pbs-api", "taken", S3Options.defaults());
        taken.put(".in-use", "{\"hostname\":\"pbs-elsewhere\"}".getBytes(StandardCharsets.UTF_8), false);
        Path cache2 = tmp.resolve("cache2");
        t = await(post("admin", "name=taken&path=" + enc(cache2.toString()) + backend + "&reuse-datastore=1"), "admin");
        assertTrue(t[0].contains("Bucket already contains datastore in use by host pbs-elsewhere"), t[0]);
        assertFalse(Files.exists(cache2), "the cache made for it is removed");
        assertFalse(cfg().contains("taken"), cfg());
        t = await(post("admin", "name=taken&path=" + enc(cache2.toString()) + backend
                + "&reuse-datastore=1&overwrite-in-use=1"), "admin");
        assertEquals("OK", t[0], t[1]);
        assertTrue(cfg().contains("datastore: taken\n"), cfg());
        String marker = new String(taken.get(".in-use").orElseThrow().data(), StandardCharsets.UTF_8);
        taken.close();
        assertFalse(marker.contains("pbs-elsewhere"), "the marker names this host now: " + marker);

        // the new datastores are served at once
        assertEquals(200, http.send("GET", "/api2/json/admin/datastore/offsite/status", caller.get("admin"), null).status());
        assertEquals(200, http.send("GET", "/api2/json/admin/datastore/plain1/status", caller.get("admin"), null).status());
    }
}
