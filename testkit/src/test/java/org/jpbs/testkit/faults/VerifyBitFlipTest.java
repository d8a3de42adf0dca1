package org.jpbs.testkit.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jpbs.testkit.DatastorePool;
import org.jpbs.core.FileFormats;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.os.FileOps;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.tuning.ChunkOrder;
import org.jpbs.datastore.verify.SnapshotVerifyResult;
import org.jpbs.datastore.verify.Verifier;
import org.jpbs.datastore.verify.VerifyOptions;
import org.jpbs.datastore.verify.VerifyProblem;
import org.jpbs.testkit.chunks.TestChunks.Chunk;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Verify finds bit flips (on disk and in what a read returns), reports them and renames the chunks to {@code .bad}. */
class VerifyBitFlipTest {
    @TempDir
    static Path dir;
    private static Datastore ds;

    @BeforeAll
    static void createDatastore() throws IOException {
        ds = DatastorePool.datastore(dir.resolve("ds"), SyncLevel.NONE);
    }

    private static SnapshotVerifyResult verify(Datastore store, BackupSnapshotRef ref) throws IOException {
        VerifyOptions options = new VerifyOptions(false, null, 2, ChunkOrder.INODE, Instant.now());
        try (Verifier v = new Verifier(store, options, FaultFixtures.OWNER, new Verifier.Listener() {})) {
            return v.verify(ref);
        }
    }

    private static Set<Digest> corrupt(SnapshotVerifyResult r) {
        return r.problems().stream().filter(p -> p.kind() == VerifyProblem.Kind.CHUNK_CORRUPT)
                .map(VerifyProblem::chunk).collect(Collectors.toSet());
    }

    @Test
    void bitRotOnDiskIsReportedAndTheChunksAreRenamedBad() throws IOException {
        List<Chunk> chunks = FaultFixtures.chunks(1000, 1012);
        DirectoryChunkStore store = (DirectoryChunkStore) ds.chunkStore();
        FaultFixtures.insert(store, chunks);
        BackupSnapshotRef ref = FaultFixtures.snapshot(ds, "rot", 1_700_000_000L, chunks);
        Set<Digest> flipped = Set.of(chunks.get(3).digest(), chunks.get(7).digest());
        for (Digest d : flipped) {
            BitFlips.flipOnDisk(store.chunkPath(d), d.hashCode(), FileFormats.BLOB_HEADER_SIZE);
        }

        SnapshotVerifyResult r = verify(ds, ref);
        assertEquals(SnapshotVerifyResult.State.FAILED, r.state());
        assertEquals(flipped, corrupt(r));
        assertEquals(2, r.problems().size(), r.problems().toString());
        for (VerifyProblem p : r.problems()) {
            assertTrue(p.message().endsWith("renamed to " + p.chunk().hex() + ".0.bad"), p.message());
        }
        for (Chunk c : chunks) {
            Path file = store.chunkPath(c.digest());
            boolean bad = flipped.contains(c.digest());
            assertEquals(!bad, Files.exists(file), file.toString());
            assertEquals(bad, Files.exists(file.resolveSibling(c.digest().hex() + ".0.bad")), file.toString());
        }
        // a new backup stores the good copies again; the snapshot then verifies
        FaultFixtures.insert(store, chunks);
        assertEquals(SnapshotVerifyResult.State.OK, verify(ds, ref).state());
    }

    @Test
    void bitFlipsInWhatAReadReturnsAreReportedToo() throws IOException {
        List<Chunk> chunks = FaultFixtures.chunks(2000, 2008);
        FaultFixtures.insert(ds.chunkStore(), chunks);
        BackupSnapshotRef ref = FaultFixtures.snapshot(ds, "flaky", 1_700_000_000L, chunks);
        FaultPlan plan = FaultPlan.seeded(7).flipBitsOnRead(0.5);
        Datastore flaky = Datastore.open(ds.root(), SyncLevel.NONE, new FaultyFileOps(FileOps.real(), plan));

        SnapshotVerifyResult r = verify(flaky, ref);
        long flips = plan.log().stream().filter(l -> l.startsWith("bit flip")).count();
        assertTrue(flips > 0 && flips < chunks.size(), plan.log().toString());
        assertEquals(SnapshotVerifyResult.State.FAILED, r.state());
        assertEquals(flips, corrupt(r).size(), "every flipped read is caught, and only those: " + r.problems());
        DirectoryChunkStore store = (DirectoryChunkStore) ds.chunkStore();
        for (Digest d : corrupt(r)) {
            assertFalse(Files.exists(store.chunkPath(d)));
            assertTrue(Files.exists(store.chunkPath(d).resolveSibling(d.hex() + ".0.bad")));
        }
    }
}
