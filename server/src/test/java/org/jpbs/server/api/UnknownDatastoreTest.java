package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.api.ApiTestSupport.Client;
import org.jpbs.server.api.ApiTestSupport.Resp;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.routing.Endpoint;
import org.jpbs.server.routing.Param;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code admin/datastore/{store}/...} endpoint called on a datastore that is not
 * configured, as PBS answers it: the privilege check comes first, so a caller without
 * privileges there gets the same 403 as on an existing datastore (nothing leaks), and one with
 * them (root@pam, or a role on {@code /datastore}) gets 400 {@code "no such datastore 'nostore'"}
 * from the lookup. Callers: root, the tokens of {@link ApiTestSupport#roleCallers} (each
 * datastore role on {@code /datastore}, Audit on {@code /system}, Admin on {@code /}), bob
 * (DatastoreBackup on the one existing store only) and carol (no ACL entry).
 */
class UnknownDatastoreTest {
    /** A valid value for each required parameter of those endpoints. */
    static final Map<String, String> SAMPLE = Map.ofEntries(
            Map.entry("backup-type", "vm"), Map.entry("backup-id", "100"), Map.entry("backup-time", "1700000000"),
            Map.entry("file-name", "index.json.blob"), Map.entry("timeframe", "hour"), Map.entry("cf", "MAX"),
            Map.entry("new-owner", "root@pam"), Map.entry("notes", "x"), Map.entry("protected", "true"),
            Map.entry("name", "a"), Map.entry("ns", "a"), Map.entry("filepath", "Lw=="));
    @TempDir(factory = org.jpbs.server.ShmTempDirFactory.class)
    static Path tmp;
    static JpbsServer server;
    static Client http;
    static final Map<String, Map<String, String>> caller = new TreeMap<>();

    @BeforeAll
    static void start() throws Exception {
        Path config = tmp.resolve("config");
        AuthConfig cfg = AuthConfig.open(config);
        cfg.setPassword("root@pam", "root-password-1");
        cfg.addUser("bob@pbs", "bob-password-1", null);
        cfg.addUser("carol@pbs", "carol-password-1", null);
        cfg.updateAcl("/datastore/store", "bob@pbs", "DatastoreBackup", true, false);
        caller.putAll(ApiTestSupport.roleCallers(cfg, "/system"));
        DatastorePool.create(tmp.resolve("ds"), SyncLevel.NONE);
        DatastorePool.create(tmp.resolve("ds2"), SyncLevel.NONE);
        server = ApiTestSupport.startWithJobs(config, Map.of("store", tmp.resolve("ds"), "another", tmp.resolve("ds2")));
        http = new Client(server.port());
        // configured, but not answering a lookup: a directory that is not a datastore, and one offline
        java.nio.file.Files.createDirectories(tmp.resolve("not-a-datastore"));
        DatastorePool.create(tmp.resolve("ds3"), SyncLevel.NONE);
        DatastoreConfigStore.open(config).update(f -> f
                .withDatastore(new DatastoreConfig("broken", Map.of("path", tmp.resolve("not-a-datastore").toString())))
                .withDatastore(new DatastoreConfig("offline", Map.of("path", tmp.resolve("ds3").toString(),
                        "maintenance-mode", "type=offline"))));
        caller.put("root", ApiTestSupport.login(http, "root@pam", "root-password-1"));
        caller.put("bob", ApiTestSupport.login(http, "bob@pbs", "bob-password-1"));
        caller.put("carol", ApiTestSupport.login(http, "carol@pbs", "carol-password-1"));
    }

    @AfterAll
    static void stop() throws Exception {
        ApiTestSupport.close(http, server);
    }

    static List<Endpoint<?>> storeEndpoints() {
        List<Endpoint<?>> out = new ArrayList<>();
        for (var e : ApiRoutes.TABLE.endpoints()) {
            if (e.path().startsWith("admin/datastore/{store}")) {
                out.add(e);
            }
        }
        return out;
    }

    static Resp call(Endpoint<?> e, String store, Map<String, String> who) throws Exception {
        StringJoiner q = new StringJoiner("&");
        for (Param p : e.params()) {
            if (p.required() && !p.name().equals("store")) {
                q.add(p.name() + "=" + URLEncoder.encode(SAMPLE.getOrDefault(p.name(), "x"), StandardCharsets.UTF_8));
            }
        }
        String path = "/api2/json/" + e.path().replace("{store}", store);
        if (e.method().equals("GET") || e.body() == Endpoint.Body.RAW) {
            return http.send(e.method(), path + (q.length() == 0 ? "" : "?" + q), who, e.body() == Endpoint.Body.RAW ? "" : null);
        }
        return http.send(e.method(), path, who, q.toString());
    }

    @Test
    void privilegedCallersLearnTheDatastoreIsUnknownOthersGetTheSame403() throws Exception {
        List<Endpoint<?>> eps = storeEndpoints();
        assertTrue(eps.size() >= 20, "the datastore endpoints: " + eps.size());
        List<String> wrong = new ArrayList<>();
        int unknown = 0;
        int refused = 0;
        for (var e : eps) {
            String ep = e.method() + " " + e.path();
            for (String who : caller.keySet()) {
                Resp r = call(e, "nostore", caller.get(who));
                String got = ep + " as " + who + ": " + r.status() + " " + r.text();
                if (e.path().endsWith("/active-operations") && r.status() == 200) {
                    // as PBS: the operation counters only, read without a datastore lookup
                    if (!r.text().equals("{\"data\":{\"read\":0,\"write\":0}}")) {
                        wrong.add(got);
                    }
                } else if (r.status() == 400) {
                    unknown++;
                    if (!r.text().equals("no such datastore 'nostore'") || who.equals("bob") || who.equals("carol")) {
                        wrong.add(got);
                    }
                } else if (r.status() == 403) {
                    refused++;
                    if (who.equals("root")) {
                        wrong.add(got);
                    }
                    if (who.equals("bob") || who.equals("carol")) { // no privileges on any: the same answer
                        for (String other : new String[] {"another", "broken", "offline"}) {
                            Resp known = call(e, other, caller.get(who));
                            if (known.status() != 403 || !known.text().replace(other, "nostore").equals(r.text())) {
                                wrong.add(got + " but on " + other + ": " + known.status() + " " + known.text());
                            }
                        }
                    }
                } else {
                    wrong.add(got);
                }
            }
        }
        assertEquals(List.of(), wrong);
        assertTrue(unknown >= eps.size() * 2 && refused >= eps.size() * 2, unknown + " / " + refused);
    }

    @Test
    void theRrdOfAnUnknownDatastoreIsNoSuchDatastoreForRootAndForbiddenForOthers() throws Exception {
        Resp root = http.get("/api2/json/admin/datastore/nostore/rrd?timeframe=hour&cf=MAX", caller.get("root"));
        assertEquals(400, root.status());
        assertEquals("no such datastore 'nostore'", root.text());
        Resp carol = http.get("/api2/json/admin/datastore/nostore/rrd?timeframe=hour&cf=MAX", caller.get("carol"));
        assertEquals(403, carol.status());
        assertEquals("permission check failed", carol.text());
    }
}
