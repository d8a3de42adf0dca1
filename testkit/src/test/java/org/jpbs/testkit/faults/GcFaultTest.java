package org.jpbs.testkit.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jpbs.testkit.DatastorePool;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.datastore.chunks.ChunkVerifier;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.gc.GarbageCollector;
import org.jpbs.datastore.gc.GcFs;
import org.jpbs.datastore.gc.GcListener;
import org.jpbs.datastore.gc.GcResult;
import org.jpbs.datastore.os.FileTimes;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.tuning.Tuning;
import org.jpbs.testkit.chunks.TestChunks.Chunk;
import org.jpbs.testkit.faults.FaultPlan.Op;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Garbage collection with a failure in the middle of the sweep: the datastore stays consistent,
 * nothing referenced is lost, and the next collection finishes the job (leftovers included).
 */
class GcFaultTest {
    private static final Tuning TUNING = Tuning.DEFAULT.withThreads(2).withGcChunkMetadataPrefetch(false);

    @TempDir
    static Path dir;
    /** One datastore for the class (creating one costs seconds): each test adds its own snapshots and garbage. */
    private static Datastore ds;
    private static DirectoryChunkStore store;
    /** Chunks referenced by the snapshots of all tests so far. */
    private static final List<Chunk> allReferenced = new ArrayList<>();
    private static int round;
    private List<Chunk> referenced;
    private List<Chunk> garbage;

    @BeforeAll
    static void createDatastore() throws IOException {
        ds = DatastorePool.datastore(dir.resolve("ds"), SyncLevel.NONE);
        store = (DirectoryChunkStore) ds.chunkStore();
    }

    @BeforeEach
    void backupsAndGarbage() throws IOException {
        long base = 1000L * ++round;
        referenced = FaultFixtures.chunks(base, base + 40);
        garbage = FaultFixtures.chunks(base + 100, base + 180);
        FaultFixtures.insert(store, referenced);
        FaultFixtures.insert(store, garbage);
        FaultFixtures.snapshot(ds, "a" + round, 1_700_000_000L, referenced.subList(0, 30));
        FaultFixtures.snapshot(ds, "b" + round, 1_700_000_000L, referenced.subList(20, 40));
        allReferenced.addAll(referenced);
        Instant old = Instant.now().minus(Duration.ofDays(2));
        for (Chunk c : allReferenced) {
            FileTimes.setAtime(store.chunkPath(c.digest()), old);
        }
        for (Chunk c : garbage) {
            FileTimes.setAtime(store.chunkPath(c.digest()), old);
        }
    }

    private GcResult gc(GcFs fs) throws IOException {
        return new GarbageCollector(ds, TUNING, fs, new GcListener() {}, false, FaultFixtures.OWNER).run();
    }

    private void assertReferencedIntact() throws IOException {
        for (Chunk c : allReferenced) {
            assertEquals(ChunkVerifier.Result.VERIFIED, ChunkVerifier.verify(store, c.digest(), c.data().length,
                    CryptMode.NONE), "referenced chunk " + c.digest());
        }
    }

    private int garbageLeft() {
        int n = 0;
        for (Chunk c : garbage) {
            n += Files.exists(store.chunkPath(c.digest())) ? 1 : 0;
        }
        return n;
    }

    private List<Path> leftovers() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Chunk c : garbage) {
            try (Stream<Path> s = Files.list(store.chunkPath(c.digest()).getParent())) {
                s.filter(p -> p.getFileName().toString().endsWith(DirectoryChunkStore.GC_REMOVING)).forEach(out::add);
            }
        }
        return out.stream().distinct().toList();
    }

    @Test
    void aCrashMidSweepLosesNothingReferencedAndTheNextGcFinishes() throws IOException {
        FaultPlan plan = FaultPlan.seeded(11).crashAt(Op.DELETE, 25);
        IOException e = assertThrows(IOException.class, () -> gc(new FaultyGcFs(GcFs.local(), plan)));
        assertTrue(plan.crashed(), e.toString());
        assertReferencedIntact();
        int left = garbageLeft();
        assertTrue(left > 0 && left < garbage.size(), left + " garbage chunks left");
        int half = leftovers().size();
        assertTrue(half >= 1 && half <= TUNING.threads(), "the chunks being removed at the crash: " + leftovers());

        GcResult r = gc(GcFs.local());
        assertReferencedIntact();
        assertEquals(0, garbageLeft());
        assertEquals(List.of(), leftovers(), "the next GC cleans up the killed one's leftover");
        assertEquals(allReferenced.size() + 1, r.status().diskChunks(),
                "the referenced chunks and the zero chunk of the atime check");
    }

    @Test
    void anIoErrorMidSweepAbortsCleanly() throws IOException {
        FaultPlan plan = FaultPlan.seeded(12).failAt(Op.RENAME, 10);
        IOException e = assertThrows(IOException.class, () -> gc(new FaultyGcFs(GcFs.local(), plan)));
        assertTrue(e.getMessage().contains("could not remove"), e.getMessage());
        assertFalse(plan.crashed());
        assertReferencedIntact();
        assertEquals(List.of(), leftovers(), "a failed rename leaves nothing half-removed");

        gc(GcFs.local());
        assertReferencedIntact();
        assertEquals(0, garbageLeft());
    }

    @Test
    void randomDeleteAndStatErrorsNeverCostAReferencedChunk() throws IOException {
        for (long seed = 20; seed < 23; seed++) {
            FaultPlan plan = FaultPlan.seeded(seed).failRandomly(Op.DELETE, 0.05).failRandomly(Op.STAT, 0.02);
            try {
                gc(new FaultyGcFs(GcFs.local(), plan));
            } catch (IOException expected) {
                // an injected error aborts this run; the next one continues
            }
            assertReferencedIntact();
        }
        gc(GcFs.local());
        assertReferencedIntact();
        assertEquals(0, garbageLeft());
        assertEquals(List.of(), leftovers());
    }
}
