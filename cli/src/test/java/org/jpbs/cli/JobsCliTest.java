package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.snapshot.Datastore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jpbs calendar-event}, {@code jpbs prune-job|verify-job|sync-job|remote} ({@code docs/jobs.md}). */
class JobsCliTest {
    @TempDir(factory = FastTempDirs.class)
    Path tmp;
    Path config;
    CliRunner cli;

    @BeforeEach
    void setUp() {
        config = tmp.resolve("config");
        cli = new CliRunner(tmp.resolve("home"), Map.of("JPBS_CONFIG_DIR", config.toString(), "TZ", "UTC"));
    }

    CliRunner.Result ok(String... args) {
        CliRunner.Result r = cli.run(args);
        assertEquals(0, r.exit(), r.all());
        return r;
    }

    @Test
    void calendarEventPrintsTheRunsAsSystemdAnalyze() {
        CliRunner.Result r = ok("calendar-event", "mon..fri 02:00", "--iterations", "3", "--base-time", "2026-12-02T02:18:00Z");
        assertEquals("""
                  Original form: mon..fri 02:00
                Normalized form: Mon..Fri *-*-* 02:00:00
                    Next elapse: Thu 2026-12-03 02:00:00 UTC
                       From now: 23h left
                       Iter. #2: Fri 2026-12-04 02:00:00 UTC
                       From now: 1 day 23h left
                       Iter. #3: Mon 2026-12-07 02:00:00 UTC
                       From now: 4 days left
                """, r.out());
        CliRunner.Result berlin = new CliRunner(tmp.resolve("home"), Map.of("TZ", "Europe/Berlin"))
                .run("calendar-event", "*:0/15", "--base-time", "2026-12-02T02:18:00Z");
        assertTrue(berlin.out().contains("    Next elapse: Wed 2026-12-02 03:30:00 CET\n       (in UTC): Wed 2026-12-02 02:30:00 UTC\n"
                + "       From now: 12min left\n"), berlin.out());
        CliRunner.Result bad = cli.run("calendar-event", "mon..xyz");
        assertEquals(2, bad.exit());
        assertEquals("jpbs: error: calendar event 'mon..xyz': unable to parse calendar event at 'xyz' - weekday"
                + " (see 'jpbs calendar-event --help')\n", bad.err());
    }

