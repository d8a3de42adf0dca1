package org.jpbs.testkit.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.datastore.chunks.ChunkStores;
import org.jpbs.datastore.chunks.ChunkVerifier;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.os.FileOps;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotWriter;
import org.jpbs.testkit.chunks.TestChunks;
import org.jpbs.testkit.chunks.TestChunks.Chunk;
import org.jpbs.testkit.faults.FaultPlan.Op;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chunk inserts and a backup under injected faults: whatever fails or crashes, no chunk is ever
 * visible under its final name unless it is complete, and a restarted process can store it.
 */
class InsertCrashTest {
    @TempDir
    static Path dir;
    private static Path root;

    @BeforeAll
    static void createDatastore() throws IOException {
        root = Datastore.create(dir.resolve("ds"), SyncLevel.FILE).root();
    }

    private static DirectoryChunkStore faulty(FaultPlan plan) throws IOException {
        return ChunkStores.open(root, SyncLevel.FILE, new FaultyFileOps(FileOps.real(), plan));
    }

    /** The store a restarted process opens. */
    private static DirectoryChunkStore restarted() throws IOException {
        return ChunkStores.open(root, SyncLevel.FILE);
    }

    private static List<Path> tempFiles(DirectoryChunkStore store, Chunk c) throws IOException {
        try (Stream<Path> s = Files.list(store.chunkPath(c.digest()).getParent())) {
            return s.filter(p -> p.getFileName().toString().startsWith(c.digest().hex() + ".tmp_")).toList();
        }
    }

    private static void assertAbsentThenStorable(Chunk c) throws IOException {
        DirectoryChunkStore real = restarted();
        assertFalse(real.exists(c.digest()));
        assertFalse(Files.exists(real.chunkPath(c.digest())), "nothing under the final name");
        assertThrows(MissingChunkException.class, () -> real.read(c.digest()));
        assertFalse(real.insert(c.digest(), c.blob()).duplicate());
        assertArrayEquals(c.data(), real.readChunk(c.digest(), c.data().length, null));
    }

    @Test
    void aCrashWhileWritingLeavesOnlyAPartialTemporaryFile() throws IOException {
        Chunk c = TestChunks.plain(101, 64 * 1024, false);
        FaultPlan plan = FaultPlan.seeded(1).crashAt(Op.WRITE, 1);
        DirectoryChunkStore store = faulty(plan);
        assertThrows(SimulatedCrash.class, () -> store.insert(c.digest(), c.blob()));
        assertTrue(plan.crashed());
        List<Path> tmp = tempFiles(store, c);
        assertEquals(1, tmp.size(), "the killed writer's temporary file stays (GC removes it later)");
        assertTrue(Files.size(tmp.get(0)) < c.blob().rawLength(), "partial");
        assertAbsentThenStorable(c);
    }

    @Test
    void aCrashBeforeTheRenameLeavesNoChunk() throws IOException {
        Chunk c = TestChunks.plain(102, 64 * 1024, true);
        FaultPlan plan = FaultPlan.seeded(2).crashAt(Op.RENAME, 1);
        DirectoryChunkStore store = faulty(plan);
        assertThrows(SimulatedCrash.class, () -> store.insert(c.digest(), c.blob()));
        assertEquals(1, tempFiles(store, c).size(), "the clean-up did not run: the process is dead");
        assertAbsentThenStorable(c);
    }

    @Test
    void aCrashAfterTheRenameLeavesTheWholeChunk() throws IOException {
        Chunk c = TestChunks.plain(103, 64 * 1024, false);
        FaultPlan plan = FaultPlan.seeded(3).crashAt(Op.FSYNC, 1);
        assertThrows(SimulatedCrash.class, () -> faulty(plan).insert(c.digest(), c.blob()));
        DirectoryChunkStore real = restarted();
        assertArrayEquals(c.blob().raw(), real.read(c.digest()).raw());
        assertTrue(real.insert(c.digest(), c.blob()).duplicate());
    }

    @Test
    void aBackupKilledMidwayShowsNoSnapshotAndNoPartialChunk() throws IOException {
        List<Chunk> chunks = FaultFixtures.chunks(200, 210);
        FaultPlan plan = FaultPlan.seeded(4).crashAt(Op.WRITE, 6);
        Datastore ds = Datastore.open(root, SyncLevel.FILE, new FaultyFileOps(FileOps.real(), plan));
        BackupGroupRef group = BackupGroupRef.parse(BackupNamespace.ROOT, "vm/crash");
        try (SnapshotWriter w = ds.beginSnapshot(new BackupSnapshotRef(group, 1_700_000_000L), FaultFixtures.OWNER)) {
            assertThrows(SimulatedCrash.class, () -> FaultFixtures.insert(ds.chunkStore(), chunks));
            Datastore after = Datastore.open(root);
            assertEquals(List.of(), after.listSnapshots(group), "an unfinished backup is invisible");
        }
        DirectoryChunkStore real = restarted();
        int complete = 0;
        for (Chunk c : chunks) {
            if (real.exists(c.digest())) {
                assertEquals(ChunkVerifier.Result.VERIFIED, ChunkVerifier.verify(real, c.digest(), c.data().length,
                        CryptMode.NONE), "a chunk under its final name is complete");
                complete++;
            }
        }
        assertEquals(5, complete, "the five chunks written before the crash");
    }

    @Test
    void randomIoErrorsNeverLeaveAVisiblePartialChunkOrATemporaryFile() throws IOException {
        List<Chunk> chunks = FaultFixtures.chunks(300, 500);
        FaultPlan plan = FaultPlan.seeded(5).failRandomly(Op.WRITE, 0.2).failRandomly(Op.RENAME, 0.2)
                .failRandomly(Op.READ, 0.1);
        DirectoryChunkStore store = faulty(plan);
        int failed = 0;
        for (Chunk c : chunks) {
            try {
                store.insert(c.digest(), c.blob());
            } catch (InjectedIOException e) {
                failed++;
            }
        }
        assertTrue(failed > 20 && failed < 120, failed + " inserts failed");
        DirectoryChunkStore real = restarted();
        int stored = 0;
        for (Chunk c : chunks) {
            assertEquals(List.of(), tempFiles(real, c), "a failed insert removes its temporary file");
            if (real.exists(c.digest())) {
                assertArrayEquals(c.blob().raw(), real.read(c.digest()).raw());
                stored++;
            }
        }
        assertEquals(chunks.size() - failed, stored, plan.log().toString());
    }

    @Test
    void aShortWriteIsCaughtByTheCrcAndReplacedByTheNextInsert() throws IOException {
        Chunk c = TestChunks.plain(104, 32 * 1024, false);
        FaultPlan plan = FaultPlan.seeded(6).shortWriteAt(1);
        faulty(plan).insert(c.digest(), c.blob()); // the disk "lost" the tail and said nothing
        DirectoryChunkStore real = restarted();
        assertTrue(Files.size(real.chunkPath(c.digest())) < c.blob().rawLength());
        assertThrows(CorruptDataException.class, () -> ChunkVerifier.verify(real, c.digest(), c.data().length,
                CryptMode.NONE));
        assertFalse(real.insert(c.digest(), c.blob()).duplicate(), "the damaged copy is replaced");
        assertEquals(ChunkVerifier.Result.VERIFIED, ChunkVerifier.verify(real, c.digest(), c.data().length,
                CryptMode.NONE));
    }
}
