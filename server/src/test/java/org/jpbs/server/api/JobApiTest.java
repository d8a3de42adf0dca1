package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
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
 * {@code config/prune|verify|sync|remote} and {@code admin/prune|verify|sync} per role
 * ({@code docs/jobs.md#rest-api}): tokens with DatastoreBackup, DatastorePowerUser,
 * DatastoreAdmin, DatastoreAudit, DatastoreReader on {@code /datastore}, a token with
 * DatastoreAdmin on another datastore only (the jobs of {@code store} are invisible to it),
 * and tokens with RemoteAudit / RemoteAdmin on {@code /remote}; for sync jobs in push direction,
 * tokens with each datastore role plus RemoteSyncPushOperator (or RemoteDatastorePowerUser,
 * RemoteSyncOperator) on the push target {@code /remote/rem1/dst[/prod]}, owning the job or not.
 */
class JobApiTest {
    static final String API = "/api2/json";

    @TempDir
    static Path tmp;
    static JpbsServer server;
    static Client http;
    static Path config;
    static final Map<String, Map<String, String>> caller = new TreeMap<>();

    @BeforeAll
    static void start() throws Exception {
        Path ds = tmp.resolve("ds");
        Path other = tmp.resolve("other");
        DatastorePool.create(ds, SyncLevel.NONE);
        DatastorePool.create(other, SyncLevel.NONE);
        config = tmp.resolve("config");
        Files.createDirectories(config);
        Files.writeString(config.resolve("datastore.cfg"), "datastore: store\n\tpath " + ds + "\n\ndatastore: other\n\tpath "
                + other + "\n");
        AuthConfig cfg = AuthConfig.open(config);
        cfg.addUser("alice@pbs", null, null);
        cfg.updateAcl("/", "alice@pbs", "Admin", true, false);
        for (String[] t : new String[][] {{"backup", "/datastore", "DatastoreBackup"}, {"power", "/datastore", "DatastorePowerUser"},
                {"admin", "/datastore", "DatastoreAdmin"}, {"audit", "/datastore", "DatastoreAudit"},
                {"reader", "/datastore", "DatastoreReader"}, {"foreign", "/datastore/other", "DatastoreAdmin"},
                {"raudit", "/remote", "RemoteAudit"}, {"radmin", "/remote", "RemoteAdmin"},
                {"spower", "/datastore", "DatastorePowerUser"}, {"sadmin", "/datastore", "DatastoreAdmin"}}) {
            String secret = cfg.createToken("alice@pbs", t[0], null);
            cfg.updateAcl(t[1], "alice@pbs!" + t[0], t[2], true, false);
            caller.put(t[0], OwnershipApiTest.token("alice@pbs!" + t[0], secret));
        }
        // push (PBS 3.3): a local datastore role on /datastore plus a remote role on the push target
        for (String[] t : new String[][] {{"p-backup", "DatastoreBackup", "/remote/rem1/dst", "RemoteSyncPushOperator"},
                {"p-power", "DatastorePowerUser", "/remote/rem1/dst", "RemoteSyncPushOperator"},
                {"p-admin", "DatastoreAdmin", "/remote/rem1/dst", "RemoteSyncPushOperator"},
                {"p-audit", "DatastoreAudit", "/remote/rem1/dst", "RemoteSyncPushOperator"},
                {"p-reader", "DatastoreReader", "/remote/rem1/dst", "RemoteSyncPushOperator"},
                {"p-rpower", "DatastoreAdmin", "/remote/rem1/dst", "RemoteDatastorePowerUser"},
                {"p-pullop", "DatastoreAdmin", "/remote/rem1/dst", "RemoteSyncOperator"},
                {"p-ns", "DatastoreAdmin", "/remote/rem1/dst/prod", "RemoteSyncPushOperator"}}) {
            String secret = cfg.createToken("alice@pbs", t[0], null);
            cfg.updateAcl("/datastore", "alice@pbs!" + t[0], t[1], true, false);
            cfg.updateAcl(t[2], "alice@pbs!" + t[0], t[3], true, false);
            caller.put(t[0], OwnershipApiTest.token("alice@pbs!" + t[0], secret));
        }
        cfg.updateAcl("/remote", "alice@pbs!spower", "RemoteSyncOperator", true, false);
        cfg.updateAcl("/remote", "alice@pbs!sadmin", "RemoteSyncOperator", true, false);
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of(), "127.0.0.1", 0);
        JpbsRestHandler rest = JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO);
        rest = rest.withServices(rest.services().withJobs(new LocalDatastoreJobs("root@pam", rest.services().budget())));
        server = JpbsServer.start(sc, auth, rest);
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

    @BeforeEach
    void jobs() throws Exception {
        Files.writeString(config.resolve("prune.cfg"), "prune: p-store\n\tkeep-last 2\n\tschedule daily\n\tstore store\n\n"
                + "prune: p-other\n\tkeep-last 2\n\tschedule daily\n\tstore other\n");
        Files.writeString(config.resolve("verification.cfg"), "verification: v-store\n\tschedule daily\n\tstore store\n");
        Files.writeString(config.resolve("remote.cfg"), "remote: rem1\n\tauth-id sync@pbs\n\thost pbs.example.net\n"
                + "\tpassword c2VjcmV0\n");
        Files.writeString(config.resolve("sync.cfg"), "sync: s-store\n\tremote rem1\n\tremote-store src\n\tstore store\n");
    }

    Resp call(String who, String method, String path, String form) throws Exception {
        return http.send(method, API + path, caller.get(who), form);
    }

    List<String> ids(Resp r, String key) throws Exception {
        List<String> out = new ArrayList<>();
        r.json().get("data").forEach(j -> out.add(j.get(key).asText()));
        return out;
    }

    @Test
    void pruneJobsPerRole() throws Exception {
        // list: Datastore.Audit or Modify on the job's datastore (DatastoreReader has Audit); the foreign admin
        // sees only its store's job
        Map<String, List<String>> seen = Map.of("backup", List.of(), "power", List.of(), "admin", List.of("p-store", "p-other"),
                "audit", List.of("p-store", "p-other"), "reader", List.of("p-store", "p-other"), "foreign", List.of("p-other"));
        for (Map.Entry<String, List<String>> e : seen.entrySet()) {
            Resp r = call(e.getKey(), "GET", "/config/prune", null);
            assertEquals(200, r.status(), r.text());
            assertEquals(e.getValue(), ids(r, "id"), e.getKey());
            assertEquals(64, r.json().get("digest").asText().length());
            Resp a = call(e.getKey(), "GET", "/admin/prune", null);
            assertEquals(e.getValue(), ids(a, "id"), "admin/prune " + e.getKey());
        }
        JsonNode st = call("admin", "GET", "/admin/prune?store=store", null).json().get("data").get(0);
        assertTrue(st.get("next-run").asLong() % 86400 == 0 || st.has("next-run"), st.toString());
        assertFalse(st.has("last-run-upid"), st.toString());
        // create: Datastore.Modify
        for (String who : List.of("backup", "power", "audit", "reader", "foreign")) {
            Resp r = call(who, "POST", "/config/prune", "id=new1&store=store&schedule=daily&keep-last=1");
            assertEquals(403, r.status(), who + ": " + r.text());
            assertEquals("permission check failed", r.text().strip());
        }
        assertEquals(200, call("admin", "POST", "/config/prune", "id=new1&store=store&schedule=daily&keep-last=1").status());
        Resp dup = call("admin", "POST", "/config/prune", "id=new1&store=store&schedule=daily");
        assertEquals(400, dup.status());
        assertTrue(dup.text().contains("job 'new1' already exists."), dup.text());
        Resp bad = call("admin", "POST", "/config/prune", "id=new2&store=store&schedule=mon..xyz");
        assertEquals(400, bad.status());
        assertTrue(bad.text().contains("calendar event 'mon..xyz'"), bad.text());
        // read, update with digest, delete
        assertEquals(403, call("foreign", "GET", "/config/prune/new1", null).status());
        Resp read = call("audit", "GET", "/config/prune/new1", null);
        assertEquals("1", read.json().get("data").get("keep-last").asText());
        String digest = read.json().get("digest").asText();
        assertEquals(403, call("audit", "PUT", "/config/prune/new1", "keep-last=3").status());
        assertEquals(200, call("admin", "PUT", "/config/prune/new1", "keep-last=3&digest=" + digest).status());
        Resp stale = call("admin", "PUT", "/config/prune/new1", "keep-last=4&digest=" + digest);
        assertEquals(400, stale.status());
        assertTrue(stale.text().contains("detected modified configuration - file changed by other user? Try again."));
        assertEquals(403, call("foreign", "PUT", "/config/prune/p-other", "store=store").status(), "moving a job to a store without Modify");
        assertEquals(200, call("admin", "PUT", "/config/prune/new1", "delete=keep-last").status());
        assertFalse(Files.readString(config.resolve("prune.cfg")).contains("keep-last 3"));
        assertEquals(403, call("audit", "DELETE", "/config/prune/new1", null).status());
        assertEquals(200, call("admin", "DELETE", "/config/prune/new1", null).status());
        assertEquals(400, call("admin", "DELETE", "/config/prune/new1", null).status());
        // run: Datastore.Modify; answers a UPID of a prunejob task
        assertEquals(403, call("audit", "POST", "/admin/prune/p-store/run", null).status());
        assertEquals(403, call("foreign", "POST", "/admin/prune/p-store/run", null).status());
        Resp run = call("admin", "POST", "/admin/prune/p-store/run", null);
        assertEquals(200, run.status(), run.text());
        assertTrue(run.json().get("data").asText().contains(":prunejob:store\\x3ap\\x2dstore:"), run.text());
    }

    @Test
    void verifyJobsPerRole() throws Exception {
        // Datastore.Audit or Verify to see; Verify to change and run
        Map<String, Integer> create = Map.of("backup", 403, "power", 403, "audit", 403, "reader", 200, "foreign", 403,
                "admin", 200); // DatastoreReader has Datastore.Verify
        for (Map.Entry<String, Integer> e : create.entrySet()) {
            Resp r = call(e.getKey(), "POST", "/config/verify", "id=v-" + e.getKey() + "&store=store&schedule=daily");
            assertEquals((int) e.getValue(), r.status(), e.getKey() + ": " + r.text());
        }
        assertEquals(List.of("v-store", "v-admin", "v-reader"), ids(call("audit", "GET", "/config/verify", null), "id").stream()
                .sorted(java.util.Comparator.comparing(x -> List.of("v-store", "v-admin", "v-reader").indexOf(x))).toList());
        assertEquals(List.of(), ids(call("backup", "GET", "/admin/verify", null), "id"));
        assertEquals(List.of(), ids(call("foreign", "GET", "/admin/verify", null), "id"));
        assertEquals(403, call("audit", "POST", "/admin/verify/v-store/run", null).status());
        Resp run = call("admin", "POST", "/admin/verify/v-store/run", null);
        assertEquals(200, run.status(), run.text());
        assertTrue(run.json().get("data").asText().contains(":verificationjob:store\\x3av\\x2dstore:"), run.text());
    }

    @Test
    void remotesNeedRemotePrivilegesAndNeverAnswerPasswords() throws Exception {
        for (String who : List.of("backup", "power", "admin", "audit", "reader", "foreign")) {
            assertEquals(List.of(), ids(call(who, "GET", "/config/remote", null), "name"), who);
            assertEquals(403, call(who, "POST", "/config/remote", "name=rem2&host=h2&auth-id=a@pbs&password=x").status(), who);
        }
        Resp list = call("raudit", "GET", "/config/remote", null);
        assertEquals(List.of("rem1"), ids(list, "name"));
        assertFalse(list.text().contains("password"), list.text());
        assertFalse(call("raudit", "GET", "/config/remote/rem1", null).text().contains("password"));
        assertEquals(403, call("raudit", "POST", "/config/remote", "name=rem2&host=h2&auth-id=a@pbs&password=x").status());
        // a bad value names its key once, in PBS's form (it read "'port': port: ..." before)
        Resp badPort = call("radmin", "POST", "/config/remote", "name=rem3&host=h3&auth-id=a@pbs&password=x&port=70000");
        assertEquals(400, badPort.status());
        assertEquals("parameter verification failed - 'port': value must have a maximum value of 65535 (got 70000)", badPort.text());
        Resp badHost = call("radmin", "PUT", "/config/remote/rem1", "host=%5B%3A%3A1");
        assertEquals("parameter verification failed - 'host': '[::1' is not a host name or address (a DNS name,"
                + " an IPv4 address, or an IPv6 address without brackets)", badHost.text());
        assertEquals(200, call("radmin", "POST", "/config/remote", "name=rem2&host=h2&auth-id=a@pbs&password=s3cret").status());
        assertTrue(Files.readString(config.resolve("remote.cfg")).contains("\tpassword czNjcmV0\n"));
        Resp hidden = call("raudit", "DELETE", "/config/remote/rem1", null);
        assertEquals(403, hidden.status(), "privileges before the sync-job check: " + hidden.text());
        assertFalse(hidden.text().contains("s-store"), hidden.text());
        Resp used = call("radmin", "DELETE", "/config/remote/rem1", null);
        assertEquals(400, used.status());
        assertTrue(used.text().contains("remote 'rem1' is used by sync job 's-store' (datastore 'store')"), used.text());
        assertEquals(200, call("radmin", "DELETE", "/config/remote/rem2", null).status());
    }

    @Test
    void syncJobsNeedDatastoreAndRemotePrivileges() throws Exception {
        // see: Datastore.Audit on the store and Remote.Audit on the remote; admin has no Remote.Audit
        assertEquals(List.of(), ids(call("admin", "GET", "/config/sync", null), "id"));
        assertEquals(List.of(), ids(call("raudit", "GET", "/admin/sync", null), "id"));
        assertEquals(403, call("admin", "POST", "/config/sync", "id=sync2&store=store&remote=rem1&remote-store=src").status());
        assertEquals(403, call("admin", "POST", "/admin/sync/s-store/run", null).status());
    }

    static String push(String owner, String extra) {
        return "id=push1&store=store&remote=rem1&remote-store=dst&sync-direction=push"
                + (owner == null ? "" : "&owner=" + java.net.URLEncoder.encode(owner, java.nio.charset.StandardCharsets.UTF_8))
                + extra;
    }

    /** Creates push1 as {@code who}; on success removes it again (the same check). */
    int createPush(String who, String owner, String extra) throws Exception {
        Resp r = call(who, "POST", "/config/sync", push(owner, extra));
        if (r.status() == 200) {
            assertEquals(200, call(who, "DELETE", "/config/sync/push1", null).status(), who);
        } else {
            assertEquals("permission check failed", r.text().strip(), who);
        }
        return r.status();
    }

    @Test
    void pushJobsNeedRemoteDatastoreBackupAndLocalReadOrOwnership() throws Exception {
        // the job's owner: Datastore.Backup or Datastore.Read+Audit locally (DatastoreAudit has neither)
        Map<String, Integer> own = Map.of("p-backup", 200, "p-power", 200, "p-admin", 200, "p-audit", 403, "p-reader", 200);
        for (Map.Entry<String, Integer> e : own.entrySet()) {
            assertEquals(e.getValue(), createPush(e.getKey(), "alice@pbs!" + e.getKey(), ""), "owner " + e.getKey());
        }
        // a foreign owner (another user's job, or no owner = root@pam): Datastore.Read, Audit and Modify
        Map<String, Integer> foreign = Map.of("p-backup", 403, "p-power", 403, "p-admin", 200, "p-audit", 403,
                "p-reader", 403);
        for (Map.Entry<String, Integer> e : foreign.entrySet()) {
            assertEquals(e.getValue(), createPush(e.getKey(), "bob@pbs", ""), "foreign owner, " + e.getKey());
            assertEquals(e.getValue(), createPush(e.getKey(), null, ""), "root's job, " + e.getKey());
        }
        // without any remote privilege (the datastore roles alone) or with the pull role: no push
        for (String who : List.of("backup", "power", "admin", "audit", "reader", "foreign", "radmin")) {
            assertEquals(403, createPush(who, "alice@pbs!" + who, ""), who);
        }
        assertEquals(403, createPush("p-pullop", "alice@pbs!p-pullop", ""), "Remote.Read is not Remote.DatastoreBackup");
        Resp pull = call("p-pullop", "POST", "/config/sync", "id=pull1&store=store&remote=rem1&remote-store=dst"
                + "&owner=alice%40pbs%21p-pullop");
        assertEquals(200, pull.status(), "the pull role still pulls: " + pull.text());
        // remove-vanished: Remote.DatastorePrune (RemoteDatastorePowerUser), not RemoteSyncPushOperator
        assertEquals(403, createPush("p-admin", "alice@pbs!p-admin", "&remove-vanished=true"));
        assertEquals(200, createPush("p-rpower", "alice@pbs!p-rpower", "&remove-vanished=true"));
        // the privilege is checked on the remote namespace
        assertEquals(200, createPush("p-ns", "alice@pbs!p-ns", "&remote-ns=prod"));
        assertEquals(200, createPush("p-ns", "alice@pbs!p-ns", "&remote-ns=prod/sub"));
        assertEquals(403, createPush("p-ns", "alice@pbs!p-ns", "&remote-ns=test"));
        assertEquals(403, createPush("p-ns", "alice@pbs!p-ns", ""));

        // see: Datastore.Audit and Remote.Audit on the push target; run: the change check
        Files.writeString(config.resolve("sync.cfg"), "sync: s-push\n\towner alice@pbs!p-backup\n\tremote rem1\n"
                + "\tremote-store dst\n\tstore store\n\tsync-direction push\n");
        for (String who : List.of("p-admin", "p-reader", "p-audit", "p-rpower")) {
            assertEquals(List.of("s-push"), ids(call(who, "GET", "/config/sync", null), "id"), who);
            assertEquals(List.of("s-push"), ids(call(who, "GET", "/admin/sync", null), "id"), who);
        }
        for (String who : List.of("p-backup", "p-power", "admin", "raudit", "p-ns")) {
            assertEquals(List.of(), ids(call(who, "GET", "/config/sync", null), "id"), who);
            assertEquals(403, call(who, "GET", "/config/sync/s-push", null).status(), who);
        }
        for (String who : List.of("p-audit", "p-reader", "p-power", "p-pullop", "admin")) {
            assertEquals(403, call(who, "POST", "/admin/sync/s-push/run", null).status(), who);
            assertEquals(403, call(who, "PUT", "/config/sync/s-push", "comment=x").status(), who);
        }
        // the owner passes the check; this server has no sync engine (jpbs serve hands it in), so the start is refused
        Resp run = call("p-backup", "POST", "/admin/sync/s-push/run", null);
        assertEquals(400, run.status(), "the owner runs its push job: " + run.text());
        assertTrue(run.text().contains("sync job 's-push': this server was started without the sync engine"), run.text());
        // taking the job over for another owner needs Datastore.Modify
        assertEquals(403, call("p-backup", "PUT", "/config/sync/s-push", "owner=alice%40pbs%21p-power").status());
    }

    @Test
    void groupFilterIsAnArrayPropertyAsPbs() throws Exception {
        Resp r = call("p-rpower", "POST", "/config/sync", push("alice@pbs!p-rpower",
                "&group-filter=type%3Avm&group-filter=exclude%3Aregex%3A%5Evm%2F1%7B1%2C3%7D%24"));
        assertEquals(200, r.status(), r.text());
        assertTrue(Files.readString(config.resolve("sync.cfg")).contains(
                "\tgroup-filter type:vm\n\tgroup-filter exclude:regex:^vm/1{1,3}$\n"), Files.readString(config.resolve("sync.cfg")));
        JsonNode job = call("p-rpower", "GET", "/config/sync/push1", null).json().get("data");
        assertEquals("[\"type:vm\",\"exclude:regex:^vm/1{1,3}$\"]", job.get("group-filter").toString());
        assertEquals(200, call("p-rpower", "PUT", "/config/sync/push1", "group-filter=group%3Act%2F200").status());
        assertEquals("[\"group:ct/200\"]", call("p-rpower", "GET", "/config/sync/push1", null).json().get("data")
                .get("group-filter").toString());
        assertEquals(400, call("p-rpower", "PUT", "/config/sync/push1", "group-filter=kind%3Avm").status());
        assertEquals(200, call("p-rpower", "PUT", "/config/sync/push1", "delete=group-filter").status());
        assertFalse(Files.readString(config.resolve("sync.cfg")).contains("group-filter"));
    }

    @Test
    void syncJobOwnerOtherThanTheCallerNeedsDatastoreModify() throws Exception {
        // PBS check_sync_job_modify_access: the owner (default root@pam) gets the synced groups
        String job = "id=own&store=store&remote=rem1&remote-store=src";
        assertEquals(403, call("spower", "POST", "/config/sync", job).status(), "default owner root@pam");
        assertEquals(403, call("spower", "POST", "/config/sync", job + "&owner=alice@pbs").status(), "the token's user");
        assertEquals(403, call("spower", "POST", "/config/sync", job + "&owner=root@pam").status());
        Resp own = call("spower", "POST", "/config/sync", job + "&owner=alice@pbs!spower");
        assertEquals(200, own.status(), own.text());
        assertEquals(403, call("spower", "PUT", "/config/sync/own", "owner=root@pam").status(), "changing the owner");
        assertEquals(403, call("spower", "PUT", "/config/sync/own", "delete=owner").status(), "back to root@pam");
        assertEquals(403, call("spower", "POST", "/admin/sync/s-store/run", null).status(), "a root@pam job");
        Resp other = call("sadmin", "POST", "/config/sync", "id=own2&store=store&remote=rem1&remote-store=src&owner=root@pam");
        assertEquals(200, other.status(), "Datastore.Modify may name any owner: " + other.text());
    }
}
