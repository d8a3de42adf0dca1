package org.jpbs.datastore.chunks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.EncryptedDataException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.datastore.SharedTestDatastore;
import org.jpbs.datastore.TestData;
import org.jpbs.datastore.os.FileTimes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SharedTestDatastore.class)
class ChunkStoreTest {
    static DirectoryChunkStore store;

    @BeforeAll
    static void openStore() throws IOException {
        store = ChunkStores.open(SharedTestDatastore.root(), SyncLevel.FILE);
    }

    private static BasicFileAttributes attrs(Path p) throws IOException {
        return Files.readAttributes(p, BasicFileAttributes.class);
    }

    private static long tmpFilesIn(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().contains(".tmp_")).count();
        }
    }

    @Test
    void insertNewAndReadBack() throws IOException {
        byte[] data = "hello chunk store, hello chunk store, hello chunk store".getBytes();
        DataBlob blob = DataBlob.encode(data, 0, data.length, true);
        Digest d = Digest.sha256(data);
        ChunkStore.InsertResult r = store.insert(d, blob);
        assertFalse(r.duplicate());
        assertEquals(blob.rawLength(), r.storedBytes());
        Path p = store.chunkPath(d);
        assertEquals(SharedTestDatastore.root().resolve(".chunks").resolve(d.hex().substring(0, 4)).resolve(d.hex()), p);
        assertArrayEquals(blob.raw(), Files.readAllBytes(p));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
        assertEquals(0, tmpFilesIn(p.getParent()));
        assertTrue(store.exists(d));
        assertArrayEquals(blob.raw(), store.read(d).raw());
        assertArrayEquals(data, store.readChunk(d, data.length));
        assertArrayEquals(data, store.readChunk(d, -1));
    }

    @Test
    void duplicateTouchesAtimeButNotMtime() throws IOException {
        DataBlob blob = TestData.plainBlob(2, 1000);
        Digest d = TestData.digest(2);
        store.insert(d, blob);
        Path p = store.chunkPath(d);
        Instant oldMtime = Instant.parse("2022-01-01T00:00:00Z");
        Instant oldAtime = Instant.parse("2022-02-01T00:00:00Z");
        Files.setLastModifiedTime(p, FileTime.from(oldMtime));
        FileTimes.setAtime(p, oldAtime);
        assertEquals(oldAtime, attrs(p).lastAccessTime().toInstant());

        ChunkStore.InsertResult r = store.insert(d, blob);
        assertTrue(r.duplicate());
        assertEquals(blob.rawLength(), r.storedBytes());
        assertTrue(attrs(p).lastAccessTime().toInstant().isAfter(Instant.now().minusSeconds(600)),
                "atime moved to now");
        assertEquals(oldMtime, attrs(p).lastModifiedTime().toInstant(), "mtime unchanged");
    }

    @Test
    void zeroByteFileIsAbsentAndGetsOverwritten() throws IOException {
        DataBlob blob = TestData.plainBlob(3, 500);
        Digest d = TestData.digest(3);
        Path p = store.chunkPath(d);
        Files.createFile(p);
        assertFalse(store.exists(d));
        assertThrows(MissingChunkException.class, () -> store.read(d));
        assertTrue(store.touch(d), "touch reports an existing (even empty) file");
        ChunkStore.InsertResult r = store.insert(d, blob);
        assertFalse(r.duplicate());
        assertArrayEquals(blob.raw(), Files.readAllBytes(p));
    }

    @Test
    void encryptedIncomingRules() throws IOException {
        // existing unencrypted, incoming encrypted of another size: refused, file kept
        Digest d1 = TestData.digest(40);
        DataBlob plain = TestData.plainBlob(40, 300);
        store.insert(d1, plain);
        IOException e = assertThrows(IOException.class, () -> store.insert(d1, TestData.encryptedBlob(41, 100, false)));
        assertTrue(e.getMessage().contains("unencrypted") && e.getMessage().contains(d1.hex()), e.getMessage());
        assertArrayEquals(plain.raw(), Files.readAllBytes(store.chunkPath(d1)));

        // both encrypted-uncompressed, sizes differ: refused
        Digest d2 = TestData.digest(42);
        DataBlob enc = TestData.encryptedBlob(42, 200, false);
        store.insert(d2, enc);
        e = assertThrows(IOException.class, () -> store.insert(d2, TestData.encryptedBlob(43, 150, false)));
        assertTrue(e.getMessage().contains("different size"), e.getMessage());
        assertArrayEquals(enc.raw(), Files.readAllBytes(store.chunkPath(d2)));

        // existing encrypted-compressed, incoming encrypted (other size): existing kept and touched
        Digest d3 = TestData.digest(44);
        DataBlob encComp = TestData.encryptedBlob(44, 120, true);
        store.insert(d3, encComp);
        FileTimes.setAtime(store.chunkPath(d3), Instant.parse("2020-01-01T00:00:00Z"));
        ChunkStore.InsertResult r = store.insert(d3, TestData.encryptedBlob(45, 90, false));
        assertTrue(r.duplicate());
        assertEquals(encComp.rawLength(), r.storedBytes());
        assertArrayEquals(encComp.raw(), Files.readAllBytes(store.chunkPath(d3)));
        assertTrue(attrs(store.chunkPath(d3)).lastAccessTime().toInstant().isAfter(Instant.parse("2021-01-01T00:00:00Z")));

        // reading an encrypted chunk without a key
        assertThrows(EncryptedDataException.class, () -> store.readChunk(d3, -1));
    }

    @Test
    void existingSmallerIsKeptExistingBiggerIsReplaced() throws IOException {
        Digest d = TestData.digest(5);
        DataBlob small = TestData.plainBlob(5, 100);
        DataBlob big = TestData.plainBlob(6, 200);
        store.insert(d, small);
        ChunkStore.InsertResult r = store.insert(d, big);
        assertTrue(r.duplicate(), "existing smaller copy kept");
        assertEquals(small.rawLength(), r.storedBytes());
        assertArrayEquals(small.raw(), Files.readAllBytes(store.chunkPath(d)));

        Digest d2 = TestData.digest(7);
        store.insert(d2, big);
        r = store.insert(d2, small);
        assertFalse(r.duplicate(), "bigger existing copy replaced by the smaller one");
        assertArrayEquals(small.raw(), Files.readAllBytes(store.chunkPath(d2)));
    }

    @Test
    void concurrentInsertsOfSameAndDifferentDigests() throws Exception {
        int threads = 8;
        Digest shared = TestData.digest(1000);
        DataBlob sharedBlob = TestData.plainBlob(1000, 64 * 1024);
        AtomicInteger sharedNew = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int tid = t;
            fs.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < 40; i++) {
                    if (!store.insert(shared, sharedBlob).duplicate()) {
                        sharedNew.incrementAndGet();
                    }
                    long seed = 2000 + tid * 100L + i;
                    assertFalse(store.insert(TestData.digest(seed), TestData.plainBlob(seed, 4096 + i)).duplicate());
                }
                return null;
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        assertEquals(1, sharedNew.get(), "exactly one insert of the shared digest wrote it");
        assertArrayEquals(sharedBlob.raw(), store.read(shared).raw());
        assertEquals(0, tmpFilesIn(store.chunkPath(shared).getParent()));
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < 40; i++) {
                long seed = 2000 + t * 100L + i;
                Digest d = TestData.digest(seed);
                assertArrayEquals(TestData.plainBlob(seed, 4096 + i).raw(), store.read(d).raw());
                assertEquals(0, tmpFilesIn(store.chunkPath(d).getParent()));
            }
        }
    }

    @Test
    void missingAndCorruptChunks() throws IOException {
        Digest missing = TestData.digest(8);
        MissingChunkException m = assertThrows(MissingChunkException.class, () -> store.read(missing));
        assertEquals(missing, m.digest());
        assertThrows(MissingChunkException.class, () -> store.readChunk(missing, -1));
        assertFalse(store.touch(missing));
        assertFalse(store.exists(missing));

        Digest garbage = TestData.digest(9);
        Files.write(store.chunkPath(garbage), "this is not a blob at all".getBytes());
        CorruptDataException c = assertThrows(CorruptDataException.class, () -> store.read(garbage));
        assertTrue(c.getMessage().contains(garbage.hex()), c.getMessage());

        Digest badCrc = TestData.digest(10);
        byte[] raw = TestData.plainBlob(10, 100).raw().clone();
        raw[50] ^= 1;
        Files.write(store.chunkPath(badCrc), raw);
        store.read(badCrc); // the CRC is checked on decode, not on read
        assertThrows(CorruptDataException.class, () -> store.readChunk(badCrc, -1));
    }

    /**
     * Issue 12 item 3, chunk poisoning: an unverifiable encrypted blob (smaller, or even of the
     * same size) stored first under the digest of plain data must not survive the verified
     * plain insert, which is reported as stored, not as a duplicate; the reverse direction
     * (encrypted incoming over a verified plain chunk) keeps the plain chunk and is refused.
     */
    @Test
    void verifiedPlainChunkReplacesEncryptedOrDamagedFile() throws IOException {
        byte[] data = TestData.bytes(60, 50_000);
        Digest d = Digest.sha256(data);
        DataBlob plain = DataBlob.encode(data, 0, data.length, true);
        // a 61-byte "encrypted" poison first: smaller than the plain copy
        DataBlob poison = TestData.encryptedBlob(61, 61 - 44, true);
        assertFalse(store.insert(d, poison).duplicate());
        ChunkStore.InsertResult r = store.insert(d, plain);
        assertFalse(r.duplicate(), "a mismatched crypt mode is never reported as stored");
        assertEquals(plain.rawLength(), r.storedBytes());
        assertArrayEquals(data, store.readChunk(d, data.length), "restorable without a key");

        // same-size poison (the old rule kept an equally long file unread)
        byte[] data2 = TestData.bytes(62, 20_000);
        Digest d2 = Digest.sha256(data2);
        DataBlob plain2 = DataBlob.encode(data2, 0, data2.length, false);
        store.insert(d2, TestData.encryptedBlob(63, plain2.rawLength() - 44, false));
        assertEquals(plain2.rawLength(), Files.size(store.chunkPath(d2)));
        assertFalse(store.insert(d2, plain2).duplicate());
        assertArrayEquals(plain2.raw(), Files.readAllBytes(store.chunkPath(d2)));

        // damaged existing files: garbage (unknown magic), a bad CRC, a truncated header
        for (int k = 0; k < 3; k++) {
            byte[] dk = TestData.bytes(70 + k, 9000);
            Digest dg = Digest.sha256(dk);
            DataBlob good = DataBlob.encode(dk, 0, dk.length, false);
            byte[] bad = switch (k) {
                case 0 -> "not a blob".getBytes();
                case 1 -> { byte[] b = good.raw().clone(); b[100] ^= 1; yield java.util.Arrays.copyOf(b, 50); }
                default -> java.util.Arrays.copyOf(good.raw(), 10);
            };
            Files.write(store.chunkPath(dg), bad);
            assertFalse(store.insert(dg, good).duplicate(), "damaged file " + k + " replaced");
            assertArrayEquals(dk, store.readChunk(dg, dk.length));
            // and an encrypted incoming also replaces a damaged file
            Digest de = TestData.digest(80 + k);
            Files.write(store.chunkPath(de), bad);
            DataBlob enc = TestData.encryptedBlob(80 + k, 300, false);
            assertFalse(store.insert(de, enc).duplicate());
            assertArrayEquals(enc.raw(), Files.readAllBytes(store.chunkPath(de)));
        }

        // reverse: encrypted incoming (even smaller) over a verified plain chunk: refused, plain kept
        IOException e = assertThrows(IOException.class, () -> store.insert(d, TestData.encryptedBlob(64, 17, true)));
        assertTrue(e.getMessage().contains("refusing to overwrite an existing unencrypted chunk"), e.getMessage());
        assertArrayEquals(data, store.readChunk(d, data.length));
        assertEquals(0, tmpFilesIn(store.chunkPath(d).getParent()));
    }

    /** The replacement of a planted blob is atomic: concurrent readers see the old or the new file whole, never a mix. */
    @Test
    void replacementIsAtomicForConcurrentReaders() throws Exception {
        byte[] data = TestData.bytes(90, 2 << 20);
        Digest d = Digest.sha256(data);
        DataBlob plain = DataBlob.encode(data, 0, data.length, false);
        DataBlob poison = TestData.encryptedBlob(91, 17, true);
        store.insert(d, poison);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger sawNew = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<Integer>> readers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            readers.add(pool.submit(() -> {
                int reads = 0;
                while (!stop.get() || reads == 0) {
                    byte[] raw = store.read(d).raw();
                    if (java.util.Arrays.equals(raw, plain.raw())) {
                        sawNew.incrementAndGet();
                    } else if (!java.util.Arrays.equals(raw, poison.raw())) {
                        throw new AssertionError("a reader saw a mixed file of " + raw.length + " bytes");
                    }
                    reads++;
                }
                return reads;
            }));
        }
        assertFalse(store.insert(d, plain).duplicate());
        while (sawNew.get() < 3 && readers.stream().noneMatch(Future::isDone)) { // a failed reader ends the wait
            Thread.onSpinWait();
        }
        stop.set(true);
        for (Future<Integer> f : readers) {
            assertTrue(f.get() > 0);
        }
        pool.shutdown();
        assertArrayEquals(data, store.readChunk(d, data.length));
        assertEquals(0, tmpFilesIn(store.chunkPath(d).getParent()));
    }

    /**
     * A GC killed between renaming a chunk to {@code <digest>.gc-removing} and putting it back
     * (the chunk was touched by a writer of another process just before the rename) leaves the
     * only copy of a referenced chunk under that name until the next GC: reads must still find it.
     */
    @Test
    void aChunkLeftAsGcRemovingByAKilledGcIsStillReadable() throws IOException {
        byte[] data = "referenced chunk caught by a killed garbage collection".getBytes();
        Digest d = Digest.sha256(data);
        store.insert(d, DataBlob.encode(data, 0, data.length, true));
        Path p = store.chunkPath(d);
        Path removing = p.resolveSibling(d.hex() + ".gc-removing");
        Files.move(p, removing);
        try {
            assertArrayEquals(data, store.readChunk(d, data.length, null));
            assertFalse(store.exists(d), "a writer must not skip uploading it: a running GC may still delete the leftover");
            assertFalse(Files.exists(p), "a read does not recreate the chunk (the next GC puts it back)");
        } finally {
            Files.deleteIfExists(removing);
        }
        assertThrows(MissingChunkException.class, () -> store.read(d));
    }
}