    @Test
    void pruneJobLifecycleAndRun() throws Exception {
        Path repo = tmp.resolve("ds1");
        ok("datastore", "create", "store1", repo.toString());
        Datastore ds = Datastore.open(repo);
        for (int i = 0; i < 3; i++) {
            long time = 1_700_000_000L + 3600L * i;
            org.jpbs.core.api.BackupSnapshotRef ref = new org.jpbs.core.api.BackupSnapshotRef(
                    new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "web"), time);
            try (org.jpbs.datastore.snapshot.SnapshotWriter w = ds.beginSnapshot(ref, "root@pam")) {
                byte[] conf = "id web".getBytes(java.nio.charset.StandardCharsets.UTF_8);
                w.addBlob("host.conf.blob", org.jpbs.core.blob.DataBlob.encode(conf, 0, conf.length, false));
                w.commit(new org.jpbs.core.manifest.BackupManifest(BackupType.HOST, "web", time));
            }
        }
        ok("prune-job", "create", "nightly", "--store", "store1", "--schedule", "mon..fri 02:00", "--keep-last", "1");
        assertEquals("prune: nightly\n\tkeep-last 1\n\tschedule mon..fri 02:00\n\tstore store1\n",
                Files.readString(config.resolve("prune.cfg")));
        CliRunner.Result bad = cli.run("prune-job", "create", "other", "--store", "store1", "--schedule", "mon..xyz");
        assertEquals(2, bad.exit(), bad.all());
        assertTrue(bad.err().contains("--schedule: calendar event 'mon..xyz'"), bad.err());
        assertEquals(2, cli.run("prune-job", "create", "other", "--store", "store1", "--bogus", "1").exit());
        ok("prune-job", "update", "nightly", "--comment", "weekdays", "--schedule", "daily");
        assertTrue(ok("prune-job", "list").out().contains("nightly\tcomment=weekdays keep-last=1 schedule=daily store=store1"));
        CliRunner.Result run = ok("prune-job", "run", "nightly");
        assertTrue(run.out().contains("Pruning group \"host/web\""), run.all());
        assertEquals(1, ds.listSnapshots(new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "web")).size());
        String state = Files.readString(config.resolve("jobstates/prunejob-nightly.json"));
        assertTrue(state.startsWith("{\"finished\":{\"upid\":\"UPID:") && state.contains("\"state\":{\"OK\":{"), state);
        ok("prune-job", "remove", "nightly");
        assertFalse(Files.exists(config.resolve("jobstates/prunejob-nightly.json")));
        assertEquals("", Files.readString(config.resolve("prune.cfg")));
    }

    @Test
    void remotePasswordsAreStoredEncodedAndNeverListed() throws Exception {
        ok("remote", "create", "offsite", "--host", "pbs.example.net", "--auth-id", "sync@pbs", "--password", "s3cret");
        assertTrue(Files.readString(config.resolve("remote.cfg")).contains("\tpassword czNjcmV0\n"));
        String list = ok("remote", "list", "--output-format", "json").out();
        // as PBS's API (config/remote): a remote is named by "name"; a job by "id"
        assertEquals("[{\"name\":\"offsite\",\"auth-id\":\"sync@pbs\",\"host\":\"pbs.example.net\"}]\n", list);
        ok("sync-job", "create", "pull1", "--store", "store1", "--remote", "offsite", "--remote-store", "store2",
                "--schedule", "hourly", "--remove-vanished", "true");
        assertEquals(1, cli.run("sync-job", "run", "pull1").exit());
        // a bad value is one line naming the option
        CliRunner.Result store = cli.run("sync-job", "create", "pull2", "--store", "store1", "--remote", "offsite",
                "--remote-store", "s");
        assertEquals(2, store.exit(), store.all());
        assertTrue(store.err().startsWith("jpbs: error: --remote-store: invalid datastore name 's'"), store.err());
        CliRunner.Result host = cli.run("remote", "create", "other", "--host", "[::1", "--auth-id", "sync@pbs",
                "--password", "x");
        assertEquals(2, host.exit(), host.all());
        assertTrue(host.err().startsWith("jpbs: error: --host: '[::1' is not a host name or address"), host.err());
        CliRunner.Result port = cli.run("remote", "update", "offsite", "--port", "70000");
        assertEquals(2, port.exit(), port.all());
        assertTrue(port.err().startsWith("jpbs: error: --port: value must have a maximum value of 65535 (got 70000)"), port.err());
        assertEquals(1, port.err().lines().count(), port.err());
        assertTrue(ok("sync-job", "list", "--output-format", "json").out().startsWith("[{\"id\":\"pull1\","));
    }

    @Test
    void groupFilterRepeatsAsPbsArrayProperty() throws Exception {
        ok("sync-job", "create", "pull2", "--store", "store1", "--remote", "offsite", "--remote-store", "store2",
                "--group-filter", "type:vm", "--group-filter", "exclude:regex:^vm/1{1,3}$", "--group-filter=group:ct/200");
        String cfg = Files.readString(config.resolve("sync.cfg"));
        assertTrue(cfg.contains("\tgroup-filter type:vm\n\tgroup-filter exclude:regex:^vm/1{1,3}$\n"
                + "\tgroup-filter group:ct/200\n"), cfg);
        assertTrue(ok("sync-job", "list", "--output-format", "json").out().contains(
                "\"group-filter\":[\"type:vm\",\"exclude:regex:^vm/1{1,3}$\",\"group:ct/200\"]"));
        ok("sync-job", "update", "pull2", "--group-filter", "type:ct", "--group-filter", "type:host");
        cfg = Files.readString(config.resolve("sync.cfg"));
        assertTrue(cfg.contains("\tgroup-filter type:ct\n\tgroup-filter type:host\n"), cfg);
        assertFalse(cfg.contains("type:vm"), cfg);
        assertTrue(ok("sync-job", "list").out().contains("group-filter=type:ct group-filter=type:host"));
        CliRunner.Result bad = cli.run("sync-job", "update", "pull2", "--group-filter", "type:ct", "--group-filter", "kind:x");
        assertEquals(2, bad.exit(), bad.all());
        assertTrue(bad.err().contains("group-filter: 'kind:x' is not"), bad.err());
        CliRunner.Result twice = cli.run("sync-job", "update", "pull2", "--store", "a1a", "--store", "b1b");
        assertEquals(2, twice.exit(), "other keys still may not repeat: " + twice.all());
        ok("sync-job", "update", "pull2", "--delete", "group-filter");
        assertFalse(Files.readString(config.resolve("sync.cfg")).contains("group-filter"));
    }
}
