package org.jpbs.client.backup;

import static org.jpbs.client.TestImages.MIB;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.client.MemoryChunkStore;
import org.jpbs.client.TestImages;
import org.jpbs.core.FileFormats;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.blob.ZeroChunks;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageBackupTest {
    private static final UUID UUID_1 = new UUID(0x0123456789abcdefL, 0x0fedcba987654321L);
    private static final long CTIME = 1_700_000_000L;

    @TempDir
    Path dir;

    private ImageBackup.Result backup(Path img, MemoryChunkStore store, int chunkSize, int workers) throws IOException {
        try (FileChannel ch = FileChannel.open(img)) {
            return new ImageBackup().chunkSize(chunkSize).workers(workers)
                    .run(ch, Files.size(img), store, UUID_1, CTIME, img.toString());
        }
    }

    @Test
    void workers1And4GiveTheSameIndexAndItMatchesAnIndependentHash() throws IOException {
        byte[] data = TestImages.mixed(1);
        Path img = TestImages.write(dir, "a.img", data);
        for (int chunkSize : new int[] {FileFormats.DEFAULT_FIXED_CHUNK_SIZE, 64 * 1024}) {
            ImageBackup.Result one = backup(img, new MemoryChunkStore(), chunkSize, 1);
            ImageBackup.Result four = backup(img, new MemoryChunkStore(), chunkSize, 4);
            assertArrayEquals(one.index().encode(), four.index().encode(), "chunk size " + chunkSize);
            FixedIndex idx = four.index();
            assertEquals(data.length, idx.size());
            assertEquals((data.length + chunkSize - 1) / chunkSize, idx.chunkCount());
            for (int i = 0; i < idx.chunkCount(); i++) {
                int off = i * chunkSize;
                int len = Math.min(chunkSize, data.length - off);
                assertEquals(Digest.sha256(data, off, len), idx.digest(i), "chunk " + i);
            }
            assertEquals(one.stats().newChunks(), four.stats().newChunks());
            assertEquals(one.stats().zeroChunks(), four.stats().zeroChunks());
        }
    }

    @Test
    void statsAddUpAndZeroChunkIsStoredOnce() throws IOException {
        byte[] data = TestImages.mixed(2);
        Path img = TestImages.write(dir, "b.img", data);
        MemoryChunkStore store = new MemoryChunkStore();
        BackupStats s = backup(img, store, 512 * 1024, 3).stats();
        // 512 KiB chunks: [4M,8M) = 8 zero chunks, [9M,9.5M) = 1 zero chunk
        assertEquals(9, s.zeroChunks());
        assertEquals(9L * 512 * 1024, s.zeroBytes());
        assertEquals(s.totalBytes(), s.newBytes() + s.reusedBytes() + s.zeroBytes());
        assertEquals(s.chunks(), s.newChunks() + s.reusedChunks() + s.zeroChunks());
        assertEquals(data.length, s.totalBytes());
        assertTrue(store.chunks.containsKey(ZeroChunks.digest(512 * 1024)));
        // every non-zero chunk distinct (random/text) -> new; plus one zero blob
        assertEquals(s.newChunks() + 1, store.chunks.size());
        assertEquals(store.chunks.size(), store.inserts.get());
        long stored = store.chunks.values().stream().mapToLong(b -> b.rawLength()).sum();
        assertEquals(stored, s.storedBytes());
        assertTrue(s.storedBytes() < s.newBytes() + s.zeroBytes(), "text compresses");
    }

    @Test
    void incrementalRunInsertsOnlyChangedChunks() throws IOException {
        int cs = 256 * 1024;
        byte[] data = TestImages.mixed(3);
        Path img = TestImages.write(dir, "c.img", data);
        MemoryChunkStore store = new MemoryChunkStore();
        FixedIndex first = backup(img, store, cs, 4).index();

        // change a few bytes in three chunks: one random, one text, one formerly zero
        int[] offsets = {100, 8 * MIB + 5000, 5 * MIB + 7};
        for (int off : offsets) {
            data[off] ^= 0x5a;
        }
        Files.write(img, data);
        store.knowAll(first);
        store.resetCounters();
        ImageBackup.Result second = backup(img, store, cs, 4);

        Set<Integer> changed = new HashSet<>();
        for (int off : offsets) {
            changed.add(off / cs);
        }
        for (int i = 0; i < first.chunkCount(); i++) {
            assertEquals(!changed.contains(i), first.digest(i).equals(second.index().digest(i)), "chunk " + i);
        }
        assertEquals(3, store.inserts.get(), "only the changed chunks are compressed and inserted");
        assertEquals(3, second.stats().newChunks());
        assertEquals(3L * cs, second.stats().newBytes());
        assertEquals(second.index().chunkCount() - 3 - second.stats().zeroChunks(), second.stats().reusedChunks());
        assertEquals(second.stats().reusedChunks(), store.reuses.get() - (second.stats().zeroChunks() > 0 ? 1 : 0));
    }

    @Test
    void progressCountsEveryByte() throws IOException {
        byte[] data = TestImages.mixed(4);
        Path img = TestImages.write(dir, "d.img", data);
        AtomicLong seen = new AtomicLong();
        try (FileChannel ch = FileChannel.open(img)) {
            new ImageBackup().chunkSize(64 * 1024).workers(2).window(3).progress(seen::addAndGet)
                    .run(ch, data.length, new MemoryChunkStore(), UUID_1, CTIME, "d.img");
        }
        assertEquals(data.length, seen.get());
    }

    @Test
    void emptyImageGivesEmptyIndex() throws IOException {
        Path img = TestImages.write(dir, "e.img", new byte[0]);
        ImageBackup.Result r = backup(img, new MemoryChunkStore(), FileFormats.DEFAULT_FIXED_CHUNK_SIZE, 2);
        assertEquals(0, r.index().chunkCount());
        assertEquals(0, r.index().size());
        assertEquals(0, r.stats().chunks());
    }

    @Test
    void inputShorterThanSizeFailsNamingTheInput() throws IOException {
        Path img = TestImages.write(dir, "short.img", new byte[5 * MIB]);
        try (FileChannel ch = FileChannel.open(img)) {
            IOException e = assertThrows(IOException.class, () -> new ImageBackup().workers(2)
                    .run(ch, 9L * MIB, new MemoryChunkStore(), UUID_1, CTIME, img.toString()));
            assertTrue(e.getMessage().contains("short.img"), e.getMessage());
            assertTrue(e.getMessage().contains("unexpected end"), e.getMessage());
        }
    }

    @Test
    void sinkFailureIsRethrownAndStopsTheRun() throws IOException {
        byte[] data = TestImages.mixed(5);
        Path img = TestImages.write(dir, "f.img", data);
        IOException boom = new IOException("disk full: /store/.chunks");
        MemoryChunkStore failing = new MemoryChunkStore() {
            @Override
            public boolean insert(EncodedChunk chunk) {
                if (inserts.incrementAndGet() > 3) {
                    sneakyThrow(boom);
                }
                return chunks.putIfAbsent(chunk.digest(), chunk.blob()) == null;
            }
        };
        try (FileChannel ch = FileChannel.open(img)) {
            IOException e = assertThrows(IOException.class, () -> new ImageBackup().chunkSize(64 * 1024).workers(4)
                    .run(ch, data.length, failing, UUID_1, CTIME, "f.img"));
            assertSame(boom, e);
        }
        assertFalse(failing.chunks.isEmpty());
        assertTrue(failing.inserts.get() < 160, "stopped early: " + failing.inserts.get());
    }

    @Test
    void rejectsBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> new ImageBackup().workers(0));
        assertThrows(IllegalArgumentException.class, () -> new ImageBackup().chunkSize(3 * MIB));
        assertThrows(IllegalArgumentException.class, () -> new ImageBackup().window(0));
        assertEquals(Arrays.asList(4 * MIB, 10), Arrays.asList(new ImageBackup().chunkSize(), new ImageBackup().workers(4).window()));
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneakyThrow(Throwable e) throws E {
        throw (E) e;
    }
}
