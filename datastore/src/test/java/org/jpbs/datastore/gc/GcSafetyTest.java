package org.jpbs.datastore.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.snapshot.SnapshotWriter;
import org.jpbs.datastore.verify.SnapshotVerifyResult;
import org.jpbs.datastore.verify.Verifier;
import org.jpbs.datastore.verify.VerifyOptions;
import org.jpbs.datastore.verify.VerifyProblem;
import org.jpbs.datastore.verify.VerifyReport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The safety cases of issue 4, each with a deterministic interleaving (listener hooks fire at
 * fixed points of the run) or a fault-injecting {@link GcFs}.
 */
@ExtendWith(GcFixture.Shared.class)
class GcSafetyTest {
    static final Duration OLD = Duration.ofDays(2);

    static GcFixture fx;

    @BeforeAll
    static void createStore() {
        fx = GcFixture.shared();
    }

    @BeforeEach
    void reset() throws IOException {
        fx.reset();
    }

    private static void assertAllExist(List<Digest> ds, String why) {
        for (Digest d : ds) {
            assertTrue(fx.exists(d), why + ": " + d.hex());
        }
    }

    @Test
    void fileSystemIgnoringAtimeUpdatesAbortsBeforeDeletingAnything() throws IOException {
        List<Digest> garbage = fx.chunks(0, 5);
        fx.ageAll(OLD);
        GcFs noatime = new ForwardingGcFs() {
            @Override
            public void touchAtime(Path file) {}

            @Override
            public void setAtime(Path file, Instant atime) {}

            @Override
            public Marker openMarker(Path chunksDir) {
                throw new AssertionError("marking must not start");
            }

            @Override
            public void delete(Path file) {
                throw new AssertionError("nothing may be deleted");
            }
        };
        IOException e = assertThrows(IOException.class, () -> fx.gc(noatime, new GcListener() {}));
        assertTrue(e.getMessage().startsWith("access time safety check using newly inserted chunk failed, aborting GC!"),
                e.getMessage());
        assertAllExist(garbage, "nothing removed");
        assertFalse(Files.exists(fx.root.resolve(GcStatus.FILE)));
        // the lock is released: a normal GC runs afterwards
        assertEquals(5, fx.gc().status().removedChunks());
    }

