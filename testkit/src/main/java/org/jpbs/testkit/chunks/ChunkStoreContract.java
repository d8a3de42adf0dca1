package org.jpbs.testkit.chunks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.datastore.chunks.ChunkStore;
import org.jpbs.datastore.chunks.ChunkStore.InsertResult;
import org.jpbs.datastore.chunks.ChunkStore.Removal;
import org.jpbs.testkit.chunks.TestChunks.Chunk;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The behaviour every {@link ChunkStore} must have ({@code docs/design.md#chunk-store}). A
 * subclass per implementation provides a store and two test hooks (plant raw bytes, set a
 * chunk's last use). The store may be shared between the tests of a class: every test makes
 * its own seeded chunks and only looks at those.
 */
public abstract class ChunkStoreContract {
    /** The store under test, from {@link #newStore()} before each test. */
    protected ChunkStore store;
    private long seed;

    /** The store to test (may be shared between the tests of one class). */
    protected abstract ChunkStore newStore() throws IOException;

    /** Stores {@code raw} under {@code digest} as it is, bypassing the insert rule (a damaged or foreign copy). */
    protected abstract void plant(Digest digest, byte[] raw) throws IOException;

    /** Sets the last use of a stored chunk (a chunk file's atime). */
    protected abstract void setLastUsed(Digest digest, Instant lastUsed) throws IOException;

    @BeforeEach
    void setUpStore(TestInfo info) throws IOException {
        store = newStore();
        seed = (getClass().getName() + "#" + info.getDisplayName()).hashCode() * 1_000_003L;
    }

    private Chunk plain(int i, int n, boolean compressed) {
        return TestChunks.plain(seed + i, n, compressed);
    }

    @Test
    void insertedChunksReadBackAsTheyWereStored() throws IOException {
        for (boolean compressed : new boolean[] {false, true}) {
            Chunk c = plain(compressed ? 1 : 2, 10_000, compressed);
            assertFalse(store.exists(c.digest()));
            InsertResult r = store.insert(c.digest(), c.blob());
            assertFalse(r.duplicate());
            assertEquals(c.blob().rawLength(), r.storedBytes());
            assertTrue(store.exists(c.digest()));
            assertArrayEquals(c.blob().raw(), store.read(c.digest()).raw());
            assertArrayEquals(c.data(), store.readChunk(c.digest(), c.data().length, null));
            assertTrue(store.location(c.digest()).contains(c.digest().hex()), store.location(c.digest()));
        }
        Chunk e = TestChunks.encrypted(seed + 3, 5000, true, 7);
        store.insert(e.digest(), e.blob());
        assertArrayEquals(e.data(), store.readChunk(e.digest(), 5000, TestChunks.key(7)));
    }

    @Test
    void insertingTheSameChunkTwiceStoresItOnce() throws IOException {
        Chunk c = plain(1, 4096, true);
        Set<Digest> before = digests();
        assertFalse(store.insert(c.digest(), c.blob()).duplicate());
        InsertResult second = store.insert(c.digest(), DataBlob.wrap(c.blob().raw().clone(), "copy"));
        assertTrue(second.duplicate());
        assertEquals(c.blob().rawLength(), second.storedBytes());
        Set<Digest> after = digests();
        after.removeAll(before);
        assertEquals(Set.of(c.digest()), after);
    }

    @Test
    void aDamagedOrEmptyCopyIsReplaced() throws IOException {
        Chunk garbage = plain(1, 3000, false);
        plant(garbage.digest(), "this is not a blob at all".getBytes());
        assertFalse(store.insert(garbage.digest(), garbage.blob()).duplicate());
        assertArrayEquals(garbage.blob().raw(), store.read(garbage.digest()).raw());

        Chunk badCrc = plain(2, 3000, false);
        byte[] raw = badCrc.blob().raw().clone();
        raw[raw.length - 1] ^= 0x40;
        plant(badCrc.digest(), raw);
        assertFalse(store.insert(badCrc.digest(), badCrc.blob()).duplicate());
        assertArrayEquals(badCrc.blob().raw(), store.read(badCrc.digest()).raw());

        Chunk empty = plain(3, 3000, false);
        plant(empty.digest(), new byte[0]);
        assertFalse(store.exists(empty.digest()), "an empty copy counts as absent");
        assertThrows(MissingChunkException.class, () -> store.read(empty.digest()));
        assertFalse(store.insert(empty.digest(), empty.blob()).duplicate());
        assertArrayEquals(empty.blob().raw(), store.read(empty.digest()).raw());

        Chunk encBad = TestChunks.encrypted(seed + 4, 3000, false, 9);
        plant(encBad.digest(), "garbage".getBytes());
        assertFalse(store.insert(encBad.digest(), encBad.blob()).duplicate(), "an encrypted chunk replaces garbage too");
    }

    @Test
    void verifiedPlainDataReplacesAnEncryptedCopyButNeverTheOtherWayRound() throws IOException {
        Chunk p = plain(1, 8000, false);
        DataBlob poison = TestChunks.encryptedUnder(p, false, 11);
        assertFalse(store.insert(p.digest(), poison).duplicate());
        InsertResult r = store.insert(p.digest(), p.blob());
        assertFalse(r.duplicate(), "plain data whose digest was checked replaces an unverifiable encrypted copy");
        assertArrayEquals(p.blob().raw(), store.read(p.digest()).raw());

        IOException refused = assertThrows(IOException.class, () -> store.insert(p.digest(), poison));
        assertTrue(refused.getMessage().contains(p.digest().hex()), refused.getMessage());
        assertArrayEquals(p.blob().raw(), store.read(p.digest()).raw(), "the plain copy stays");
    }

    @Test
    void theSmallerPlainCopyWins() throws IOException {
        Chunk big = plain(1, 20_000, true);
        DataBlob uncompressed = DataBlob.encode(big.data(), 0, big.data().length, false);
        assertTrue(big.blob().rawLength() < uncompressed.rawLength());
        store.insert(big.digest(), uncompressed);
        InsertResult smaller = store.insert(big.digest(), big.blob());
        assertFalse(smaller.duplicate());
        assertEquals(big.blob().rawLength(), smaller.storedBytes());
        InsertResult bigger = store.insert(big.digest(), uncompressed);
        assertTrue(bigger.duplicate());
        assertEquals(big.blob().rawLength(), bigger.storedBytes(), "reports the copy that is kept");
        assertArrayEquals(big.blob().raw(), store.read(big.digest()).raw());
    }

    @Test
    void encryptedCopiesOfDifferentSizesAreRefusedUnlessCompressed() throws IOException {
        Chunk e = TestChunks.encrypted(seed + 1, 6000, false, 5);
        store.insert(e.digest(), e.blob());
        assertTrue(store.insert(e.digest(), TestChunks.encrypted(seed + 1, 6000, false, 5).blob()).duplicate());
        DataBlob other = TestChunks.encrypted(seed + 2, 6100, false, 5).blob();
        IOException refused = assertThrows(IOException.class, () -> store.insert(e.digest(), other));
        assertTrue(refused.getMessage().contains("different size"), refused.getMessage());

        Chunk ec = TestChunks.encrypted(seed + 3, 6000, true, 5);
        store.insert(ec.digest(), ec.blob());
        InsertResult kept = store.insert(ec.digest(), TestChunks.encrypted(seed + 4, 9000, true, 5).blob());
        assertTrue(kept.duplicate());
        assertEquals(ec.blob().rawLength(), kept.storedBytes());
    }

    @Test
    void aMissingChunkIsReportedAsMissing() throws IOException {
        Digest d = plain(1, 100, false).digest();
        MissingChunkException e = assertThrows(MissingChunkException.class, () -> store.read(d));
        assertEquals(d, e.digest());
        assertThrows(MissingChunkException.class, () -> store.readChunk(d, 100, null));
        assertFalse(store.exists(d));
        assertFalse(store.touch(d), "touching a missing chunk tells the caller to upload it");
        assertEquals(Optional.empty(), store.renameCorrupt(d));
        assertEquals(Removal.ABSENT, store.removeIfUnused(d, Instant.now().plusSeconds(3600)));
    }

    @Test
    void aSweepRemovesOnlyChunksUnusedSinceTheCutoff() throws IOException {
        Instant now = Instant.now();
        Instant old = now.minus(Duration.ofHours(2));
        Instant cutoff = now.minus(Duration.ofHours(1));
        Chunk touched = plain(1, 2000, false);
        Chunk unused = plain(2, 2000, false);
        Chunk reinserted = plain(3, 2000, false);
        Chunk lateTouch = plain(4, 2000, false);
        for (Chunk c : List.of(touched, unused, reinserted, lateTouch)) {
            store.insert(c.digest(), c.blob());
            setLastUsed(c.digest(), old);
        }
        assertTrue(store.touch(touched.digest()));
        assertTrue(store.insert(reinserted.digest(), reinserted.blob()).duplicate());

        Map<Digest, Instant> listed = new HashMap<>();
        store.forEachChunk(c -> listed.put(c.digest(), c.lastUsed()));
        assertTrue(listed.get(unused.digest()).isBefore(cutoff));
        assertTrue(listed.get(lateTouch.digest()).isBefore(cutoff));
        assertFalse(listed.get(touched.digest()).isBefore(cutoff));
        assertFalse(listed.get(reinserted.digest()).isBefore(cutoff));

        assertTrue(store.touch(lateTouch.digest()), "touched between the listing and the removal");
        Map<Digest, Removal> outcome = new HashMap<>();
        for (Chunk c : List.of(touched, unused, reinserted, lateTouch)) {
            outcome.put(c.digest(), store.removeIfUnused(c.digest(), cutoff));
        }
        assertEquals(Removal.REMOVED, outcome.get(unused.digest()));
        assertEquals(Removal.KEPT, outcome.get(touched.digest()));
        assertEquals(Removal.KEPT, outcome.get(reinserted.digest()));
        assertEquals(Removal.KEPT, outcome.get(lateTouch.digest()), "re-checked at removal");
        assertFalse(store.exists(unused.digest()));
        assertThrows(MissingChunkException.class, () -> store.read(unused.digest()));
        for (Chunk c : List.of(touched, reinserted, lateTouch)) {
            assertArrayEquals(c.blob().raw(), store.read(c.digest()).raw());
        }
        assertEquals(Removal.ABSENT, store.removeIfUnused(unused.digest(), cutoff));
        assertFalse(store.insert(unused.digest(), unused.blob()).duplicate(), "a removed chunk can be stored again");
    }

    @Test
    void listingShowsEveryChunkWithItsSizeAndStatsCountThem() throws IOException {
        ChunkStore.Stats before = store.stats();
        Map<Digest, Integer> mine = new HashMap<>();
        Instant start = Instant.now().minusSeconds(5);
        for (int i = 0; i < 20; i++) {
            Chunk c = plain(i, 500 + 37 * i, i % 2 == 0);
            store.insert(c.digest(), c.blob());
            mine.put(c.digest(), c.blob().rawLength());
        }
        Map<Digest, ChunkStore.StoredChunk> listed = new HashMap<>();
        store.forEachChunk(c -> {
            if (mine.containsKey(c.digest())) {
                assertEquals(null, listed.put(c.digest(), c), "listed twice: " + c.digest());
            }
        });
        assertEquals(mine.keySet(), listed.keySet());
        for (Map.Entry<Digest, Integer> e : mine.entrySet()) {
            ChunkStore.StoredChunk c = listed.get(e.getKey());
            assertEquals((long) e.getValue(), c.size());
            assertFalse(c.lastUsed().isBefore(start), "last use of a new chunk is its write: " + c.lastUsed());
        }
        ChunkStore.Stats after = store.stats();
        assertEquals(before.chunks() + 20, after.chunks());
        assertEquals(before.bytes() + mine.values().stream().mapToLong(Integer::longValue).sum(), after.bytes());
    }

    @Test
    void aCorruptChunkIsSetAsideAndCanBeStoredAgain() throws IOException {
        Chunk c = plain(1, 3000, false);
        store.insert(c.digest(), c.blob());
        Optional<String> first = store.renameCorrupt(c.digest());
        assertTrue(first.isPresent());
        assertTrue(first.get().startsWith(c.digest().hex()) && first.get().endsWith(".0.bad"), first.get());
        assertFalse(store.exists(c.digest()));
        assertThrows(MissingChunkException.class, () -> store.read(c.digest()));
        Set<Digest> listed = digests();
        assertFalse(listed.contains(c.digest()), "a corrupt copy is not a chunk");
        assertFalse(store.insert(c.digest(), c.blob()).duplicate());
        assertEquals(Optional.of(c.digest().hex() + ".1.bad"), store.renameCorrupt(c.digest()));
    }

    @Test
    void concurrentInsertsOfTheSameChunkWriteItOnce() throws Exception {
        int threads = 16;
        Chunk c = plain(1, 64 * 1024, true);
        CyclicBarrier barrier = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Callable<InsertResult>> tasks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                tasks.add(() -> {
                    barrier.await();
                    return store.insert(c.digest(), DataBlob.wrap(c.blob().raw().clone(), "copy"));
                });
            }
            int written = 0;
            for (Future<InsertResult> f : pool.invokeAll(tasks)) {
                InsertResult r = f.get();
                written += r.duplicate() ? 0 : 1;
                assertEquals(c.blob().rawLength(), r.storedBytes());
            }
            assertEquals(1, written, "exactly one insert writes, the others find its copy");
            assertArrayEquals(c.data(), store.readChunk(c.digest(), c.data().length, null));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentInsertsTouchesAndReadsOfManyChunksStayConsistent() throws Exception {
        int threads = 8;
        List<Chunk> chunks = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            chunks.add(plain(i, 1000 + i, i % 3 == 0));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t * 7;
                tasks.add(() -> {
                    int written = 0;
                    for (int k = 0; k < chunks.size(); k++) {
                        Chunk c = chunks.get((k + offset) % chunks.size());
                        if (!store.touch(c.digest())) {
                            written += store.insert(c.digest(), c.blob()).duplicate() ? 0 : 1;
                        }
                        assertArrayEquals(c.blob().raw(), store.read(c.digest()).raw());
                    }
                    return written;
                });
            }
            int written = 0;
            for (Future<Integer> f : pool.invokeAll(tasks)) {
                written += f.get();
            }
            assertEquals(chunks.size(), written, "each chunk written once");
        } finally {
            pool.shutdownNow();
        }
    }

    private Set<Digest> digests() throws IOException {
        Set<Digest> s = new java.util.HashSet<>();
        store.forEachChunk(c -> s.add(c.digest()));
        return s;
    }
}
