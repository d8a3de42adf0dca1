package org.jpbs.datastore.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.lock.WriterRegistry;
import org.jpbs.datastore.snapshot.SnapshotReader;
import org.jpbs.datastore.snapshot.SnapshotWriter;
import org.jpbs.datastore.tuning.Tuning;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Garbage collection and backup writers in two real processes (issue 12 item 5): the writer
 * runs in a second JVM ({@link WriterProcessMain}) driven over a pipe from hooks of the GC in
 * this JVM, so every interleaving is exact (no sleeps). The cutoff is zero: everything not
 * marked or touched since GC started is removed.
 */
@ExtendWith(GcFixture.Shared.class)
class CrossProcessGcTest {
    private static final Duration OLD = Duration.ofDays(2);
    private static final Tuning ZERO_CUTOFF = GcFixture.TUNING.withGcAtimeCutoff(Duration.ZERO);
    private static GcFixture fx;
    private final List<Child> children = new ArrayList<>();

    @BeforeAll
    static void createStore() {
        fx = GcFixture.shared();
    }

    @BeforeEach
    void reset() throws IOException {
        fx.reset();
    }

    @AfterEach
    void stopChildren() throws Exception {
        for (Child c : children) {
            c.close();
        }
    }

    /** The writer JVM; {@link #send} writes one command and returns its one-line answer. */
    private static final class Child implements AutoCloseable {
        final Process p;
        final PrintStream in;
        final BufferedReader out;

        Child(Path root) throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    WriterProcessMain.class.getName(), root.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            in = new PrintStream(p.getOutputStream(), true, StandardCharsets.UTF_8);
            out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("READY", out.readLine());
        }

