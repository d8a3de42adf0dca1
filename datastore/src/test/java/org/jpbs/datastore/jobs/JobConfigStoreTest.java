package org.jpbs.datastore.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jpbs.datastore.task.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** prune.cfg / verification.cfg / sync.cfg / remote.cfg and job state files ({@code docs/jobs.md}). */
class JobConfigStoreTest {
    @TempDir
    Path dir;

    @Test
    void pruneJobsAreWrittenAsPbsWritesThemAndKeepForeignLines() throws Exception {
        Path f = dir.resolve("prune.cfg");
        Files.writeString(f, "# managed by hand\nprune: old\n\tschedule daily\n\tstore store1\n\tkeep-last 3\n");
        JobConfigStore s = JobConfigStore.open(dir, JobKind.PRUNE);
        assertEquals("3", s.read().get("old").orElseThrow().get("keep-last").orElseThrow());
        s.update(c -> c.with(new JobConfig(JobKind.PRUNE, "nightly", Map.of("store", "store1", "schedule", "mon..fri 02:00",
                "ns", "a/b", "max-depth", "2", "keep-daily", "7", "comment", "week days"))));
        assertEquals("# managed by hand\nprune: old\n\tschedule daily\n\tstore store1\n\tkeep-last 3\n\n"
                + "prune: nightly\n\tcomment week days\n\tkeep-daily 7\n\tmax-depth 2\n\tns a/b\n\tschedule mon..fri 02:00\n\tstore store1\n",
                Files.readString(f));
        Map<String, String> ch = new HashMap<>();
        ch.put("keep-daily", null);
        ch.put("disable", "true");
        s.update(c -> c.withProperties("nightly", ch));
        JobConfig j = s.read().get("nightly").orElseThrow();
        assertTrue(j.disabled());
        assertFalse(j.props().containsKey("keep-daily"));
        assertEquals(2, j.maxDepth().getAsInt());
        s.update(c -> c.without("old"));
        assertEquals(1, s.read().all().size());
        assertTrue(Files.readString(f).startsWith("prune: nightly\n"), Files.readString(f));
    }

