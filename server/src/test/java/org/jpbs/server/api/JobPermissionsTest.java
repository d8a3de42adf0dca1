package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotInfo;
import org.jpbs.datastore.snapshot.SnapshotReader;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.api.ApiTestSupport.Client;
import org.jpbs.server.api.ApiTestSupport.Resp;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Owner rules of prune and verify over HTTPS (issue 12 items 1 and 2; PBS: prune needs
 * Datastore.Modify, or Datastore.Prune and the group's ownership; verify needs Datastore.Verify,
 * or Datastore.Backup and ownership). Every store holds the same groups: {@code host/bob}
 * (owned by another user, bob@pbs), one group per caller token, {@code host/user} (owned by the
 * user alice@pbs) and {@code team:host/bobteam} (bob's, in a namespace). The callers are tokens
 * of alice@pbs (DatastoreAdmin) with the roles DatastoreBackup, DatastorePowerUser,
 * DatastoreAdmin, DatastoreAudit and DatastoreReader, and the user dave@pbs (DatastorePowerUser,
 * ticket login), whose token dave@pbs!t owns {@code host/davetok}. Each case asserts status,
 * error text and what is on disk afterwards; each test starts from a fresh copy of the groups.
 */
class JobPermissionsTest {
    static final String DS = "/api2/json/admin/datastore";
    static final String TASKS = "/api2/json/nodes/localhost/tasks";
    static final long T = 1_700_000_000L;
    static final int SNAPS = 3;
    static final String PASSWORD = "alice-secret-1";
    static final BackupNamespace TEAM = BackupNamespace.parse("team");
    static final String STORE = "store";
    /** group id, owner. */
    static final Map<String, String> GROUPS = new LinkedHashMap<>();

    static {
        GROUPS.put("bob", "bob@pbs");
        GROUPS.put("backup", "alice@pbs!backup");
        GROUPS.put("power", "alice@pbs!power");
        GROUPS.put("admin", "alice@pbs!admin");
        GROUPS.put("user", "alice@pbs");
        GROUPS.put("davetok", "dave@pbs!t");
    }

    @TempDir
    static Path tmp;
    static JpbsServer server;
    static Client http;
    static final Map<String, Path> roots = new TreeMap<>();
    static final Map<String, Map<String, String>> caller = new TreeMap<>();
    static Map<String, String> daveTicket;

    @BeforeAll
    static void start() throws Exception {
        roots.put(STORE, tmp.resolve("ds"));
        DatastorePool.datastore(roots.get(STORE), SyncLevel.NONE).createNamespace(TEAM);
        Path config = tmp.resolve("config");
        AuthConfig cfg = AuthConfig.open(config);
        // a token's privileges are those of its own ACL entries, limited to its user's
        cfg.addUser("alice@pbs", null, null);
        cfg.addUser("bob@pbs", null, null);
        cfg.updateAcl("/datastore", "alice@pbs", "DatastoreAdmin", true, false);
        cfg.addUser("dave@pbs", PASSWORD, null);
        cfg.updateAcl("/datastore", "dave@pbs", "DatastorePowerUser", true, false);
        for (String[] t : new String[][] {{"backup", "DatastoreBackup"}, {"power", "DatastorePowerUser"},
                {"admin", "DatastoreAdmin"}, {"audit", "DatastoreAudit"}, {"reader", "DatastoreReader"}}) {
            String secret = cfg.createToken("alice@pbs", t[0], null);
            cfg.updateAcl("/datastore", "alice@pbs!" + t[0], t[1], true, false);
            caller.put(t[0], OwnershipApiTest.token("alice@pbs!" + t[0], secret));
        }
        // per namespace: own groups only at the root, every group in namespace team
        String nsSecret = cfg.createToken("alice@pbs", "nsadmin", null);
        cfg.updateAcl("/datastore", "alice@pbs!nsadmin", "DatastorePowerUser", true, false);
        cfg.updateAcl("/datastore/" + STORE + "/team", "alice@pbs!nsadmin", "DatastoreAdmin", true, false);
        caller.put("nsadmin", OwnershipApiTest.token("alice@pbs!nsadmin", nsSecret));
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, roots, "127.0.0.1", 0);
        JpbsRestHandler rest = JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO);
        rest = rest.withServices(rest.services().withJobs(new LocalDatastoreJobs("root@pam", rest.services().budget())));
        server = JpbsServer.start(sc, auth, rest);
        http = new Client(server.port());

        daveTicket = ApiTestSupport.login(http, "dave@pbs", PASSWORD);
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

    /** Puts every group back with {@link #SNAPS} unverified snapshots (tests run one after another). */
    @BeforeEach
    void fresh() throws Exception {
        Datastore ds = Datastore.open(roots.get(STORE));
        for (Path top : List.of(ds.namespaceDir(BackupNamespace.ROOT).resolve("host"), ds.namespaceDir(TEAM).resolve("host"))) {
            if (Files.exists(top)) {
                try (var walk = Files.walk(top)) {
                    walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
        }
        for (Map.Entry<String, String> g : GROUPS.entrySet()) {
            for (int i = 0; i < SNAPS; i++) {
                OwnershipApiTest.snapshot(ds, BackupNamespace.ROOT, g.getKey(), T + 3600L * i, g.getValue());
            }
        }
        for (int i = 0; i < SNAPS; i++) {
            OwnershipApiTest.snapshot(ds, TEAM, "bobteam", T + 3600L * i, "bob@pbs");
        }
        assertEquals(untouched(), counts(STORE));
    }

    // ---- helpers ----

    static Resp post(String store, String call, Map<String, String> who, String form) throws Exception {
        return http.send("POST", DS + "/" + store + "/" + call, who, form);
    }

    static BackupGroupRef group(String id) {
        return new BackupGroupRef(id.equals("bobteam") ? TEAM : BackupNamespace.ROOT, BackupType.HOST, id);
    }

    /** Snapshot count per group id ("bobteam" is the one in namespace team), read from disk. */
    static Map<String, Integer> counts(String store) throws Exception {
        Datastore ds = Datastore.open(roots.get(store));
        Map<String, Integer> out = new TreeMap<>();
        for (String id : GROUPS.keySet()) {
            out.put(id, ds.listSnapshots(group(id)).size());
        }
        out.put("bobteam", ds.listSnapshots(group("bobteam")).size());
        return out;
    }

    static Map<String, Integer> untouched() {
        Map<String, Integer> m = new TreeMap<>();
        GROUPS.keySet().forEach(id -> m.put(id, SNAPS));
        m.put("bobteam", SNAPS);
        return m;
    }

    static Map<String, Integer> with(Map<String, Integer> base, String id, int n) {
        Map<String, Integer> m = new TreeMap<>(base);
        m.put(id, n);
        return m;
    }

    /** Number of snapshots per group id whose manifest carries a verify_state, read from disk. */
    static Map<String, Integer> verified(String store) throws Exception {
        Datastore ds = Datastore.open(roots.get(store));
        Map<String, Integer> out = new TreeMap<>();
        List<String> ids = new java.util.ArrayList<>(GROUPS.keySet());
        ids.add("bobteam");
        for (String id : ids) {
            int n = 0;
            for (SnapshotInfo s : ds.listSnapshots(group(id))) {
                SnapshotReader r = ds.openSnapshot(s.ref());
                if (r.manifest().unprotected().has("verify_state")) {
                    n++;
                }
            }
            out.put(id, n);
        }
        return out;
    }

    static Map<String, Integer> verifiedOnly(String... ids) {
        Map<String, Integer> m = new TreeMap<>();
        GROUPS.keySet().forEach(id -> m.put(id, 0));
        m.put("bobteam", 0);
        for (String id : ids) {
            m.put(id, SNAPS);
        }
        return m;
    }

    /** Waits for the task and answers its exit status and log text (read as the caller: its own task). */
    static String[] awaitTask(String upid, Map<String, String> who) throws Exception {
        String u = URLEncoder.encode(upid, StandardCharsets.UTF_8);
        for (int i = 0; i < 1200; i++) {
            Resp st = http.get(TASKS + "/" + u + "/status", who);
            assertEquals(200, st.status(), st.text());
            JsonNode d = st.json().get("data");
            if (d.get("status").asText().equals("stopped")) {
                StringBuilder log = new StringBuilder();
                http.get(TASKS + "/" + u + "/log?limit=0", who).json().get("data")
                        .forEach(l -> log.append(l.get("t").asText()).append('\n'));
                return new String[] {d.get("exitstatus").asText(), log.toString()};
            }
            Thread.sleep(50);
        }
        throw new AssertionError("task did not stop: " + upid);
    }

    static String[] runTask(String store, String call, Map<String, String> who, String form) throws Exception {
        Resp r = post(store, call, who, form);
        assertEquals(200, r.status(), r.text());
        return awaitTask(r.json().get("data").asText(), who);
    }

    static String denied(String store, String privs) {
        return "permission check failed - missing " + privs + " on /datastore/" + store;
    }

    // ---- prune ----

    @Test
    void pruneIsRefusedWithoutModifyOrPrune() throws Exception {
        String s = STORE;
        for (String who : List.of("backup", "audit", "reader")) {
            for (String id : List.of("bob", who.equals("backup") ? "backup" : "user")) {
                for (String extra : List.of("", "&use-task=1", "&dry-run=1")) {
                    Resp r = post(s, "prune", caller.get(who), "backup-type=host&backup-id=" + id + "&keep-last=1" + extra);
                    assertEquals(403, r.status(), who + " " + id + extra);
                    assertEquals(denied(s, "Datastore.Modify|Datastore.Prune"), r.text());
                }
            }
            Resp r = post(s, "prune-datastore", caller.get(who), "keep-last=1");
            assertEquals(403, r.status(), who);
            assertEquals(denied(s, "Datastore.Modify|Datastore.Prune"), r.text());
        }
        assertEquals(untouched(), counts(s));
    }

    @Test
    void powerUserPrunesOnlyItsOwnGroup() throws Exception {
        String s = STORE;
        Map<String, String> power = caller.get("power");
        for (String extra : List.of("", "&use-task=1", "&dry-run=1")) {
            Resp r = post(s, "prune", power, "backup-type=host&backup-id=bob&keep-last=1" + extra);
            assertEquals(400, r.status(), extra + ": " + r.text());
            assertEquals("backup owner check failed (alice@pbs!power != bob@pbs)", r.text());
            r = post(s, "prune", power, "ns=team&backup-type=host&backup-id=bobteam&keep-last=1" + extra);
            assertEquals(400, r.status(), extra + ": " + r.text());
            assertEquals("backup owner check failed (alice@pbs!power != bob@pbs)", r.text());
            // a token does not own its user's groups, nor a sibling token's
            r = post(s, "prune", power, "backup-type=host&backup-id=user&keep-last=1" + extra);
            assertEquals(400, r.status());
            assertEquals("backup owner check failed (alice@pbs!power != alice@pbs)", r.text());
            r = post(s, "prune", power, "backup-type=host&backup-id=backup&keep-last=1" + extra);
            assertEquals(400, r.status());
            assertEquals("backup owner check failed (alice@pbs!power != alice@pbs!backup)", r.text());
        }
        assertEquals(untouched(), counts(s), "foreign groups keep every snapshot");

        Resp r = post(s, "prune", power, "backup-type=host&backup-id=power&keep-last=1");
        assertEquals(200, r.status(), r.text());
        assertEquals(SNAPS, r.json().get("data").size());
        assertEquals(with(untouched(), "power", 1), counts(s));
    }

    @Test
    void powerUserPruneDatastoreCoversOnlyItsOwnGroups() throws Exception {
        String s = STORE;
        String[] task = runTask(s, "prune-datastore", caller.get("power"), "keep-last=1");
        assertEquals("OK", task[0], task[1]);
        assertEquals(with(untouched(), "power", 1), counts(s), "only the caller's group is pruned");
        for (String foreign : List.of("host/bob", "bobteam", "host/user", "host/backup", "host/admin", "davetok")) {
            assertFalse(task[1].contains(foreign), "log names a foreign group " + foreign + ":\n" + task[1]);
        }
        assertTrue(task[1].contains("host/power"), task[1]);
    }

    @Test
    void pruneDatastoreDecidesPerNamespace() throws Exception {
        String s = STORE;
        String[] task = runTask(s, "prune-datastore", caller.get("nsadmin"), "keep-last=1");
        assertEquals("OK", task[0], task[1]);
        assertEquals(with(untouched(), "bobteam", 1), counts(s), "Modify on team prunes bob's group there, nothing at the root");
        assertFalse(task[1].contains("host/bob\"") || task[1].contains("host/bob/"), task[1]);
        assertTrue(task[1].contains("host/bobteam"), task[1]);
        Resp r = post(s, "prune", caller.get("nsadmin"), "ns=team&backup-type=host&backup-id=bobteam&keep-last=1&dry-run=1");
        assertEquals(200, r.status(), r.text());
        r = post(s, "prune", caller.get("nsadmin"), "backup-type=host&backup-id=bob&keep-last=1");
        assertEquals(400, r.status(), r.text());
        assertEquals("backup owner check failed (alice@pbs!nsadmin != bob@pbs)", r.text());
    }

    @Test
    void adminPrunesForeignGroups() throws Exception {
        String s = STORE;
        Resp r = post(s, "prune", caller.get("admin"), "backup-type=host&backup-id=bob&keep-last=1");
        assertEquals(200, r.status(), r.text());
        r = post(s, "prune", caller.get("admin"), "ns=team&backup-type=host&backup-id=bobteam&keep-last=2&use-task=1");
        assertEquals(200, r.status(), r.text());
        assertEquals("OK", awaitTask(r.json().get("data").asText(), caller.get("admin"))[0]);
        assertEquals(with(with(untouched(), "bob", 1), "bobteam", 2), counts(s));

        String ds = STORE;
        String[] task = runTask(ds, "prune-datastore", caller.get("admin"), "keep-last=1");
        assertEquals("OK", task[0], task[1]);
        Map<String, Integer> all = new TreeMap<>();
        untouched().keySet().forEach(id -> all.put(id, 1));
        assertEquals(all, counts(ds), "Datastore.Modify prunes every group in every namespace");
    }

    @Test
    void userOwnsTheGroupsOfItsTokens() throws Exception {
        String s = STORE;
        Resp r = post(s, "prune", daveTicket, "backup-type=host&backup-id=bob&keep-last=1");
        assertEquals(400, r.status(), r.text());
        assertEquals("backup owner check failed (dave@pbs != bob@pbs)", r.text());
        r = post(s, "prune", daveTicket, "backup-type=host&backup-id=user&keep-last=1");
        assertEquals(400, r.status(), r.text());
        assertEquals("backup owner check failed (dave@pbs != alice@pbs)", r.text());
        assertEquals(untouched(), counts(s));
        r = post(s, "prune", daveTicket, "backup-type=host&backup-id=davetok&keep-last=2");
        assertEquals(200, r.status(), "a user owns its tokens' groups: " + r.text());
        assertEquals(with(untouched(), "davetok", 2), counts(s));

        String[] task = runTask(s, "prune-datastore", daveTicket, "keep-last=1");
        assertEquals("OK", task[0], task[1]);
        assertEquals(with(untouched(), "davetok", 1), counts(s), "only the groups of the user and its tokens");
        assertFalse(task[1].contains("host/bob"), task[1]);
    }

    // ---- verify ----

    @Test
    void verifyIsRefusedWithoutVerifyOrBackup() throws Exception {
        String s = STORE;
        for (String form : List.of("", "backup-type=host&backup-id=bob", "backup-type=host&backup-id=bob&backup-time=" + T)) {
            Resp r = post(s, "verify", caller.get("audit"), form);
            assertEquals(403, r.status(), form);
            assertEquals(denied(s, "Datastore.Verify|Datastore.Backup"), r.text());
        }
        assertEquals(verifiedOnly(), verified(s));
    }

    /** DatastoreBackup and DatastorePowerUser (Backup, Prune) may verify only their own groups. */
    @Test
    void backupUserVerifiesOnlyItsOwnGroups() throws Exception {
        backupOnlyVerify(STORE, "backup");
    }

    @Test
    void powerUserVerifiesOnlyItsOwnGroups() throws Exception {
        backupOnlyVerify(STORE, "power");
    }

    private static void backupOnlyVerify(String s, String who) throws Exception {
        Map<String, String> c = caller.get(who);
        String me = "alice@pbs!" + who;
        for (String form : List.of("backup-type=host&backup-id=bob", "backup-type=host&backup-id=bob&backup-time=" + T,
                "ns=team&backup-type=host&backup-id=bobteam", "backup-type=host&backup-id=user")) {
            Resp r = post(s, "verify", c, form);
            assertEquals(400, r.status(), form + ": " + r.text());
            assertEquals("backup owner check failed (" + me + " != " + (form.contains("user") ? "alice@pbs" : "bob@pbs")
                    + ")", r.text());
        }
        assertEquals(verifiedOnly(), verified(s), "nothing verified");

        String[] task = runTask(s, "verify", c, "");
        assertEquals("OK", task[0], task[1]);
        assertEquals(verifiedOnly(who), verified(s), "only the caller's group is verified");
        assertTrue(task[1].contains("limiting to backups owned by " + me), task[1]);
        for (String foreign : List.of("bob", "host/user", "host/admin", "davetok")) {
            assertFalse(task[1].contains(foreign), "log names a foreign group " + foreign + ":\n" + task[1]);
        }
        task = runTask(s, "verify", c, "backup-type=host&backup-id=" + who + "&backup-time=" + T);
        assertEquals("OK", task[0], task[1]);
    }

    @Test
    void readerVerifiesEveryGroup() throws Exception {
        String s = STORE;
        String[] task = runTask(s, "verify", caller.get("reader"), "backup-type=host&backup-id=bob");
        assertEquals("OK", task[0], task[1]);
        assertEquals(verifiedOnly("bob"), verified(s));
        task = runTask(s, "verify", caller.get("reader"), "");
        assertEquals("OK", task[0], task[1]);
        assertFalse(task[1].contains("limiting to backups owned by"), task[1]);
        assertEquals(verifiedOnly("bob", "backup", "power", "admin", "user", "davetok", "bobteam"), verified(s));
    }

    @Test
    void adminVerifiesForeignGroups() throws Exception {
        String s = STORE;
        String[] task = runTask(s, "verify", caller.get("admin"), "ns=team&backup-type=host&backup-id=bobteam");
        assertEquals("OK", task[0], task[1]);
        task = runTask(s, "verify", caller.get("admin"), "backup-type=host&backup-id=bob&backup-time=" + T);
        assertEquals("OK", task[0], task[1]);
        Map<String, Integer> expect = verifiedOnly("bobteam");
        expect.put("bob", 1);
        assertEquals(expect, verified(s));
    }

    /**
     * The real client and the GUI send POST parameters as a JSON body, where {@code backup-time}
     * is a JSON integer (PBS BACKUP_TIME_SCHEMA); a snapshot verify sent so must run (it was
     * refused with "'backup-time': Expected string value."), and a string stays refused.
     */
    @Test
    void verifyOfASnapshotTakesAJsonIntegerBackupTime() throws Exception {
        String s = STORE;
        Resp r = http.postJson(DS + "/" + s + "/verify", caller.get("backup"),
                "{\"backup-type\":\"host\",\"backup-id\":\"backup\",\"backup-time\":" + T + "}");
        assertEquals(200, r.status(), r.text());
        String[] task = awaitTask(r.json().get("data").asText(), caller.get("backup"));
        assertEquals("OK", task[0], task[1]);
        Map<String, Integer> expect = verifiedOnly();
        expect.put("backup", 1);
        assertEquals(expect, verified(s));
        r = http.postJson(DS + "/" + s + "/verify", caller.get("backup"),
                "{\"backup-type\":\"host\",\"backup-id\":\"backup\",\"backup-time\":\"" + T + "\"}");
        assertEquals(400, r.status(), r.text());
        assertEquals("parameter verification failed - 'backup-time': Expected integer value.", r.text().strip());
    }

    // ---- delete group (DELETE groups, PBS delete_group: Datastore.Modify, or Prune as owner) ----

    /** As the real client sends a DELETE: the parameters in the query string, empty form body. */
    static Resp deleteGroup(Map<String, String> who, String query) throws Exception {
        return http.send("DELETE", DS + "/" + STORE + "/groups?" + query, who, "");
    }

    static boolean groupDirExists(String id) throws Exception {
        return Files.isDirectory(Datastore.open(roots.get(STORE)).groupDir(group(id)));
    }

    @Test
    void deleteGroupIsRefusedWithoutModifyOrPrune() throws Exception {
        for (String who : List.of("backup", "audit", "reader")) {
            for (String id : List.of("bob", who.equals("backup") ? "backup" : "user")) {
                Resp r = deleteGroup(caller.get(who), "backup-type=host&backup-id=" + id);
                assertEquals(403, r.status(), who + " " + id + ": " + r.text());
                assertEquals(denied(STORE, "Datastore.Modify|Datastore.Prune"), r.text());
            }
        }
        assertEquals(untouched(), counts(STORE));
    }

    @Test
    void powerUserDeletesOnlyItsOwnGroup() throws Exception {
        Map<String, String> power = caller.get("power");
        Resp r = deleteGroup(power, "backup-type=host&backup-id=bob");
        assertEquals(400, r.status(), r.text());
        assertEquals("backup owner check failed (alice@pbs!power != bob@pbs)", r.text());
        r = deleteGroup(power, "ns=team&backup-type=host&backup-id=bobteam");
        assertEquals(400, r.status(), r.text());
        assertEquals("backup owner check failed (alice@pbs!power != bob@pbs)", r.text());
        r = deleteGroup(power, "backup-type=host&backup-id=backup");
        assertEquals(400, r.status(), r.text());
        assertEquals("backup owner check failed (alice@pbs!power != alice@pbs!backup)", r.text());
        assertEquals(untouched(), counts(STORE));

        r = deleteGroup(power, "backup-type=host&backup-id=power");
        assertEquals(200, r.status(), r.text());
        assertTrue(r.json().get("data").isNull(), r.text());
        assertEquals(with(untouched(), "power", 0), counts(STORE));
        assertFalse(groupDirExists("power"), "group directory (owner file) is gone");
        Resp list = http.get(DS + "/" + STORE + "/groups", caller.get("admin"));
        assertFalse(list.text().contains("\"power\""), list.text());
    }

    @Test
    void adminDeletesForeignGroupsAlsoInANamespace() throws Exception {
        Map<String, String> admin = caller.get("admin");
        Resp r = deleteGroup(admin, "backup-type=host&backup-id=bob");
        assertEquals(200, r.status(), r.text());
        assertEquals("{\"data\":null}", r.text().strip());
        r = deleteGroup(admin, "ns=team&backup-type=host&backup-id=bobteam");
        assertEquals(200, r.status(), r.text());
        Map<String, Integer> expect = with(with(untouched(), "bob", 0), "bobteam", 0);
        assertEquals(expect, counts(STORE));
        assertFalse(groupDirExists("bob"));
        assertFalse(groupDirExists("bobteam"));
        // gone now: a second delete names the group
        r = deleteGroup(admin, "backup-type=host&backup-id=bob");
        assertEquals(400, r.status(), r.text());
        assertEquals("backup group 'host/bob' does not exist", r.text());
        r = deleteGroup(admin, "ns=team&backup-type=host&backup-id=bobteam");
        assertEquals("backup group 'ns/team/host/bobteam' does not exist", r.text());
        // bad parameters: PBS's texts, nothing removed
        r = deleteGroup(admin, "backup-type=host");
        assertEquals(400, r.status(), r.text());
        assertTrue(r.text().contains("'backup-id': parameter is missing and it is not optional."), r.text());
        r = deleteGroup(admin, "backup-type=host&backup-id=user&bogus=1");
        assertEquals(400, r.status(), r.text());
        assertEquals(expect, counts(STORE));
    }

    @Test
    void deleteGroupKeepsProtectedSnapshots() throws Exception {
        Datastore ds = Datastore.open(roots.get(STORE));
        BackupSnapshotRef kept = new BackupSnapshotRef(group("user"), T + 3600L);
        ds.setProtected(kept, true);
        Resp r = deleteGroup(caller.get("admin"), "backup-type=host&backup-id=user");
        assertEquals(400, r.status(), r.text());
        assertEquals("group only partially deleted due to protected snapshots", r.text());
        assertEquals(with(untouched(), "user", 1), counts(STORE));
        assertTrue(ds.isProtected(kept));
        assertEquals("alice@pbs", ds.owner(group("user")), "the owner file stays with the kept snapshot");
        // error-on-protected=false (newer PBS/PVE): the same removal, answered without an error
        ds.setProtected(new BackupSnapshotRef(group("admin"), T), true);
        r = deleteGroup(caller.get("admin"), "backup-type=host&backup-id=admin&error-on-protected=false");
        assertEquals(200, r.status(), r.text());
        assertEquals(with(with(untouched(), "user", 1), "admin", 1), counts(STORE));
    }

    @Test
    void deleteGroupIsRefusedWhileABackupOfItRuns() throws Exception {
        Datastore ds = Datastore.open(roots.get(STORE));
        BackupSnapshotRef running = new BackupSnapshotRef(group("admin"), T + 3600L * SNAPS);
        try (var w = ds.beginSnapshot(running, "alice@pbs!admin")) {
            Resp r = deleteGroup(caller.get("admin"), "backup-type=host&backup-id=admin");
            assertEquals(400, r.status(), r.text());
            assertTrue(r.text().startsWith("backup group host/admin is locked by another operation"), r.text());
            assertFalse(r.text().contains(roots.get(STORE).toString()), "no server path: " + r.text());
            assertEquals(untouched(), counts(STORE), "nothing removed");
        }
    }
}
