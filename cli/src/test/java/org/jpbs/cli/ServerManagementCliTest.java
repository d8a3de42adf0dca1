package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every server management command of jpbs against a real jpbs server (TLS, HTTP/2, users,
 * tickets) on loopback: list, snapshot list/files/forget/notes/protected/upload-log, namespace
 * list/create/delete, change-owner, status, task list/log/stop, login/logout with the ticket
 * cache, the fingerprint store, benchmark, gc/prune/verify run as server tasks, completion and
 * man pages. JSON output is checked for the PBS API's field names; the effects are checked on disk.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServerManagementCliTest {
    static final long T1 = 1_700_000_000L;
    static final long T2 = 1_700_003_600L;
    static final BackupGroupRef GROUP = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "100");
    static final String SNAP1 = "vm/100/" + BackupSnapshotRef.formatTime(T1);
    static final String SNAP2 = "vm/100/" + BackupSnapshotRef.formatTime(T2);
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir(factory = FastTempDirs.class)
    static Path shared;

    static NetTestServer server;
    static Path home;

    @BeforeAll
    static void start() throws IOException {
        server = NetTestServer.startWithUsers(shared.resolve("server"));
        home = shared.resolve("home");
        Files.createDirectories(home);
        byte[] img = new byte[6 * 1024 * 1024 + 77];
        new Random(7).nextBytes(img);
        Files.write(shared.resolve("disk.img"), img);
        for (long t : new long[] {T1, T2}) {
            CliRunner.Result b = cli().run("backup", "--backup-type", "vm", "--backup-id", "100", "--backup-time",
                    Long.toString(t), "disk.img:" + shared.resolve("disk.img"));
            assertEquals(0, b.exit(), b.all());
        }
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        FastTempDirs.deleteTree(shared.resolve("server/ds"));
    }

    /** The user repository root@pam with password, ticket cache and config dir below the test home. */
    static Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("PBS_REPOSITORY", server.userRepository());
        env.put("PBS_PASSWORD", NetTestServer.ROOT_PASSWORD);
        env.put("PBS_FINGERPRINT", server.fingerprint());
        env.put("XDG_RUNTIME_DIR", shared.resolve("run").toString());
        env.put("XDG_CONFIG_HOME", shared.resolve("xdgconfig").toString());
        return env;
    }

    static CliRunner cli() {
        return new CliRunner(home, env());
    }

    static CliRunner cli(Map<String, String> env) {
        return new CliRunner(home, env);
    }

    static JsonNode json(CliRunner.Result r) throws IOException {
        assertEquals(0, r.exit(), r.all());
        return JSON.readTree(r.out());
    }

    static Set<String> fields(JsonNode o) {
        Set<String> s = new TreeSet<>();
        o.fieldNames().forEachRemaining(s::add);
        return s;
    }

    static void assertHas(JsonNode o, String... names) {
        for (String n : names) {
            assertTrue(o.has(n), "missing field '" + n + "' in " + o);
        }
    }

    static Path snapshotDir(String snap) throws IOException {
        return server.datastore().snapshotDir(BackupSnapshotRef.parse(BackupNamespace.ROOT, snap));
    }

    @Test
    @Order(1)
    void listShowsGroupsInTextAndWithTheApiFieldNames() throws Exception {
        CliRunner.Result t = cli().run("list");
        assertEquals(0, t.exit(), t.all());
        List<String> lines = t.out().lines().toList();
        assertEquals(List.of("group", "last snapshot", "backup-count", "files"),
                List.of(lines.get(0).split("\\s{2,}")));
        assertEquals(List.of("vm/100", SNAP2, "2", "disk.img index.json"), List.of(lines.get(2).split("\\s{2,}")));

        JsonNode j = json(cli().run("list", "--output-format", "json"));
        assertEquals(1, j.size(), j.toString());
        assertHas(j.get(0), "backup-type", "backup-id", "last-backup", "backup-count", "files", "owner");
        assertEquals("vm", j.get(0).get("backup-type").asText());
        assertEquals(T2, j.get(0).get("last-backup").asLong());
        assertEquals(2, j.get(0).get("backup-count").asInt());

        CliRunner.Result pretty = cli().run("list", "--output-format", "json-pretty");
        assertEquals(j, JSON.readTree(pretty.out()));
        assertTrue(pretty.out().contains("\n  {"), pretty.out());

        CliRunner.Result bad = cli().run("list", "--output-format", "yaml");
        assertEquals(2, bad.exit(), bad.all());
        assertTrue(bad.err().contains("--output-format: unknown format 'yaml'"), bad.err());
    }

    @Test
    @Order(2)
    void snapshotListAndFilesAsJson() throws Exception {
        JsonNode s = json(cli().run("snapshot", "list", "--output-format", "json"));
        assertEquals(2, s.size(), s.toString());
        for (JsonNode e : s) {
            assertHas(e, "backup-type", "backup-id", "backup-time", "files", "size", "protected", "owner");
        }
        JsonNode f = json(cli().run("snapshot", "files", SNAP1, "--output-format", "json"));
        List<String> names = new ArrayList<>();
        for (JsonNode e : f) {
            assertHas(e, "filename", "size", "crypt-mode");
            names.add(e.get("filename").asText());
        }
        assertTrue(names.contains("disk.img.fidx") && names.contains("index.json.blob"), names.toString());
    }

    @Test
    @Order(3)
    void notesAreShownAndUpdatedInTheManifest() throws Exception {
        CliRunner.Result u = cli().run("snapshot", "notes", "update", SNAP1, "first line\nsecond line");
        assertEquals(0, u.exit(), u.all());
        assertEquals("first line\nsecond line",
                server.manifest(BackupSnapshotRef.parse(BackupNamespace.ROOT, SNAP1)).unprotected().path("notes").asText());
        CliRunner.Result t = cli().run("snapshot", "notes", "show", SNAP1);
        assertEquals("first line\nsecond line\n", t.out(), t.all());
        JsonNode j = json(cli().run("snapshot", "notes", "show", SNAP1, "--output-format", "json"));
        assertEquals(Set.of("notes"), fields(j));
        assertEquals("first line\nsecond line", j.get("notes").asText());
        // the group listing shows the first line as the snapshot's comment
        JsonNode list = json(cli().run("snapshot", "list", "--output-format", "json"));
        boolean found = false;
        for (JsonNode e : list) {
            if (e.get("backup-time").asLong() == T1) {
                assertEquals("first line", e.path("comment").asText());
                found = true;
            }
        }
        assertTrue(found, list.toString());
    }

    @Test
    @Order(4)
    void protectionIsShownUpdatedAndStopsForget() throws Exception {
        assertEquals("false\n", cli().run("snapshot", "protected", "show", SNAP1).out());
        assertEquals(0, cli().run("snapshot", "protected", "update", SNAP1, "true").exit());
        assertTrue(Files.exists(snapshotDir(SNAP1).resolve(".protected")));
        assertEquals("true\n", cli().run("snapshot", "protected", "show", SNAP1).out());
        JsonNode j = json(cli().run("snapshot", "protected", "show", SNAP1, "--output-format", "json"));
        assertEquals(Set.of("protected"), fields(j));
        assertTrue(j.get("protected").asBoolean());

        CliRunner.Result f = cli().run("snapshot", "forget", SNAP1);
        assertEquals(1, f.exit(), f.all());
        assertTrue(Files.isDirectory(snapshotDir(SNAP1)));
        assertEquals(1, f.err().lines().count(), f.err());

        CliRunner.Result bad = cli().run("snapshot", "protected", "update", SNAP1, "maybe");
        assertEquals(2, bad.exit(), bad.all());
        assertEquals(0, cli().run("snapshot", "protected", "update", SNAP1, "false").exit());
        assertFalse(Files.exists(snapshotDir(SNAP1).resolve(".protected")));
    }

    @Test
    @Order(5)
    void uploadLogWritesClientLogBlobOnceAndTheFileListShowsIt() throws Exception {
        Path log = shared.resolve("backup.log");
        Files.writeString(log, "INFO: starting backup\nINFO: done\n");
        CliRunner.Result u = cli().run("snapshot", "upload-log", SNAP2, log.toString());
        assertEquals(0, u.exit(), u.all());
        Path blob = snapshotDir(SNAP2).resolve("client.log.blob");
        assertTrue(Files.isRegularFile(blob));
        byte[] plain = org.jpbs.core.blob.DataBlob.wrap(Files.readAllBytes(blob), "client.log.blob").decode("log", -1);
        assertEquals("INFO: starting backup\nINFO: done\n", new String(plain, StandardCharsets.UTF_8));
        CliRunner.Result again = cli().run("snapshot", "upload-log", SNAP2, log.toString());
        assertEquals(1, again.exit(), again.all());
        assertTrue(again.err().contains("backup already contains a log."), again.err());
        JsonNode s = json(cli().run("snapshot", "list", "vm/100", "--output-format", "json"));
        assertTrue(s.toString().contains("client.log.blob"), s.toString());
        // the text listing shows the API's list too (manifest, log), as the JSON one and the PBS client
        CliRunner.Result files = cli().run("snapshot", "files", SNAP2);
        assertEquals(0, files.exit(), files.all());
        assertEquals(List.of("filename", "size", "crypt-mode"), List.of(files.out().lines().findFirst().orElseThrow().split("\\s{2,}")));
        for (String name : List.of("disk.img.fidx", "index.json.blob", "client.log.blob")) {
            assertTrue(files.out().contains(name), files.out());
        }
        CliRunner.Result missing = cli().run("snapshot", "upload-log", SNAP2, shared.resolve("nope.log").toString());
        assertEquals(1, missing.exit());
        assertTrue(missing.err().contains("nope.log"), missing.err());
    }

    @Test
    @Order(6)
    void namespacesAreCreatedListedAndDeletedOverTheApi() throws Exception {
        assertEquals(0, cli().run("namespace", "create", "prod").exit());
        CliRunner.Result sub = cli().run("namespace", "create", "prod/web");
        assertEquals(0, sub.exit(), sub.all());
        assertTrue(Files.isDirectory(server.storePath.resolve("ns/prod/ns/web")));
        CliRunner.Result orphan = cli().run("namespace", "create", "nothere/child");
        assertEquals(1, orphan.exit(), orphan.all());
        assertEquals(List.of("prod", "prod/web"), cli().run("namespace", "list").out().lines().toList());
        JsonNode j = json(cli().run("namespace", "list", "--output-format", "json"));
        for (JsonNode e : j) {
            assertHas(e, "ns");
        }
        assertEquals(List.of("prod", "prod/web"), cli().run("namespace", "list", "prod", "--max-depth", "1").out().lines()
                .toList());
        // a backup into the namespace, then a refused and a forced delete
        CliRunner.Result b = cli().run("backup", "--ns", "prod/web", "--backup-type", "host", "--backup-id", "web1",
                "--backup-time", Long.toString(T1), "disk.img:" + shared.resolve("disk.img"));
        assertEquals(0, b.exit(), b.all());
        CliRunner.Result refused = cli().run("namespace", "delete", "prod/web");
        assertEquals(1, refused.exit(), refused.all());
        assertTrue(Files.isDirectory(server.storePath.resolve("ns/prod/ns/web/host/web1")));
        CliRunner.Result forced = cli().run("namespace", "delete", "prod/web", "--delete-groups");
        assertEquals(0, forced.exit(), forced.all());
        assertFalse(Files.exists(server.storePath.resolve("ns/prod/ns/web")));
        assertEquals(List.of("prod"), cli().run("namespace", "list").out().lines().toList());
        assertEquals(2, cli().run("namespace", "delete", "").exit());
    }

    @Test
    @Order(7)
    void changeOwnerRewritesTheOwnerFile() throws Exception {
        CliRunner.Result c = cli().run("change-owner", "vm/100", NetTestServer.TOKEN_ID);
        assertEquals(0, c.exit(), c.all());
        assertEquals(NetTestServer.TOKEN_ID, server.datastore().owner(GROUP));
        CliRunner.Result unknown = cli().run("change-owner", "vm/100", "nobody@pbs");
        assertEquals(1, unknown.exit(), unknown.all());
        assertEquals(NetTestServer.TOKEN_ID, server.datastore().owner(GROUP));
        assertEquals(2, cli().run("change-owner", "vm/100", "not an auth id").exit());
        assertEquals(0, cli().run("change-owner", "vm/100", "root@pam").exit());
        assertEquals("root@pam", server.datastore().owner(GROUP));
    }

    /**
     * {@code jpbs group forget GROUP}: the PBS client's {@code group forget} (DELETE .../groups).
     * Without a terminal nothing is asked: it needs {@code --yes} (usage error otherwise, nothing
     * removed); a missing group is the server's one-line error.
     */
    @Test
    @Order(7)
    void groupForgetRemovesTheWholeGroupOnTheServer() throws Exception {
        for (long t : new long[] {T1, T2}) {
            CliRunner.Result b = cli().run("backup", "--backup-type", "vm", "--backup-id", "300", "--backup-time",
                    Long.toString(t), "disk.img:" + shared.resolve("disk.img"));
            assertEquals(0, b.exit(), b.all());
        }
        BackupGroupRef g300 = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "300");
        int others = server.datastore().listSnapshots(GROUP).size();
        CliRunner.Result refused = cli().run("group", "forget", "vm/300");
        assertEquals(2, refused.exit(), refused.all());
        assertTrue(refused.err().contains("--yes"), refused.all());
        assertEquals(2, server.datastore().listSnapshots(g300).size(), "nothing removed without confirmation");
        CliRunner.Result ok = cli().run("group", "forget", "vm/300", "--yes");
        assertEquals(0, ok.exit(), ok.all());
        assertEquals("Successfully deleted group!\n", ok.out());
        assertFalse(Files.exists(server.datastore().groupDir(g300)), "group directory removed");
        CliRunner.Result again = cli().run("group", "forget", "vm/300", "--yes");
        assertEquals(1, again.exit(), again.all());
        assertTrue(again.err().contains("backup group 'vm/300' does not exist"), again.all());
        assertEquals(2, cli().run("group", "forget", "nonsense", "--yes").exit());
        assertEquals(others, server.datastore().listSnapshots(GROUP).size(), "the other group is untouched");
    }

    /** On a local datastore: the same command removes the group directly; protected snapshots stay. */
    @Test
    void groupForgetOnALocalDatastoreKeepsProtectedSnapshots() throws Exception {
        Path repo = shared.resolve("local-group-forget");
        CliRunner local = new CliRunner(home, Map.of());
        for (long t : new long[] {T1, T2}) {
            CliRunner.Result b = local.run("backup", "-q", "--repository", repo.toString(), "--backup-type", "vm",
                    "--backup-id", "7", "--backup-time", Long.toString(t), "disk.img:" + shared.resolve("disk.img"));
            assertEquals(0, b.exit(), b.all());
        }
        org.jpbs.datastore.snapshot.Datastore ds = org.jpbs.datastore.snapshot.Datastore.open(repo);
        BackupGroupRef g = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "7");
        ds.setProtected(new BackupSnapshotRef(g, T1), true);
        assertEquals(2, local.run("group", "forget", "--repository", repo.toString(), "vm/7").exit(), "no terminal, no --yes");
        CliRunner.Result partial = local.run("group", "forget", "--repository", repo.toString(), "vm/7", "--yes");
        assertEquals(1, partial.exit(), partial.all());
        assertEquals("jpbs: error: group only partially deleted due to protected snapshots\n", partial.err());
        assertEquals(1, ds.listSnapshots(g).size(), "the protected snapshot stays");
        ds.setProtected(new BackupSnapshotRef(g, T1), false);
        CliRunner.Result ok = local.run("group", "forget", "--repository", repo.toString(), "vm/7", "--yes");
        assertEquals(0, ok.exit(), ok.all());
        assertFalse(Files.exists(ds.groupDir(g)));
        FastTempDirs.deleteTree(repo);
    }

    @Test
    void groupForgetAsksAsThePbsClient() throws Exception {
        for (String[] c : new String[][] {{"y\n", "true"}, {"YES\n", "true"}, {"\n", "false"}, {"n\n", "false"},
                {"", "false"}}) {
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            boolean yes = org.jpbs.cli.manage.GroupForgetCommand.ask(new java.io.PrintStream(err, true),
                    new java.io.BufferedReader(new java.io.StringReader(c[0])), "vm/100", 2);
            assertEquals(Boolean.parseBoolean(c[1]), yes, "answer '" + c[0] + "'");
            assertEquals("Delete group \"vm/100\" with 2 snapshot(s)? [y/N]: ", err.toString());
        }
    }

    @Test
    @Order(8)
    void statusShowsUsage() throws Exception {
        JsonNode j = json(cli().run("status", "--output-format", "json"));
        assertHas(j, "total", "used", "avail");
        assertTrue(j.get("total").asLong() > 0);
        CliRunner.Result t = cli().run("status");
        assertEquals(0, t.exit(), t.all());
        assertTrue(t.out().startsWith("total: "), t.out());
        assertTrue(t.out().contains("used:  ") && t.out().contains("%)"), t.out());
    }

    @Test
    @Order(9)
    void gcRunsOnTheServerAndItsTaskIsListedAndItsLogShown() throws Exception {
        CliRunner.Result gc = cli().run("gc");
        assertEquals(0, gc.exit(), gc.all());
        assertTrue(gc.out().contains("Start GC phase1") && gc.out().lines().toList().getLast().equals("TASK OK"), gc.out());
        // the task log names the store as PBS's does, not a hidden server path
        assertTrue(gc.out().lines().anyMatch(l -> l.equals("starting garbage collection on store " + NetTestServer.STORE)), gc.out());
        assertFalse(gc.out().contains("<datastore>"), gc.out());
        // no line repeated or lost: the log as the API gives it
        JsonNode tasks = json(cli().run("task", "list", "--all", "--output-format", "json"));
        String upid = null;
        for (JsonNode t : tasks) {
            assertHas(t, "upid", "starttime", "worker_type", "user");
            if (t.get("worker_type").asText().equals("garbage_collection")) {
                upid = t.get("upid").asText();
                assertHas(t, "endtime", "status");
                assertEquals("OK", t.get("status").asText());
            }
        }
        assertTrue(upid != null, tasks.toString());
        CliRunner.Result log = cli().run("task", "log", upid);
        assertEquals(0, log.exit(), log.all());
        List<String> logLines = log.out().lines().toList();
        assertEquals(logLines.stream().distinct().count(), logLines.size(), log.out());
        List<String> gcLines = gc.out().lines().toList();
        assertEquals(gcLines, logLines, "gc follows the same log that task log prints");
        CliRunner.Result text = cli().run("task", "list", "--all");
        assertTrue(text.out().lines().findFirst().orElse("").matches("starttime\\s+endtime\\s+upid\\s+status"), text.out());
        assertEquals(2, cli().run("task", "log", "not-a-upid").exit());
        CliRunner.Result running = cli().run("task", "list", "--output-format", "json");
        assertEquals(0, json(running).size(), running.out());
        assertEquals(2, cli().run("gc", "--dry-run").exit());
    }

    @Test
    @Order(10)
    void pruneOnTheServerDryRunAsJsonThenAsAFollowedTask() throws Exception {
        JsonNode dry = json(cli().run("prune", "vm/100", "--keep-last", "1", "--dry-run", "--output-format", "json"));
        assertEquals(2, dry.size(), dry.toString());
        for (JsonNode e : dry) {
            assertHas(e, "backup-type", "backup-id", "backup-time", "keep");
            assertEquals(e.get("backup-time").asLong() == T2, e.get("keep").asBoolean(), e.toString());
        }
        assertTrue(Files.isDirectory(snapshotDir(SNAP1)));
        CliRunner.Result p = cli().run("prune", "vm/100", "--keep-last", "1");
        assertEquals(0, p.exit(), p.all());
        assertFalse(p.out().isBlank(), p.all());
        assertFalse(Files.exists(snapshotDir(SNAP1)));
        assertTrue(Files.isDirectory(snapshotDir(SNAP2)));
    }

    @Test
    @Order(11)
    void verifyOnTheServerFollowsTheTaskAndFailsOnACorruptChunk() throws Exception {
        CliRunner.Result ok = cli().run("verify");
        assertEquals(0, ok.exit(), ok.all());
        assertFalse(ok.out().isBlank(), ok.all());
        JsonNode j = json(cli().run("verify", SNAP2, "--output-format", "json"));
        assertEquals(Set.of("exitstatus", "upid"), fields(j));
        assertEquals("OK", j.get("exitstatus").asText());
        // corrupt every chunk file: the verify task fails and so does the command
        List<Path> chunks;
        try (Stream<Path> s = Files.walk(server.storePath.resolve(".chunks"))) {
            chunks = s.filter(Files::isRegularFile).toList();
        }
        List<byte[]> saved = new ArrayList<>();
        for (Path c : chunks) {
            saved.add(Files.readAllBytes(c));
            byte[] b = Files.readAllBytes(c);
            b[b.length - 1] ^= 0x55;
            Files.write(c, b);
        }
        CliRunner.Result bad = cli().run("verify", SNAP2);
        assertEquals(1, bad.exit(), bad.all());
        assertTrue(bad.err().contains("verification on 127.0.0.1:" + server.port() + " failed"), bad.err());
        assertEquals(1, bad.err().lines().count(), bad.err());
    }

    @Test
    @Order(12)
    void loginKeepsATicketThatLaterCommandsUseAndLogoutForgetsIt() throws Exception {
        Path tickets = shared.resolve("run/jpbs/tickets");
        Files.deleteIfExists(tickets);
        assertEquals(0, cli().run("login").exit());
        JsonNode cache = JSON.readTree(Files.readString(tickets));
        JsonNode entry = cache.path("127.0.0.1").path("root@pam");
        assertHas(entry, "timestamp", "ticket", "token");
        assertTrue(entry.get("ticket").asText().startsWith("PBS:root@pam:"), entry.toString());
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(tickets)));
        Map<String, String> noPassword = env();
        noPassword.remove("PBS_PASSWORD");
        CliRunner.Result withTicket = cli(noPassword).run("list");
        assertEquals(0, withTicket.exit(), withTicket.all());
        assertEquals(0, cli(noPassword).run("logout").exit());
        assertTrue(JSON.readTree(Files.readString(tickets)).path("127.0.0.1").path("root@pam").isMissingNode());
        CliRunner.Result without = cli(noPassword).run("list");
        assertEquals(1, without.exit(), without.all());
        assertTrue(without.err().contains("PBS_PASSWORD"), without.err());
    }

    @Test
    @Order(13)
    void aRememberedFingerprintIsTrustedAndAnUnknownOneIsRefused() throws Exception {
        Map<String, String> noPin = env();
        noPin.remove("PBS_FINGERPRINT");
        CliRunner.Result refused = cli(noPin).run("status");
        assertEquals(1, refused.exit(), refused.all());
        assertTrue(refused.err().contains(server.fingerprint()), refused.err());
        Path store = shared.resolve("xdgconfig/jpbs/fingerprints");
        Files.createDirectories(store.getParent());
        Files.writeString(store, "other.example " + server.fingerprint().replace('a', 'b') + "\n127.0.0.1 "
                + server.fingerprint() + "\n");
        CliRunner.Result remembered = cli(noPin).run("status");
        assertEquals(0, remembered.exit(), remembered.all());
    }

    @Test
    @Order(14)
    void benchmarkMeasuresEveryRowAgainstTheReference() throws Exception {
        JsonNode j = json(cli().run("benchmark", "--seconds", "0.05", "--output-format", "json"));
        assertEquals(Set.of("aes256_gcm", "compress", "decompress", "sha256", "tls", "verify"), fields(j));
        for (String k : List.of("aes256_gcm", "compress", "decompress", "sha256", "tls", "verify")) {
            assertTrue(j.get(k).get("speed").asDouble() > 0, k + ": " + j);
            assertTrue(j.get(k).get("top").asDouble() > 0, k + ": " + j);
        }
        assertTrue(Files.notExists(server.storePath.resolve("host/benchmark"))
                || server.datastore().listSnapshots(new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST,
                        "benchmark")).isEmpty(), "a benchmark keeps nothing");
        Map<String, String> local = env();
        local.remove("PBS_REPOSITORY");
        CliRunner.Result t = cli(local).run("benchmark", "--seconds", "0.02");
        assertEquals(0, t.exit(), t.all());
        assertTrue(t.out().contains("TLS (maximal backup upload speed)  not tested"), t.out());
        assertTrue(t.out().matches("(?s).*SHA256 checksum computation speed\\s+[0-9.]+ MB/s \\([0-9]+%\\).*"), t.out());
        // a repository that is a local directory cannot be measured: a usage error, not a silent skip of TLS
        CliRunner.Result dir = cli(local).run("benchmark", "--seconds", "0.02", "--repository", shared.resolve("localstore").toString());
        assertEquals(2, dir.exit(), dir.all());
        assertTrue(dir.err().contains("'jpbs benchmark' works on a server repository only"), dir.err());
        assertEquals("", dir.out());
    }

    @Test
    @Order(14)
    void aPinnedFingerprintMismatchIsAlwaysTheOneLineRefusal() {
        // the refused handshake closes the channel at once; every run must still name both fingerprints
        // (it was sometimes a NullPointerException: the TLS handler was looked up after it had left the pipeline)
        Map<String, String> env = env();
        String wrong = "00:".repeat(31) + "00";
        env.put("PBS_FINGERPRINT", wrong);
        for (int i = 0; i < 40; i++) {
            CliRunner.Result r = cli(env).run("status");
            assertEquals(1, r.exit(), r.all());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().contains("certificate fingerprint " + server.fingerprint() + " is not trusted (expected "
                    + wrong + ")"), "run " + i + ": " + r.err());
        }
    }

    @Test
    @Order(15)
    void serverOnlyCommandsOnALocalDirectoryAndLocalOnlyOnAServerAreUsageErrors() throws Exception {
        Map<String, String> local = env();
        local.put("PBS_REPOSITORY", shared.resolve("localstore").toString());
        for (String[] args : List.of(new String[] {"list"}, new String[] {"status"}, new String[] {"namespace", "list"},
                new String[] {"task", "list"}, new String[] {"login"}, new String[] {"change-owner", "vm/1", "a@pbs"})) {
            CliRunner.Result r = cli(local).run(args);
            assertEquals(2, r.exit(), String.join(" ", args) + ": " + r.all());
            assertTrue(r.err().contains("works on a server repository only"), r.err());
        }
        CliRunner.Result vma = cli().run("vma", "import", shared.resolve("x.vma").toString());
        assertEquals(2, vma.exit(), vma.all());
    }

    @Test
    @Order(16)
    void completionScriptsAndManPagesComeFromTheCommandModel() throws Exception {
        CliRunner.Result bash = cli().run("completion", "bash");
        assertEquals(0, bash.exit(), bash.all());
        assertTrue(bash.out().contains("complete -F") && bash.out().contains("namespace")
                && bash.out().contains("--output-format"), bash.out().substring(0, 200));
        CliRunner.Result zsh = cli().run("completion", "zsh");
        assertTrue(zsh.out().startsWith("#compdef jpbs\n") && zsh.out().contains("bashcompinit"));
        Path man = shared.resolve("man");
        assertEquals(0, cli().run("completion", "man", "--dir", man.toString()).exit());
        String page = Files.readString(man.resolve("jpbs-namespace-create.1"));
        assertTrue(page.startsWith(".TH \"JPBS-NAMESPACE-CREATE\" \"1\""), page);
        assertTrue(page.contains(".SH SYNOPSIS") && page.contains(".SH OPTIONS") && page.contains("\\-\\-repository"), page);
        assertTrue(Files.readString(man.resolve("jpbs.1")).contains(".BR jpbs\\-namespace (1)")
                || Files.readString(man.resolve("jpbs.1")).contains("jpbs-namespace (1)"));
        assertEquals(2, cli().run("completion", "fish").exit());
    }

    /** A scripted person at the terminal: answers the certificate question, types a password. */
    static final class Person implements org.jpbs.client.remote.Interaction {
        final boolean trust;
        final String password;
        final List<String> asked = new ArrayList<>();

        Person(boolean trust, String password) {
            this.trust = trust;
            this.password = password;
        }

        @Override
        public boolean canAsk() {
            return true;
        }

        @Override
        public boolean trustCertificate(String srv, String fingerprint) {
            asked.add("trust " + srv + " " + fingerprint);
            return trust;
        }

        @Override
        public String password(String authId, String srv) {
            asked.add("password " + authId + " " + srv);
            return password;
        }
    }

    @Test
    @Order(17)
    void anUnknownCertificateIsAcceptedAtThePromptAndRememberedAndAPasswordIsAskedFor() throws Exception {
        Path fps = shared.resolve("prompt/fingerprints");
        Path tickets = shared.resolve("prompt/tickets");
        var repo = org.jpbs.client.remote.Repository.parse(server.userRepository());
        var noSecret = new org.jpbs.client.remote.Credentials(null, null);
        Person no = new Person(false, NetTestServer.ROOT_PASSWORD);
        try (var pbs = new org.jpbs.client.remote.PbsClient(repo, noSecret, new org.jpbs.client.remote.ClientState(
                new org.jpbs.client.remote.TicketCache(tickets), new org.jpbs.client.remote.FingerprintStore(fps), no))) {
            org.junit.jupiter.api.Assertions.assertThrows(org.jpbs.client.http.UntrustedCertificateException.class,
                    () -> pbs.get("/api2/json/version", org.jpbs.client.http.Query.of()));
        }
        // as proxmox-backup-client: the password is asked first, then the certificate at the first connection
        assertEquals(List.of("password root@pam 127.0.0.1:" + server.port(),
                "trust 127.0.0.1:" + server.port() + " " + server.fingerprint()), no.asked);
        assertFalse(Files.exists(fps));

        Person yes = new Person(true, NetTestServer.ROOT_PASSWORD);
        try (var pbs = new org.jpbs.client.remote.PbsClient(repo, noSecret, new org.jpbs.client.remote.ClientState(
                new org.jpbs.client.remote.TicketCache(tickets), new org.jpbs.client.remote.FingerprintStore(fps), yes))) {
            JsonNode groups = pbs.get(pbs.datastorePath() + "/groups", org.jpbs.client.http.Query.of());
            assertEquals(1, groups.size());
        }
        assertEquals(List.of("password root@pam 127.0.0.1:" + server.port(),
                "trust 127.0.0.1:" + server.port() + " " + server.fingerprint()), yes.asked);
        assertEquals("127.0.0.1 " + server.fingerprint() + "\n", Files.readString(fps));
        // the next run asks nothing: the fingerprint is remembered, the ticket cached
        Person silent = new Person(false, null);
        try (var pbs = new org.jpbs.client.remote.PbsClient(repo, noSecret, new org.jpbs.client.remote.ClientState(
                new org.jpbs.client.remote.TicketCache(tickets), new org.jpbs.client.remote.FingerprintStore(fps), silent))) {
            assertEquals(1, pbs.get(pbs.datastorePath() + "/groups", org.jpbs.client.http.Query.of()).size());
        }
        assertEquals(List.of(), silent.asked);
        // a pinned fingerprint ($PBS_FINGERPRINT) that does not match is never overridden by a prompt
        String wrong = server.fingerprint().substring(0, 3) + (server.fingerprint().charAt(3) == 'a' ? 'b' : 'a')
                + server.fingerprint().substring(4);
        Person asked = new Person(true, null);
        try (var pbs = new org.jpbs.client.remote.PbsClient(repo, new org.jpbs.client.remote.Credentials(
                NetTestServer.ROOT_PASSWORD, wrong), new org.jpbs.client.remote.ClientState(null, null, asked))) {
            org.junit.jupiter.api.Assertions.assertThrows(org.jpbs.client.http.UntrustedCertificateException.class,
                    () -> pbs.get("/api2/json/version", org.jpbs.client.http.Query.of()));
        }
        assertEquals(List.of(), asked.asked);
    }

    @Test
    @Order(18)
    void theTerminalPromptShowsTheFingerprintAndAcceptsOnlyYesOrNo() {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        var prompts = new ConsolePrompts(new java.io.PrintStream(err, true, StandardCharsets.UTF_8),
                new java.io.BufferedReader(new java.io.StringReader("maybe\ny\n")), p -> "pw".toCharArray());
        assertTrue(prompts.trustCertificate("h:8007", "ab:cd"));
        String shown = err.toString(StandardCharsets.UTF_8);
        assertTrue(shown.startsWith("fingerprint: ab:cd\n"), shown);
        assertEquals(2, shown.split("Are you sure you want to continue connecting\\? \\(y/n\\): ", -1).length - 1, shown);
        var refuse = new ConsolePrompts(new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
                new java.io.BufferedReader(new java.io.StringReader("n\n")), p -> null);
        assertFalse(refuse.trustCertificate("h:8007", "ab:cd"));
        assertEquals("pw", prompts.password("root@pam", "h:8007"));
    }

    @Test
    @Order(19)
    void taskStopAbortsARunningBackupAndTaskLogFollowsItToItsEnd() throws Exception {
        var repo = org.jpbs.client.remote.Repository.parse(server.userRepository());
        var creds = new org.jpbs.client.remote.Credentials(NetTestServer.ROOT_PASSWORD, server.fingerprint());
        BackupSnapshotRef ref = new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "held"),
                T2 + 60);
        try (var pbs = new org.jpbs.client.remote.PbsClient(repo, creds);
                var session = pbs.startBackup(ref)) {
            JsonNode running = json(cli().run("task", "list", "--output-format", "json"));
            String upid = null;
            for (JsonNode t : running) {
                assertFalse(t.has("endtime"), t.toString());
                if (t.get("worker_type").asText().equals("backup")) {
                    upid = t.get("upid").asText();
                }
            }
            assertTrue(upid != null, running.toString());
            CliRunner.Result stop = cli().run("task", "stop", upid);
            assertEquals(0, stop.exit(), stop.all());
            CliRunner.Result log = cli().run("task", "log", upid);
            assertEquals(0, log.exit(), log.all());
            assertTrue(log.out().lines().toList().getLast().startsWith("TASK ERROR"), log.out());
            JsonNode ended = json(cli().run("task", "list", "--all", "--output-format", "json"));
            for (JsonNode t : ended) {
                if (t.get("upid").asText().equals(upid)) {
                    assertNotEquals("OK", t.get("status").asText(), t.toString());
                }
            }
        }
        assertTrue(server.datastore().listSnapshots(ref.group()).isEmpty(), "the aborted backup left nothing");
    }
}