    @Test
    void unknownKeysAndSectionTypesAreRefusedNamingFileLineAndSection() throws Exception {
        String[][] cases = {
            {"prune.cfg", "prune: p1\n\tschedule daily\n\tstore store1\n\tkeep-lsat 3\n",
                "prune.cfg line 4: unknown property 'keep-lsat' in section 'prune: p1'"},
            {"sync.cfg", "sync: s1\n\tstore a1b\n\tremote-store b1c\n\tremove-vanish 1\n",
                "sync.cfg line 4: unknown property 'remove-vanish' in section 'sync: s1'"},
            {"verification.cfg", "verification: v1\n\tstore store1\n\tschedule daily\n\tdisable 1\n",
                "verification.cfg line 4: unknown property 'disable' in section 'verification: v1'"},
            {"remote.cfg", "remote: r1\n\thost h.example\n\tauth-id a@pam\n\tpassword x\n\tuserid a@pam\n",
                "remote.cfg line 5: unknown property 'userid' in section 'remote: r1'"},
            {"prune.cfg", "prune: p1\n\tschedule daily\n\tstore store1\n\nprnue: p2\n\tstore store1\n",
                "prune.cfg: unknown section type 'prnue'"},
        };
        for (String[] c : cases) {
            Files.writeString(dir.resolve(c[0]), c[1]);
            JobKind kind = java.util.Arrays.stream(JobKind.values()).filter(k -> k.file().equals(c[0])).findFirst().orElseThrow();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobConfigStore.open(dir, kind).read());
            assertEquals(dir + "/" + c[2], e.getMessage());
            Files.delete(dir.resolve(c[0]));
        }
    }

    /**
     * Every key PBS 3.x/4.x documents for these section types (its sync.cfg man page and API
     * schema: also encrypted-only, verified-only, run-on-mount, resync-corrupt, the rate limits,
     * the sync keys active-encryption-key and associated-key, verification read-threads and
     * verify-threads, remote use-node-proxy): a file written by PBS loads, and a rewrite by jpbs
     * keeps every line of it, whether jpbs acts on the key or not.
     */
    @Test
    void everyKeyPbsWritesLoadsAndIsKeptWhenTheFileIsRewritten() throws Exception {
        String fp = "aa:bb:cc:dd:ee:ff:00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff:00:11:22:33:44:55:66:77:88:99";
        Map<JobKind, String> files = Map.of(
                JobKind.PRUNE, "prune: p01\n\tcomment c\n\tdisable true\n\tkeep-daily 2\n\tkeep-hourly 3\n\tkeep-last 1\n"
                        + "\tkeep-monthly 5\n\tkeep-weekly 4\n\tkeep-yearly 6\n\tmax-depth 2\n\tns a/b\n\tschedule daily\n"
                        + "\tstore store1\n",
                JobKind.VERIFY, "verification: v01\n\tcomment c\n\tignore-verified true\n\tmax-depth 3\n\tns a\n"
                        + "\toutdated-after 30\n\tread-threads 2\n\tschedule daily\n\tstore store1\n\tverify-threads 4\n",
                JobKind.SYNC, "sync: s01\n\tactive-encryption-key key-2024\n\tassociated-key key-2023\n"
                        + "\tassociated-key key-2024\n\tburst-in 2MiB\n\tburst-out 3MiB\n\tcomment c\n\tencrypted-only true\n"
                        + "\tgroup-filter type:vm\n\tgroup-filter exclude:group:vm/100\n\tmax-depth 2\n\tns a\n"
                        + "\towner sync@pbs\n\trate-in 10MiB\n\trate-out 20MiB\n\tremote offsite\n\tremote-ns b\n"
                        + "\tremote-store store2\n\tremove-vanished true\n\tresync-corrupt true\n\trun-on-mount true\n"
                        + "\tschedule hourly\n\tstore store1\n\tsync-direction push\n\ttransfer-last 3\n"
                        + "\tverified-only true\n",
                JobKind.REMOTE, "remote: r01\n\tauth-id sync@pbs\n\tcomment c\n\tfingerprint " + fp + "\n"
                        + "\thost pbs.example.net\n\tpassword c2VjcmV0\n\tport 8007\n\tuse-node-proxy true\n");
        for (Map.Entry<JobKind, String> f : files.entrySet()) {
            JobKind kind = f.getKey();
            Files.writeString(dir.resolve(kind.file()), f.getValue());
            JobConfigStore s = JobConfigStore.open(dir, kind);
            String id = kind.sectionType().charAt(0) + "01";
            JobConfig before = s.read().get(id).orElseThrow(() -> new AssertionError(kind + " did not load"));
            for (String line : f.getValue().split("\n")) {
                if (line.startsWith("\t")) {
                    String key = line.substring(1, line.indexOf(' '));
                    assertTrue(kind.keys().contains(key), kind + " lacks PBS key " + key);
                    assertTrue(before.get(key).isPresent(), kind + ": " + key);
                }
            }
            s.update(c -> c.withProperties(id, Map.of("comment", "changed")));
            assertEquals(f.getValue().replace("\tcomment c\n", "\tcomment changed\n"),
                    Files.readString(dir.resolve(kind.file())), kind + ": every other line kept as PBS wrote it");
            assertEquals(before.props().size(), s.read().get(id).orElseThrow().props().size());
        }
        JobConfig sync = JobConfigStore.open(dir, JobKind.SYNC).read().get("s01").orElseThrow();
        assertEquals(List.of("key-2023", "key-2024"), sync.values("associated-key"), "an array property, one line per item");
        assertEquals(List.of("type:vm", "exclude:group:vm/100"), sync.values("group-filter"));
        // the new keys are checked like the old ones when written by jpbs
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobKind.VERIFY.checkValue("read-threads", "0"))
                .getMessage().startsWith("read-threads: "));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobKind.REMOTE.checkValue("use-node-proxy", "maybe"))
                .getMessage().startsWith("use-node-proxy: "));
    }

    @Test
    void badValuesAreRefusedNamingSectionAndKey() throws Exception {
        JobConfigStore s = JobConfigStore.open(dir, JobKind.VERIFY);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.update(c -> c.with(
                new JobConfig(JobKind.VERIFY, "ver1", Map.of("store", "store1", "schedule", "mon..xyz")))));
        assertEquals("verification 'ver1': schedule: calendar event 'mon..xyz': unable to parse calendar event at 'xyz' - weekday",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new JobConfig(JobKind.VERIFY, "ver1", Map.of("store", "store1")));
        assertEquals("verification 'ver1': missing property 'schedule'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new JobConfig(JobKind.PRUNE, "x", Map.of()));
        assertTrue(e.getMessage().startsWith("prune 'x': job id 'x' is not valid"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> s.update(c -> c.with(new JobConfig(JobKind.VERIFY, "ver1",
                Map.of("store", "store1", "schedule", "daily", "bogus", "1")))));
        assertEquals("unknown property 'bogus' for a verification section", e.getMessage());
        assertFalse(Files.exists(dir.resolve("verification.cfg")), "nothing written");
        Files.writeString(dir.resolve("verification.cfg"), "verification: ver2\n\tstore store1\n\tschedule daily\n\toutdated-after -1\n");
        e = assertThrows(IllegalArgumentException.class, s::read);
        assertTrue(e.getMessage().startsWith(dir.resolve("verification.cfg") + ": verification 'ver2': outdated-after"), e.getMessage());
    }

    @Test
    void remotesAndSyncJobsTakePbsKeys() throws Exception {
        JobConfigStore r = JobConfigStore.open(dir, JobKind.REMOTE);
        r.update(c -> c.with(new JobConfig(JobKind.REMOTE, "offsite", Map.of("host", "pbs.example.net", "port", "8007",
                "auth-id", "sync@pbs", "password", "c2VjcmV0", "fingerprint",
                "aa:bb:cc:dd:ee:ff:00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff:00:11:22:33:44:55:66:77:88:99"))));
        assertEquals("sync@pbs", r.read().get("offsite").orElseThrow().get("auth-id").orElseThrow());
        assertThrows(IllegalArgumentException.class, () -> new JobConfig(JobKind.REMOTE, "bad", Map.of("host", "h",
                "auth-id", "nobody", "password", "x")));
        JobConfigStore s = JobConfigStore.open(dir, JobKind.SYNC);
        s.update(c -> c.with(new JobConfig(JobKind.SYNC, "pull1", Map.of("store", "store1", "remote", "offsite",
                "remote-store", "store2", "remote-ns", "a", "group-filter", "exclude:type:ct", "remove-vanished", "true",
                "transfer-last", "3", "rate-in", "10MiB", "sync-direction", "pull", "schedule", "hourly"))));
        assertEquals("pull", s.read().get("pull1").orElseThrow().get("sync-direction").orElseThrow());
        assertThrows(IllegalArgumentException.class, () -> new JobConfig(JobKind.SYNC, "s2", Map.of("store", "store1",
                "remote-store", "x1y", "group-filter", "kind:vm")));
        // hosts as PBS's DNS_NAME_OR_IP_SCHEMA: no brackets, no underscore, no stray characters
        for (String good : List.of("pbs.example.net", "10.0.0.1", "::1", "fe80::1", "localhost")) {
            JobKind.REMOTE.checkValue("host", good);
        }
        for (String bad : List.of("[::1", "[::1]", "a_b.example", "-x", "h:8007", "1:2:3", "ex..ample")) {
            assertTrue(assertThrows(IllegalArgumentException.class, () -> JobKind.REMOTE.checkValue("host", bad))
                    .getMessage().startsWith("host: '" + bad + "' is not a host name or address"), bad);
        }
        // every message names its key (the CLI prints "--" + message)
        assertEquals("remote-store: invalid datastore name 's' (3..32 characters: letters, digits, '_', and after the first"
                + " also '.' and '-')", assertThrows(IllegalArgumentException.class,
                        () -> JobKind.SYNC.checkValue("remote-store", "s")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JobKind.PRUNE.checkValue("store", "a"))
                .getMessage().startsWith("store: invalid datastore name 'a'"));
    }

    @Test
    void jobStatesRoundTripInPbsJson() throws Exception {
        JobStateStore st = JobStateStore.open(dir);
        String upid = "UPID:node:00000001:00000002:00000003:6930A000:prunejob:store1\\x3anightly:root@pam:";
        assertEquals(new JobState.Created(970), st.load("prunejob", "nightly", 1000));
        st.save("prunejob", "nightly", new JobState.Started(upid));
        assertEquals("{\"started\":{\"upid\":\"" + upid.replace("\\", "\\\\") + "\"}}",
                Files.readString(dir.resolve("jobstates/prunejob-nightly.json")));
        st.save("prunejob", "nightly", new JobState.Finished(upid, TaskState.warnings(2, 1765000000L), null));
        assertEquals("{\"finished\":{\"upid\":\"" + upid.replace("\\", "\\\\")
                + "\",\"state\":{\"Warning\":{\"count\":2,\"endtime\":1765000000}},\"updated\":null}}",
                Files.readString(dir.resolve("jobstates/prunejob-nightly.json")));
        JobState back = st.load("prunejob", "nightly", 0);
        JobState.Finished f = assertInstanceOf(JobState.Finished.class, back);
        assertEquals(TaskState.warnings(2, 1765000000L), f.state());
        assertEquals(0x6930A000L, JobStateStore.lastRunTime(back));
        st.save("prunejob", "nightly", new JobState.Finished(upid, TaskState.error("boom", 5), 77L));
        assertEquals(77, JobStateStore.lastRunTime(st.load("prunejob", "nightly", 0)));
        Files.writeString(st.file("prunejob", "bad"), "{]");
        assertTrue(assertThrows(java.io.IOException.class, () -> st.load("prunejob", "bad", 0)).getMessage()
                .contains("prunejob-bad.json: not a job state"));
    }
}