    @Test
    void backupRunningThroughBothPhasesKeepsAllItsChunks() throws IOException {
        // old chunks no snapshot references any more (their snapshot was forgotten long ago)
        List<Digest> old = fx.chunks(0, 6);
        Digest garbage = fx.chunk(50);
        fx.ageAll(OLD);
        BackupGroupRef g = GcFixture.vm(300);
        BackupSnapshotRef ref = new BackupSnapshotRef(g, 1_700_000_000L);
        List<Digest> referenced = Collections.synchronizedList(new ArrayList<>());
        Set<Digest> known = ConcurrentHashMap.newKeySet();
        try (SnapshotWriter w = fx.ds.beginSnapshot(ref, GcFixture.OWNER)) {
            // a server-style writer: chunks it was told the previous snapshot has, never touched
            known.add(old.get(5));
            w.referenceChunks(known);
            referenced.add(old.get(5));
            GcListener backup = new GcListener() {
                @Override
                public void phaseStarted(Phase phase) {
                    if (phase == Phase.MARK) {
                        reuse(old.get(0));          // reuse = touch, as the local engine does
                        upload(100);
                    }
                }

                @Override
                public void phaseFinished(Phase phase) {
                    if (phase == Phase.MARK) {      // between the phases
                        reuse(old.get(1));
                        upload(101);
                    }
                }

                @Override
                public void progress(Phase phase, long done, long total) {
                    if (phase == Phase.SWEEP && done == 30000) { // in the middle of the sweep
                        reuse(old.get(2));
                        reuse(old.get(3));
                        upload(102);
                    }
                }

                void reuse(Digest d) {
                    try {
                        if (!fx.ds.chunkStore().touch(d)) {
                            fx.ds.chunkStore().insert(d, GcFixture.blob(old.indexOf(d))); // gone: upload again
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    referenced.add(d);
                }

                void upload(long seed) {
                    try {
                        referenced.add(fx.chunk(seed));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            };
            GcResult r = fx.gc(GcFs.local(), backup);
            assertEquals(8, referenced.size());
            assertAllExist(referenced, "chunk of the running backup kept");
            assertFalse(fx.exists(garbage), "the sweep did run");
            assertFalse(fx.exists(old.get(4)), "an old chunk the backup did not use is removed");
            assertTrue(r.status().removedChunks() >= 2, r.toString());
            w.addFixedIndex("drive.img.fidx", GcFixture.index(List.copyOf(referenced)));
            w.commit(new BackupManifest(g.type(), g.id(), ref.time()));
        }
        try (Verifier v = new Verifier(fx.ds, VerifyOptions.defaults(), GcFixture.OWNER, new Verifier.Listener() {})) {
            assertEquals(SnapshotVerifyResult.State.OK, v.verify(ref).state());
        }
    }

    @Test
    void pruneDuringMarkWithANewSnapshotReusingThePrunedChunksSweepsNothingItReferences() throws IOException {
        BackupGroupRef early = GcFixture.group("host/aaa");  // marked before vm/400
        BackupGroupRef g = GcFixture.vm(400);
        BackupGroupRef late = GcFixture.vm(999);               // marked after vm/400
        fx.snapshot(early, 1_700_000_000L, fx.chunks(0, 2));
        List<Digest> base = fx.chunks(10, 16);
        BackupSnapshotRef s1 = fx.snapshot(g, 1_700_000_000L, base);
        fx.snapshot(late, 1_700_000_000L, fx.chunks(20, 22));
        fx.ageAll(OLD);
        BackupSnapshotRef s2 = new BackupSnapshotRef(g, 1_700_086_400L);
        SnapshotWriter[] writer = new SnapshotWriter[1];
        List<String> events = new ArrayList<>();
        GcListener race = new GcListener() {
            @Override
            public void groupListed(BackupGroupRef group, int attempt) {
                try {
                    if (group.equals(early)) {
                        // a new backup of vm/400 starts; as a PBS server does, it registers the previous
                        // snapshot's chunks as known and will reference them without touching them
                        writer[0] = fx.ds.beginSnapshot(s2, GcFixture.OWNER);
                        writer[0].referenceChunks(Set.copyOf(base));
                        writer[0].addFixedIndex("drive.img.fidx", GcFixture.index(base));
                        events.add("backup started");
                    } else if (group.equals(g) && attempt == 0) {
                        // prune removes s1 (keep-last 1 keeps the newest: age it out by forgetting it)
                        fx.ds.removeSnapshot(s1);
                        events.add("s1 pruned");
                    } else if (group.equals(late)) {
                        writer[0].commit(new BackupManifest(g.type(), g.id(), s2.time()));
                        writer[0].close();
                        events.add("s2 committed after GC passed vm/400");
                    }
                    events.add("listed " + group + " #" + attempt);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        GcResult r = fx.gc(GcFs.local(), race);
        assertEquals(List.of("backup started", "listed host/aaa #0", "s1 pruned", "listed vm/400 #0",
                "listed vm/400 #1", "s2 committed after GC passed vm/400", "listed vm/999 #0"), events,
                "the newest snapshot of vm/400 vanished, so the group was listed again");
        assertAllExist(base, "chunk referenced by the new snapshot kept");
        assertTrue(Files.isDirectory(fx.ds.snapshotDir(s2)));
        try (Verifier v = new Verifier(fx.ds, VerifyOptions.defaults(), GcFixture.OWNER, new Verifier.Listener() {})) {
            assertEquals(SnapshotVerifyResult.State.OK, v.verify(s2).state());
        }
        assertEquals(0, r.status().removedChunks());
    }

    @Test
    void missingChunkIsAWarningAndGcCompletes() throws IOException {
        List<Digest> a = fx.chunks(0, 4);
        fx.snapshot(GcFixture.vm(5), 1_700_000_000L, a);
        Digest garbage = fx.chunk(9);
        Files.delete(fx.path(a.get(2)));
        fx.ageAll(OLD);
        GarbageCollectorTest.Log log = new GarbageCollectorTest.Log();
        GcResult r = fx.gc(GcFs.local(), log);
        assertEquals(List.of("unable to access non-existent chunk " + a.get(2).hex() + ", required by "
                + fx.ds.snapshotDir(new BackupSnapshotRef(GcFixture.vm(5), 1_700_000_000L)).resolve("drive.img.fidx")),
                log.warnings);
        assertEquals(1, r.missingChunks());
        assertFalse(fx.exists(garbage), "GC went on and swept");
        assertTrue(GcStatus.read(fx.root).isPresent());
    }

    @Test
    void snapshotVanishingDuringTheWalkIsSkipped() throws IOException {
        BackupGroupRef g = GcFixture.vm(6);
        List<Digest> older = fx.chunks(0, 3);
        List<Digest> newer = fx.chunks(10, 13);
        BackupSnapshotRef s1 = fx.snapshot(g, 1_700_000_000L, older);
        fx.snapshot(g, 1_700_000_100L, newer);
        fx.ageAll(OLD);
        GarbageCollectorTest.Log log = new GarbageCollectorTest.Log() {
            @Override
            public void groupListed(BackupGroupRef group, int attempt) {
                try {
                    org.jpbs.datastore.os.AtomicFiles.deleteTree(fx.ds.snapshotDir(s1)); // gone after the listing
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        GcResult r = fx.gc(GcFs.local(), log);
        assertTrue(log.infos.contains("snapshot " + s1 + " vanished while marking, skipped"), log.infos.toString());
        assertAllExist(newer, "newest snapshot marked");
        for (Digest d : older) {
            assertFalse(fx.exists(d), "chunks only the vanished snapshot used are garbage");
        }
        assertEquals(1, r.status().indexFileCount());
    }

    @Test
    void unreadableDirectoryAbortsBeforeTheSweep() throws IOException {
        BackupGroupRef g = GcFixture.vm(8);
        fx.snapshot(g, 1_700_000_000L, fx.chunks(0, 2));
        List<Digest> garbage = fx.chunks(10, 14);
        fx.ageAll(OLD);
        Path denied = fx.ds.groupDir(g);
        List<GcListener.Phase> phases = new ArrayList<>();
        GcFs fs = new ForwardingGcFs() {
            @Override
            public Dir openDir(Path d) throws IOException {
                if (d.equals(denied)) {
                    throw new AccessDeniedException(d.toString());
                }
                return real.openDir(d);
            }

            @Override
            public void delete(Path file) {
                throw new AssertionError("nothing may be deleted");
            }
        };
        IOException e = assertThrows(IOException.class, () -> fx.gc(fs, new GcListener() {
            @Override
            public void phaseStarted(Phase phase) {
                phases.add(phase);
            }
        }));
        assertEquals("cannot continue garbage-collection safely, permission denied on " + denied, e.getMessage());
        assertEquals(List.of(GcListener.Phase.SAFETY_CHECK, GcListener.Phase.MARK), phases, "no sweep");
        assertAllExist(garbage, "nothing removed");
    }

    @Test
    void corruptChunkFoundByVerifyIsRenamedReuploadedAndItsBadCopyCollectedWhenOld() throws IOException {
        BackupGroupRef g = GcFixture.vm(9);
        List<Digest> a = fx.chunks(0, 4);
        BackupSnapshotRef s1 = fx.snapshot(g, 1_700_000_000L, a);
        Digest bad = a.get(1);
        byte[] raw = Files.readAllBytes(fx.path(bad));
        raw[raw.length - 1] ^= 0x55; // bit rot in the payload: the CRC no longer matches
        Files.write(fx.path(bad), raw);

        VerifyReport report;
        try (Verifier v = new Verifier(fx.ds, VerifyOptions.defaults(), GcFixture.OWNER, new Verifier.Listener() {})) {
            report = v.verify(List.of(s1));
        }
        SnapshotVerifyResult r = report.results().getFirst();
        assertEquals(SnapshotVerifyResult.State.FAILED, r.state());
        assertEquals(1, r.problems().size());
        VerifyProblem p = r.problems().getFirst();
        assertEquals(VerifyProblem.Kind.CHUNK_CORRUPT, p.kind());
        assertEquals(bad, p.chunk());
        assertEquals("drive.img.fidx", p.archive());
        Path badCopy = fx.path(bad).resolveSibling(bad.hex() + ".0.bad");
        assertTrue(Files.exists(badCopy));
        assertFalse(fx.exists(bad));
        var vs = fx.ds.openSnapshot(s1).manifest().unprotected().get("verify_state");
        assertEquals("failed", vs.get("state").asText());
        assertEquals(report.upid(), vs.get("upid").asText());

        // GC now: the chunk is missing, so its .bad copy is touched and kept
        fx.ageAll(OLD);
        GcResult gc1 = fx.gc();
        assertEquals(1, gc1.missingChunks());
        assertTrue(Files.exists(badCopy));

        // a later backup has the chunk again and uploads it (the store no longer has it)
        assertFalse(fx.ds.chunkStore().insert(bad, GcFixture.blob(1)).duplicate());
        fx.snapshot(g, 1_700_086_400L, a);
        fx.ageAll(OLD); // a day later: the .bad copy is old and nothing touches it any more
        GcResult gc2 = fx.gc();
        assertEquals(1, gc2.status().removedBad());
        assertFalse(Files.exists(badCopy));
        assertTrue(fx.exists(bad));
        assertEquals(0, gc2.missingChunks());
        try (Verifier v = new Verifier(fx.ds, VerifyOptions.defaults(), GcFixture.OWNER, new Verifier.Listener() {})) {
            assertTrue(v.verify(List.of(s1)).ok(), "the old snapshot is whole again");
        }
    }
}
