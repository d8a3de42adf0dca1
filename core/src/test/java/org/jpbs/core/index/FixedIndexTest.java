package org.jpbs.core.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;
import java.util.stream.IntStream;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FixedIndexTest {
    static final UUID U = UUID.fromString("0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0");

    static Digest d(int i) {
        return Digest.sha256(new byte[] {(byte) i, (byte) (i >> 8), 7});
    }

    static FixedIndex sample() {
        long size = 3L * 4096 + 100;
        Digest[] ds = IntStream.range(0, 4).mapToObj(FixedIndexTest::d).toArray(Digest[]::new);
        return new FixedIndex(U, 1_700_000_000L, size, 4096, ds);
    }

    @Test
    void layoutAndRoundTrip() throws Exception {
        FixedIndex idx = sample();
        byte[] file = idx.encode();
        assertEquals(4096 + 4 * 32, file.length);
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(FileFormats.FIXED_INDEX_MAGIC, FileFormats.magicAt(file, 0));
        assertEquals("0f1e2d3c4b5a4978", String.format("%016x", b.order(ByteOrder.BIG_ENDIAN).getLong(8)));
        b.order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1_700_000_000L, b.getLong(24));
        assertEquals(3L * 4096 + 100, b.getLong(64));
        assertEquals(4096, b.getLong(72));
        assertTrue(IntStream.range(80, 4096).allMatch(i -> file[i] == 0));
        // csum = SHA-256 of the body
        Digest body = Digest.sha256(file, 4096, file.length - 4096);
        assertEquals(body, idx.computeCsum());
        assertArrayEquals(body.bytes(), Arrays.copyOfRange(file, 32, 64));

        FixedIndex r = FixedIndex.read(ByteBuffer.wrap(file), "x.fidx");
        assertEquals(U, r.uuid());
        assertEquals(1_700_000_000L, r.ctime());
        assertEquals(idx.size(), r.size());
        assertEquals(4096, r.chunkSize());
        assertEquals(4, r.chunkCount());
        assertEquals(body, r.storedCsum());
        assertEquals(body, r.computeCsum());
        for (int i = 0; i < 4; i++) {
            assertEquals(d(i), r.digest(i));
        }
        assertArrayEquals(file, r.encode());
    }

    @Test
    void geometry() {
        FixedIndex idx = sample();
        assertEquals(0, idx.chunkStart(0));
        assertEquals(4096, idx.chunkEnd(0));
        assertEquals(3 * 4096, idx.chunkStart(3));
        assertEquals(3 * 4096 + 100, idx.chunkEnd(3));
        assertEquals(100, idx.chunkLength(3));
        assertEquals(0, idx.findChunk(0));
        assertEquals(0, idx.findChunk(4095));
        assertEquals(1, idx.findChunk(4096));
        assertEquals(3, idx.findChunk(3 * 4096 + 99));
        assertThrows(IndexOutOfBoundsException.class, () -> idx.findChunk(3 * 4096 + 100));
        assertThrows(IndexOutOfBoundsException.class, () -> idx.findChunk(-1));
        assertEquals(0, FixedIndex.chunkCount(0, 4096));
        assertEquals(1, FixedIndex.chunkCount(1, 4096));
        assertEquals(3, FixedIndex.chunkCount(9449529, 4 << 20));
        assertThrows(IllegalArgumentException.class, () -> FixedIndex.chunkCount(10, 3000));
        assertThrows(IllegalArgumentException.class, () -> new FixedIndex(U, 0, 10_000, 4096, new Digest[2]));
    }

    @Test
    void emptyImage() throws Exception {
        FixedIndex e = new FixedIndex(U, 5, 0, 4 << 20, new Digest[0]);
        byte[] f = e.encode();
        assertEquals(4096, f.length);
        FixedIndex r = FixedIndex.read(ByteBuffer.wrap(f), "e");
        assertEquals(0, r.chunkCount());
        assertEquals(Digest.sha256(new byte[0]), r.computeCsum());
    }

    @Test
    void openFromFile(@TempDir Path dir) throws Exception {
        Path p = dir.resolve("disk.img.fidx");
        Files.write(p, sample().encode());
        FixedIndex r = FixedIndex.open(p);
        assertEquals(sample().computeCsum(), r.computeCsum());
        Files.write(p, Arrays.copyOf(sample().encode(), 4100));
        var e = assertThrows(CorruptDataException.class, () -> FixedIndex.open(p));
        assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
    }

    @Test
    void corruptInputs() {
        byte[] good = sample().encode();
        var shortHdr = assertThrows(CorruptDataException.class,
                () -> FixedIndex.read(ByteBuffer.wrap(Arrays.copyOf(good, 4000)), "a.fidx"));
        assertTrue(shortHdr.getMessage().startsWith("a.fidx: "), shortHdr.getMessage());

        byte[] magic = good.clone();
        magic[3] ^= 1;
        var m = assertThrows(CorruptDataException.class, () -> FixedIndex.read(ByteBuffer.wrap(magic), "b.fidx"));
        assertEquals(0, m.offset());
        assertTrue(m.getMessage().contains("magic"));

        byte[] dyn = good.clone();
        FileFormats.putMagic(dyn, 0, FileFormats.DYNAMIC_INDEX_MAGIC);
        assertThrows(CorruptDataException.class, () -> FixedIndex.read(ByteBuffer.wrap(dyn), "c"));

        assertThrows(CorruptDataException.class,
                () -> FixedIndex.read(ByteBuffer.wrap(Arrays.copyOf(good, good.length - 1)), "trunc"));
        assertThrows(CorruptDataException.class,
                () -> FixedIndex.read(ByteBuffer.wrap(Arrays.copyOf(good, good.length + 32)), "long"));

        byte[] cs = good.clone();
        ByteBuffer.wrap(cs).order(ByteOrder.LITTLE_ENDIAN).putLong(72, 3000);
        var c = assertThrows(CorruptDataException.class, () -> FixedIndex.read(ByteBuffer.wrap(cs), "d"));
        assertEquals(72, c.offset());
        ByteBuffer.wrap(cs).order(ByteOrder.LITTLE_ENDIAN).putLong(72, 0);
        assertThrows(CorruptDataException.class, () -> FixedIndex.read(ByteBuffer.wrap(cs), "d"));

        byte[] sz = good.clone();
        ByteBuffer.wrap(sz).order(ByteOrder.LITTLE_ENDIAN).putLong(64, 5L * 4096);
        assertThrows(CorruptDataException.class, () -> FixedIndex.read(ByteBuffer.wrap(sz), "size"));
        ByteBuffer.wrap(sz).order(ByteOrder.LITTLE_ENDIAN).putLong(64, -1L);
        assertThrows(CorruptDataException.class, () -> FixedIndex.read(ByteBuffer.wrap(sz), "size"));
    }

    @Test
    void tamperedBodyChangesComputedButNotStoredCsum() throws Exception {
        byte[] f = sample().encode();
        f[4096 + 40] ^= 1;
        FixedIndex r = FixedIndex.read(ByteBuffer.wrap(f), "t");
        assertFalse(r.storedCsum().equals(r.computeCsum()));
        assertEquals(sample().computeCsum(), r.storedCsum());
    }

    @Test
    void readHonoursBufferPosition() throws Exception {
        byte[] f = sample().encode();
        byte[] padded = new byte[f.length + 10];
        System.arraycopy(f, 0, padded, 10, f.length);
        ByteBuffer b = ByteBuffer.wrap(padded).position(10);
        assertEquals(sample().computeCsum(), FixedIndex.read(b, "p").computeCsum());
        assertEquals(10, b.position());
    }

    @Test
    void builderAnyOrderAndThreads() throws Exception {
        int n = 1000;
        FixedIndexBuilder bld = new FixedIndexBuilder((long) n * 4096 - 1, 4096);
        assertEquals(n, bld.chunkCount());
        Thread[] ts = new Thread[4];
        for (int t = 0; t < ts.length; t++) {
            final int k = t;
            ts[t] = new Thread(() -> {
                for (int i = n - 1 - k; i >= 0; i -= ts.length) {
                    bld.set(i, d(i));
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        assertTrue(bld.isComplete());
        FixedIndex idx = bld.build(U, 9);
        for (int i = 0; i < n; i++) {
            assertEquals(d(i), idx.digest(i));
        }
        FixedIndexBuilder part = new FixedIndexBuilder(3 * 4096, 4096);
        part.set(0, d(0));
        part.set(2, d(2));
        assertFalse(part.isComplete());
        var e = assertThrows(IllegalStateException.class, () -> part.build(U, 0));
        assertTrue(e.getMessage().contains("chunk 1 "), e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> part.set(3, d(3)));
    }
}