        synchronized String send(String cmd) {
            in.println(cmd);
            try {
                String r = out.readLine();
                assertNotNull(r, "writer process ended on '" + cmd + "'");
                return r;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void expect(String cmd, String answer) {
            assertEquals(answer, send(cmd), cmd);
        }

        void kill() throws InterruptedException {
            p.destroyForcibly(); // SIGKILL: no cleanup in the child
            p.waitFor(60, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws Exception {
            in.close();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }

    private Child child() throws IOException {
        Child c = new Child(fx.root);
        children.add(c);
        return c;
    }

    private static List<Digest> digests(long... seeds) {
        List<Digest> out = new ArrayList<>();
        for (long s : seeds) {
            out.add(GcFixture.digest(s));
        }
        return out;
    }

    /** Every chunk of every index of the snapshot exists and hashes to its digest. */
    private static void assertComplete(BackupSnapshotRef ref) throws IOException {
        {
            SnapshotReader r = fx.ds.openSnapshot(ref);
            var idx = r.openIndex("drive.img.fidx");
            for (int i = 0; i < idx.chunkCount(); i++) {
                Digest d = idx.digest(i);
                assertTrue(fx.exists(d), "chunk " + d.hex() + " of " + ref + " was swept");
                byte[] plain = fx.ds.chunkStore().readChunk(d, GcFixture.CHUNK, null);
                assertEquals(d, Digest.sha256(plain), "chunk " + d.hex() + " of " + ref);
            }
        }
    }

    @Test
    void writerOfAnotherProcessRegisteringDuringGcLosesNoChunkAndIsNotRefused() throws Exception {
        BackupGroupRef vm100 = GcFixture.group("vm/100");
        BackupGroupRef vm200 = GcFixture.group("vm/200");
        BackupSnapshotRef base = fx.snapshot(vm100, 1000, fx.chunks(1, 5)); // chunks 1..4
        fx.chunks(10, 14); // 10..13: referenced by nothing
        fx.ageAll(OLD);
        Child w = child();
        List<String> log = new ArrayList<>();
        GcListener hooks = new GcListener() {
            @Override
            public void groupListed(BackupGroupRef group, int attempt) {
                if (group.equals(vm100) && attempt == 0) {
                    // phase 1 has listed the group (and read the registry long before): a backup
                    // of another process starts now, reuses base chunks, inserts new ones and one
                    // that exists unreferenced (a duplicate insert only touches it)
                    w.expect("begin vm/100 2000 1000", "BEGUN");
                    w.expect("reuse 1", "TOUCHED true");
                    w.expect("insert 2", "INSERTED dup");
                    w.expect("insert 10", "INSERTED dup");
                    w.expect("insert 20", "INSERTED new");
                }
            }

            @Override
            public void phaseFinished(Phase phase) {
                if (phase == Phase.MARK) {
                    // its snapshot appears after the walk passed the group; a second backup starts
                    w.expect("commit", "COMMITTED");
                    w.expect("begin vm/200 3000", "BEGUN");
                }
            }

            @Override
            public void info(String line) {
                log.add(line);
            }
        };
        Path c11 = fx.path(GcFixture.digest(11));
        Path c12 = fx.path(GcFixture.digest(12));
        GcFs fs = new ForwardingGcFs() {
            @Override
            public void rename(Path from, Path to) throws IOException {
                if (from.equals(c11)) {
                    // the sweep has decided (stat, and stat again under its lock) that chunk 11 is
                    // old; the writer of the other process re-uses it at this very moment
                    w.expect("reuse 11", "TOUCHED true");
                }
                real.rename(from, to);
                if (from.equals(c12)) {
                    // just after the sweep renamed chunk 12 away: the writer finds it gone and uploads it
                    w.expect("reuse 12", "TOUCHED false");
                    w.expect("insert 12", "INSERTED new");
                }
            }
        };
        GcResult res = new GarbageCollector(fx.ds, ZERO_CUTOFF, fs, hooks, false, GcFixture.OWNER).run();
        w.expect("commit", "COMMITTED");

        assertComplete(base);
        assertComplete(new BackupSnapshotRef(vm100, 2000));
        assertComplete(new BackupSnapshotRef(vm200, 3000));
        var idx3 = fx.ds.openSnapshot(new BackupSnapshotRef(vm200, 3000)).openIndex("drive.img.fidx");
        assertEquals(java.util.Set.copyOf(digests(11, 12)), java.util.Set.of(idx3.digest(0), idx3.digest(1)));
        assertFalse(fx.exists(GcFixture.digest(13)), "an unreferenced old chunk must be removed with a zero cutoff");
        assertTrue(res.status().removedChunks() >= 1, res.toString());
        assertFalse(Files.exists(c11.resolveSibling(c11.getFileName() + SweepPhase.REMOVING)));
        assertFalse(Files.exists(c12.resolveSibling(c12.getFileName() + SweepPhase.REMOVING)));
        assertTrue(log.stream().anyMatch(l -> l.startsWith("cutoff lowered") || l.startsWith("cutoff:")), log.toString());
    }

    @Test
    void gcStartedWhileAnotherProcessWritesKeepsWhatTheWriterTouchedSinceItsStart() throws Exception {
        BackupGroupRef vm100 = GcFixture.group("vm/100");
        fx.snapshot(vm100, 1000, fx.chunks(1, 3));
        fx.chunks(10, 12);
        fx.ageAll(OLD);
        Child w = child();
        w.expect("begin vm/100 2000 1000", "BEGUN");
        w.expect("insert 30", "INSERTED new");
        w.expect("insert 10", "INSERTED dup");
        List<WriterRegistry.Entry> reg = WriterRegistry.scan(fx.root);
        assertEquals(1, reg.size(), reg.toString());
        assertEquals(w.p.pid(), reg.get(0).pid());
        Instant writerStart = reg.get(0).start();

        GcResult res = new GarbageCollector(fx.ds, ZERO_CUTOFF, GcFs.local(), new GcListener() {}, false,
                GcFixture.OWNER).run();
        assertEquals(writerStart, res.oldestWriter(), "the cutoff honours the writer of the other process");
        assertFalse(res.minAtime().isAfter(writerStart), "everything touched since the writer started stays");
        w.expect("commit", "COMMITTED");
        assertComplete(new BackupSnapshotRef(vm100, 2000));
        assertTrue(fx.exists(GcFixture.digest(30)));
        assertFalse(fx.exists(GcFixture.digest(11)), "old and unreferenced");
    }

    @Test
    void killedWriterRegistrationIsIgnoredAndRemoved() throws Exception {
        fx.chunks(10, 12);
        fx.ageAll(OLD);
        Child w = child();
        w.expect("begin vm/100 2000", "BEGUN");
        w.kill();
        assertEquals(1, countRegistrations(), "the killed writer leaves its file");
        GcResult res = new GarbageCollector(fx.ds, ZERO_CUTOFF, GcFs.local(), new GcListener() {}, false,
                GcFixture.OWNER).run();
        assertEquals(res.start(), res.oldestWriter(), "a registration nobody holds is no writer");
        assertEquals(0, countRegistrations());
        assertFalse(fx.exists(GcFixture.digest(10)));
    }

    @Test
    void secondGcOfAnotherProcessIsRefusedButBackupsAreNot() throws Exception {
        // a GC of the child process would need the GC mutex; we hold it here the way a running GC does
        try (WriterRegistry.GcLock gc = WriterRegistry.lockGc(fx.root)) {
            Child w = child();
            w.expect("begin vm/100 2000", "BEGUN");
            w.expect("insert 1", "INSERTED new");
            w.expect("commit", "COMMITTED");
            assertThrows(org.jpbs.datastore.lock.LockedException.class, () -> fx.gc());
        }
    }

    @Test
    void gcIsRefusedWhileAProcessThatIsNotARegisteredWriterHoldsTheDatastoreLock() throws Exception {
        // a PBS backup holds .lock shared without registering in .writers: its start is unknown
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process holder = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), org.jpbs.datastore.lock.LockHolderMain.class.getName(),
                fx.root.toString(), "shared").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("LOCKED shared", r.readLine());
            org.junit.jupiter.api.Assumptions.assumeTrue(
                    org.jpbs.datastore.lock.LockHolders.holders(fx.root.resolve(".lock")).isPresent(), "no /proc/locks");
            var e = assertThrows(org.jpbs.datastore.lock.LockedException.class, () -> fx.gc());
            assertEquals("datastore " + fx.root.toRealPath() + " is locked by process " + holder.pid()
                    + ", which is not a registered jpbs backup (a PBS backup running?)", e.getMessage());
        } finally {
            holder.getOutputStream().close();
            holder.waitFor(30, TimeUnit.SECONDS);
        }
        assertNotNull(fx.gc(), "runs once the foreign holder is gone");
    }

    @Test
    void halfRemovedChunksOfAKilledGcArePutBackIfReferencedElseRemoved() throws Exception {
        BackupGroupRef vm100 = GcFixture.group("vm/100");
        BackupSnapshotRef s = fx.snapshot(vm100, 1000, fx.chunks(1, 3));
        Digest orphan = fx.chunk(9);
        fx.ageAll(OLD);
        // a GC killed between "rename away" and "put back / delete"
        for (Digest d : List.of(GcFixture.digest(1), orphan)) {
            Path p = fx.path(d);
            Files.move(p, p.resolveSibling(p.getFileName() + SweepPhase.REMOVING));
        }
        GcResult res = new GarbageCollector(fx.ds, ZERO_CUTOFF, GcFs.local(), new GcListener() {}, false,
                GcFixture.OWNER).run();
        assertEquals(0, res.missingChunks(), "the referenced chunk was put back in phase 1");
        assertComplete(s);
        assertFalse(fx.exists(orphan));
        for (Digest d : List.of(GcFixture.digest(1), orphan)) {
            Path p = fx.path(d);
            assertFalse(Files.exists(p.resolveSibling(p.getFileName() + SweepPhase.REMOVING)));
        }
    }

    private static long countRegistrations() throws IOException {
        try (var s = Files.list(fx.root.resolve(WriterRegistry.DIR))) {
            return s.filter(p -> p.getFileName().toString().endsWith(WriterRegistry.SUFFIX)).count();
        }
    }

    // ---- issue 12 item 8: a killed first backup of a new group ------------------------------

    private void killFirstBackup(String group) throws Exception {
        Child w = child();
        w.expect("begin " + group + " 1000", "BEGUN");
        w.expect("insert 1", "INSERTED new");
        w.kill();
        Path dir = fx.ds.groupDir(GcFixture.group(group));
        assertTrue(Files.isRegularFile(dir.resolve("owner")), "the killed backup leaves the group with its owner");
    }

    @Test
    void nextBackupOfAnyoneTakesOverAGroupLeftByAKilledFirstBackup() throws Exception {
        killFirstBackup("vm/300");
        BackupGroupRef g = GcFixture.group("vm/300");
        assertTrue(fx.ds.isAbandonedGroup(g));
        BackupSnapshotRef ref = new BackupSnapshotRef(g, 2000);
        try (SnapshotWriter sw = fx.ds.beginSnapshot(ref, "other@pbs")) {
            sw.addFixedIndex("drive.img.fidx", GcFixture.index(List.of(fx.chunk(2))));
            sw.commit(new BackupManifest(g.type(), g.id(), 2000));
        }
        assertEquals("other@pbs", fx.ds.owner(g));
        assertComplete(ref);
        assertFalse(fx.ds.isAbandonedGroup(g));
    }

    @Test
    void groupOfARunningFirstBackupIsNotTakenOver() throws Exception {
        Child w = child();
        w.expect("begin vm/301 1000", "BEGUN");
        BackupGroupRef g = GcFixture.group("vm/301");
        assertFalse(fx.ds.isAbandonedGroup(g), "its writer is alive");
        assertThrows(org.jpbs.datastore.lock.LockedException.class,
                () -> fx.ds.beginSnapshot(new BackupSnapshotRef(g, 2000), "other@pbs"));
        GcResult res = new GarbageCollector(fx.ds, ZERO_CUTOFF, GcFs.local(), new GcListener() {}, false,
                GcFixture.OWNER).run();
        assertEquals(0, res.removedEmptyGroups());
        w.expect("insert 1", "INSERTED new");
        w.expect("commit", "COMMITTED");
        assertEquals(GcFixture.OWNER, fx.ds.owner(g));
    }

    @Test
    void gcRemovesAGroupLeftByAKilledFirstBackup() throws Exception {
        killFirstBackup("vm/302");
        BackupGroupRef g = GcFixture.group("vm/302");
        Path dir = fx.ds.groupDir(g);
        // older than the cutoff (a group created after GC started is never removed)
        FileTime old = FileTime.from(Instant.now().minus(OLD));
        try (var s = Files.list(dir)) {
            for (Path p : s.toList()) {
                Files.setLastModifiedTime(p, old);
            }
        }
        Files.setLastModifiedTime(dir, old);
        GcResult res = new GarbageCollector(fx.ds, ZERO_CUTOFF, GcFs.local(), new GcListener() {}, false,
                GcFixture.OWNER).run();
        assertEquals(1, res.removedEmptyGroups());
        assertFalse(Files.exists(dir), "the empty group is gone");
        assertTrue(Files.isDirectory(dir.getParent()), "the type directory stays");
        assertEquals(1, res.removedTempDirs(), "with the killed writer's temp directory");
        // and the id is free for anyone
        try (SnapshotWriter sw = fx.ds.beginSnapshot(new BackupSnapshotRef(g, 2000), "other@pbs")) {
            sw.addFixedIndex("drive.img.fidx", GcFixture.index(List.of(fx.chunk(3))));
            sw.commit(new BackupManifest(g.type(), g.id(), 2000));
        }
        assertEquals("other@pbs", fx.ds.owner(g));
    }
}
