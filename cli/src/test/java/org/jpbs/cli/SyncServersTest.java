package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jpbs.client.engine.BackupCrypt;
import org.jpbs.client.engine.BackupEngine;
import org.jpbs.client.progress.ProgressListener;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.LocalSnapshotTarget;
import org.jpbs.datastore.snapshot.SnapshotInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sync between real servers on loopback ({@code docs/sync.md}): {@code jpbs pull} from one
 * {@code jpbs serve}-equivalent server into a local datastore and {@code jpbs push} from it to a
 * second one. Chunk counts come from both sides: the job's task log, the source server's reader
 * task logs ({@code sent N chunks}) and the push target's {@code chunk_upload_stats}; a remote
 * whose certificate changed fails with both fingerprints. Processes killed in the middle of a
 * sync: {@link SyncKilledProcessTest}.
 */
class SyncServersTest {
    static final long T1 = 1_700_000_000L;
    static final BackupGroupRef VM100 = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "100");
    static final BackupGroupRef CT200 = new BackupGroupRef(BackupNamespace.parse("prod"), BackupType.CT, "200");
    static final Pattern SUMMARY = Pattern.compile("Summary: sync job (pull|push): (\\d+) snapshots, (\\d+) chunks");

    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    CliRunner cli;
    Path local;

    private CliRunner.Result ok(String... args) {
        CliRunner.Result r = cli.run(args);
        assertEquals(0, r.exit(), r.all());
        return r;
    }

    private void setUpCli(NetTestServer... remotes) {
        cli = new CliRunner(tmp.resolve("home"), Map.of("JPBS_CONFIG_DIR", tmp.resolve("conf").toString(), "TZ", "UTC"));
        local = tmp.resolve("local");
        ok("datastore", "create", "local", local.toString());
        for (int i = 0; i < remotes.length; i++) {
            ok("remote", "create", "srv" + i, "--host", "127.0.0.1", "--port", String.valueOf(remotes[i].port()),
                    "--auth-id", NetTestServer.TOKEN_ID, "--password", remotes[i].tokenSecret,
                    "--fingerprint", remotes[i].fingerprint());
        }
    }

    static void backup(Datastore ds, BackupSnapshotRef ref, long seed, int mib, long changeSeed) throws IOException {
        backup(ds, ref, seed, mib, changeSeed, "root@pam");
    }

    /** As {@link #backup(Datastore, BackupSnapshotRef, long, int, long)}, a new group owned by {@code owner}. */
    static void backup(Datastore ds, BackupSnapshotRef ref, long seed, int mib, long changeSeed, String owner)
            throws IOException {
        byte[] img = new byte[mib << 20];
        new Random(seed).nextBytes(img);
        if (changeSeed != 0) {
            byte[] c = new byte[1 << 20];
            new Random(changeSeed).nextBytes(c);
            System.arraycopy(c, 0, img, 0, c.length);
        }
        Path file = Files.createTempFile(ds.root().getParent(), "img", ".raw");
        Files.write(file, img);
        if (!ds.namespaceExists(ref.group().ns())) {
            ds.createNamespace(ref.group().ns());
        }
        try (LocalSnapshotTarget t = LocalSnapshotTarget.begin(ds, ref, owner, true);
             FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            BackupEngine e = new BackupEngine(t, BackupCrypt.NONE, w -> { }).workers(2);
            e.backupBlob("qemu-server.conf.blob", ("name: " + ref + "\n").getBytes());
            e.backupImage("disk.img.fidx", in, in.size(), file.toString(), ProgressListener.NONE);
            e.finish();
        }
        Files.delete(file);
    }

    static long chunkFiles(Path store) throws IOException {
        try (Stream<Path> s = Files.walk(store.resolve(".chunks"))) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    /** Sum of "sent N chunks" over the reader task logs of a server. */
    static long sentChunks(NetTestServer s) throws IOException {
        Pattern p = Pattern.compile("sent (\\d+) chunks");
        long sum = 0;
        try (Stream<Path> files = Files.walk(s.dir.resolve("config").resolve("log"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Matcher m = p.matcher(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1));
                while (m.find()) {
                    sum += Long.parseLong(m.group(1));
                }
            }
        }
        return sum;
    }

    /** Sum of chunk_upload_stats.count over the finished snapshots of a server's datastore. */
    static long uploadedChunks(NetTestServer s) throws IOException {
        long sum = 0;
        Datastore ds = s.datastore();
        for (BackupNamespace ns : ds.listNamespaces()) {
            for (BackupGroupRef g : ds.listGroups(ns)) {
                for (SnapshotInfo i : ds.listSnapshots(g)) {
                    sum += i.finished() ? Math.max(0, s.uploadedChunks(i.ref())) : 0;
                }
            }
        }
        return sum;
    }

    static long[] summary(CliRunner.Result r) {
        Matcher m = SUMMARY.matcher(r.out());
        assertTrue(m.find(), r.all());
        return new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3))};
    }

    static long finishedSnapshots(Datastore ds) throws IOException {
        long n = 0;
        for (BackupNamespace ns : ds.listNamespaces()) {
            for (BackupGroupRef g : ds.listGroups(ns)) {
                n += ds.listSnapshots(g).stream().filter(SnapshotInfo::finished).count();
            }
        }
        return n;
    }

    @Test
    void pullAndPushTransferOnlyMissingChunksAndPinTheCertificate() throws Exception {
        try (NetTestServer a = NetTestServer.startWithUsers(tmp.resolve("a"));
             NetTestServer b = NetTestServer.startWithUsers(tmp.resolve("b"))) {
            setUpCli(a, b);
            backup(a.datastore(), new BackupSnapshotRef(VM100, T1), 1, 9, 0);
            backup(a.datastore(), new BackupSnapshotRef(CT200, T1), 2, 2, 0);
            long all = chunkFiles(a.storePath);

            CliRunner.Result first = ok("pull", "--remote", "srv0", "--remote-store", "store1", "--store", "local");
            assertEquals(2, summary(first)[0], first.all());
            assertEquals(all, summary(first)[1], "every chunk crosses on the first run");
            assertEquals(all, sentChunks(a), "the source server's reader logs count the same");
            assertEquals(all, chunkFiles(local));
            assertTrue(first.out().contains("created namespace 'prod'"), first.out());

            backup(a.datastore(), new BackupSnapshotRef(VM100, T1 + 3600), 1, 9, 7);
            CliRunner.Result second = ok("pull", "--remote", "srv0", "--remote-store", "store1", "--store", "local");
            assertEquals(1, summary(second)[0], second.all());
            assertEquals(1, summary(second)[1], "only the changed chunk crosses");
            assertEquals(all + 1, sentChunks(a));

            CliRunner.Result again = ok("pull", "--remote", "srv0", "--remote-store", "store1", "--store", "local");
            assertEquals(0, summary(again)[1], again.all());
            assertEquals(all + 1, sentChunks(a), "a no-change re-sync reads no chunk");

            CliRunner.Result push = ok("push", "--remote", "srv1", "--remote-store", "store1", "--store", "local");
            assertEquals(3, summary(push)[0], push.all());
            assertEquals(all + 1, summary(push)[1], push.all());
            assertEquals(all + 1, uploadedChunks(b), "the push target's upload statistics count the same");
            assertEquals(3, finishedSnapshots(b.datastore()));
            CliRunner.Result push2 = ok("push", "--remote", "srv1", "--remote-store", "store1", "--store", "local");
            assertEquals(0, summary(push2)[1], push2.all());

            // the remote's certificate changes: pin B's fingerprint for A
            ok("remote", "update", "srv0", "--fingerprint", b.fingerprint());
            CliRunner.Result bad = cli.run("pull", "--remote", "srv0", "--remote-store", "store1", "--store", "local");
            assertEquals(1, bad.exit(), bad.all());
            assertTrue(bad.out().contains("TASK ERROR: remote 'srv0' (127.0.0.1:" + a.port()
                    + "): the server's certificate changed - remote.cfg pins fingerprint " + b.fingerprint()
                    + ", the server presents " + a.fingerprint()), bad.out());
        }
    }

    @Test
    void repeatedGroupFiltersApplyAsOneList() throws Exception {
        try (NetTestServer a = NetTestServer.startWithUsers(tmp.resolve("a"))) {
            setUpCli(a);
            backup(a.datastore(), new BackupSnapshotRef(VM100, T1), 1, 1, 0);
            backup(a.datastore(), new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "101"), T1),
                    2, 1, 0);
            backup(a.datastore(), new BackupSnapshotRef(CT200, T1), 3, 1, 0);
            backup(a.datastore(), new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "web"), T1),
                    4, 1, 0);
            // include vm and ct groups, but not vm/101: PBS's list semantics over repeated options
            CliRunner.Result r = ok("pull", "--remote", "srv0", "--remote-store", "store1", "--store", "local",
                    "--group-filter", "type:vm", "--group-filter", "type:ct", "--group-filter", "exclude:group:vm/101");
            assertEquals(2, summary(r)[0], r.all());
            assertEquals(java.util.Set.of("|vm/100/" + BackupSnapshotRef.formatTime(T1) + "|true",
                    "prod|ct/200/" + BackupSnapshotRef.formatTime(T1) + "|true"),
                    java.util.Set.copyOf(CliRunner.snapshots(local)));
        }
    }
}
