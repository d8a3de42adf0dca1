package org.jpbs.client.restore;

import static org.jpbs.client.TestImages.MIB;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.client.MemoryChunkStore;
import org.jpbs.client.TestImages;
import org.jpbs.client.backup.ImageBackup;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.DynamicIndexBuilder;
import org.jpbs.core.index.FixedIndex;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageRestoreTest {
    @TempDir
    Path dir;

    private byte[] data;
    private MemoryChunkStore store;
    private FixedIndex index;

    @BeforeEach
    void backUp() throws IOException {
        TestImages.BackedUp b = TestImages.backUp(dir, 3); // 10 MiB + 12345: [4M,8M) zeros
        data = b.data();
        store = b.store();
        index = b.index();
    }

    private RestoreStats restoreToFile(Path target, boolean sparse, int workers) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(target.toFile(), "rw")) {
            raf.setLength(0);
            raf.setLength(index.size());
            return new ImageRestore().sparse(sparse).workers(workers).restore(index, store, raf.getChannel(), "src.img.fidx");
        }
    }

    @Test
    void roundTripNonSparseWritesEveryByte() throws IOException {
        Path out = dir.resolve("out.img");
        Files.write(out, new byte[0]);
        try (FileChannel ch = FileChannel.open(out, StandardOpenOption.WRITE)) {
            RestoreStats s = new ImageRestore().workers(4).restore(index, store, ch, "src.img.fidx");
            assertEquals(data.length, s.writtenBytes());
            assertEquals(0, s.skippedBytes());
            assertEquals(4, s.zeroChunks()); // [4M,8M); [9M,10M) is half random
        }
        assertArrayEquals(data, Files.readAllBytes(out));
    }

    @Test
    void roundTripSparseSkipsZeroChunks() throws IOException {
        Path out = dir.resolve("sparse.img");
        Files.write(out, new byte[3]); // garbage that setLength(0) must clear
        RestoreStats s = restoreToFile(out, true, 2);
        assertArrayEquals(data, Files.readAllBytes(out));
        assertEquals(4L * MIB, s.skippedBytes());
        assertEquals(index.chunkCount() - 4, s.fetchedChunks());
    }

    @Test
    void oneWorkerAlsoWorks() throws IOException {
        Path out = dir.resolve("one.img");
        Files.write(out, new byte[0]);
        restoreToFile(out, false, 1);
        assertArrayEquals(data, Files.readAllBytes(out));
    }

    @Test
    void streamRestoreIsInOrderAndProgressCountsAll() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AtomicLong seen = new AtomicLong();
        RestoreStats s = new ImageRestore().workers(4).window(3).progress(seen::addAndGet)
                .restore(index, store, out, "src.img.fidx");
        assertArrayEquals(data, out.toByteArray());
        assertEquals(data.length, seen.get());
        assertEquals(data.length, s.totalBytes());
    }

    @Test
    void dynamicIndexRestoresTheConcatenatedStream() throws IOException {
        Random r = new Random(12);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DynamicIndexBuilder b = new DynamicIndexBuilder();
        long end = 0;
        for (int i = 0; i < 40; i++) {
            byte[] chunk = new byte[1000 + r.nextInt(70_000)];
            if (i % 7 != 3) {
                r.nextBytes(chunk); // every 7th chunk is zeros
            }
            EncodedChunk c = EncodedChunk.encode(chunk, 0, chunk.length, true);
            store.insert(c);
            end += chunk.length;
            b.append(end, c.digest());
            expected.write(chunk);
        }
        DynamicIndex didx = b.build(UUID.randomUUID(), 2);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new ImageRestore().workers(3).restore(didx, store, out, "root.pxar.didx");
        assertArrayEquals(expected.toByteArray(), out.toByteArray());

        Path file = dir.resolve("stream.bin");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(didx.size());
            RestoreStats s = new ImageRestore().sparse(true).restore(didx, store, raf.getChannel(), "root.pxar.didx");
            assertTrue(s.skippedBytes() > 0, "zero chunks found by content");
        }
        assertArrayEquals(expected.toByteArray(), Files.readAllBytes(file));
    }

    @Test
    void chunkWithWrongContentIsCorruptNamingTheChunk() throws IOException {
        Digest victim = index.digest(0);
        byte[] other = new byte[MIB];
        new Random(99).nextBytes(other);
        store.chunks.put(victim, DataBlob.encode(other, 0, other.length, true)); // valid blob, wrong content
        Path out = dir.resolve("bad.img");
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> restoreToFile(out, false, 4));
        assertTrue(e.getMessage().contains(victim.hex()), e.getMessage());
        assertThrows(CorruptDataException.class,
                () -> new ImageRestore().restore(index, store, new ByteArrayOutputStream(), "src.img.fidx"));
    }

    @Test
    void bitFlipInStoredBlobIsCorrupt() throws IOException {
        Digest victim = index.digest(index.chunkCount() - 1);
        byte[] raw = store.chunks.get(victim).raw().clone();
        raw[raw.length / 2] ^= 1;
        store.chunks.put(victim, DataBlob.wrap(raw, "chunk " + victim.hex()));
        Path out = dir.resolve("flip.img");
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> restoreToFile(out, true, 2));
        assertTrue(e.getMessage().contains(victim.hex()), e.getMessage());
    }

    @Test
    void wrongLengthIsCorrupt() throws IOException {
        Digest victim = index.digest(1);
        byte[] shorter = new byte[MIB - 1];
        new Random(5).nextBytes(shorter);
        store.chunks.put(victim, DataBlob.encode(shorter, 0, shorter.length, false));
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> new ImageRestore().verify(false).restore(index, store, new ByteArrayOutputStream(), "src.img.fidx"));
        assertTrue(e.getMessage().contains(victim.hex()), e.getMessage());
    }

    @Test
    void missingChunkIsReported() {
        Digest victim = index.digest(2);
        store.chunks.remove(victim);
        MissingChunkException e = assertThrows(MissingChunkException.class,
                () -> restoreToFile(dir.resolve("m.img"), false, 3));
        assertEquals(victim, e.digest());
    }
}
