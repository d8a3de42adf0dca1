package org.jpbs.core.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;
import org.jpbs.core.FileFormats;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DynamicIndexTest {
    static final UUID U = UUID.randomUUID();
    static final long[] ENDS = {1000, 5000, 5001, 70_000};

    static DynamicIndex sample() {
        DynamicIndexBuilder b = new DynamicIndexBuilder();
        for (int i = 0; i < ENDS.length; i++) {
            b.append(ENDS[i], FixedIndexTest.d(i));
        }
        assertEquals(70_000, b.size());
        return b.build(U, 1_700_000_000L);
    }

    @Test
    void layoutAndRoundTrip() throws Exception {
        DynamicIndex idx = sample();
        byte[] f = idx.encode();
        assertEquals(4096 + 4 * 40, f.length);
        assertEquals(FileFormats.DYNAMIC_INDEX_MAGIC, FileFormats.magicAt(f, 0));
        ByteBuffer b = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1_700_000_000L, b.getLong(24));
        assertEquals(1000, b.getLong(4096));
        assertEquals(5000, b.getLong(4096 + 40));
        Digest body = Digest.sha256(f, 4096, f.length - 4096);
        assertEquals(body, idx.computeCsum());
        assertArrayEquals(body.bytes(), Arrays.copyOfRange(f, 32, 64));

        DynamicIndex r = DynamicIndex.read(ByteBuffer.wrap(f), "r.didx");
        assertEquals(U, r.uuid());
        assertEquals(70_000, r.size());
        assertEquals(4, r.chunkCount());
        assertEquals(body, r.storedCsum());
        assertEquals(body, r.computeCsum());
        assertEquals(FixedIndexTest.d(2), r.digest(2));
        assertArrayEquals(f, r.encode());
    }

    @Test
    void geometry() {
        DynamicIndex idx = sample();
        assertEquals(0, idx.chunkStart(0));
        assertEquals(1000, idx.chunkEnd(0));
        assertEquals(5000, idx.chunkStart(2));
        assertEquals(1, idx.chunkLength(2));
        assertEquals(0, idx.findChunk(0));
        assertEquals(0, idx.findChunk(999));
        assertEquals(1, idx.findChunk(1000));
        assertEquals(1, idx.findChunk(4999));
        assertEquals(2, idx.findChunk(5000));
        assertEquals(3, idx.findChunk(5001));
        assertEquals(3, idx.findChunk(69_999));
        assertThrows(IndexOutOfBoundsException.class, () -> idx.findChunk(70_000));
        DynamicIndex empty = new DynamicIndexBuilder().build(U, 0);
        assertEquals(0, empty.size());
        assertEquals(Digest.sha256(new byte[0]), empty.computeCsum());
    }

    @Test
    void builderRejectsNonIncreasing() {
        DynamicIndexBuilder b = new DynamicIndexBuilder();
        assertThrows(IllegalArgumentException.class, () -> b.append(0, FixedIndexTest.d(0)));
        b.append(10, FixedIndexTest.d(0));
        assertThrows(IllegalArgumentException.class, () -> b.append(10, FixedIndexTest.d(1)));
        assertThrows(IllegalArgumentException.class, () -> b.append(9, FixedIndexTest.d(1)));
        assertThrows(IllegalArgumentException.class,
                () -> new DynamicIndex(U, 0, new long[] {5, 4}, new Digest[] {FixedIndexTest.d(0), FixedIndexTest.d(1)}));
        for (int i = 1; i <= 1000; i++) {
            b.append(10 + i, FixedIndexTest.d(i));
        }
        assertEquals(1001, b.build(U, 0).chunkCount());
    }

    @Test
    void corruptInputs(@TempDir Path dir) throws Exception {
        byte[] good = sample().encode();
        assertThrows(CorruptDataException.class, () -> DynamicIndex.read(ByteBuffer.wrap(new byte[100]), "s"));
        byte[] magic = good.clone();
        FileFormats.putMagic(magic, 0, FileFormats.FIXED_INDEX_MAGIC);
        var m = assertThrows(CorruptDataException.class, () -> DynamicIndex.read(ByteBuffer.wrap(magic), "m.didx"));
        assertTrue(m.getMessage().startsWith("m.didx: ") && m.getMessage().contains("magic"), m.getMessage());
        var len = assertThrows(CorruptDataException.class,
                () -> DynamicIndex.read(ByteBuffer.wrap(Arrays.copyOf(good, good.length - 1)), "l.didx"));
        assertTrue(len.getMessage().contains("multiple of 40"), len.getMessage());
        byte[] order = good.clone();
        ByteBuffer.wrap(order).order(ByteOrder.LITTLE_ENDIAN).putLong(4096 + 80, 4999);
        var o = assertThrows(CorruptDataException.class, () -> DynamicIndex.read(ByteBuffer.wrap(order), "o.didx"));
        assertEquals(4096 + 80, o.offset());
        byte[] zero = good.clone();
        ByteBuffer.wrap(zero).order(ByteOrder.LITTLE_ENDIAN).putLong(4096, 0);
        assertThrows(CorruptDataException.class, () -> DynamicIndex.read(ByteBuffer.wrap(zero), "z"));
        byte[] neg = good.clone();
        ByteBuffer.wrap(neg).order(ByteOrder.LITTLE_ENDIAN).putLong(4096 + 120, -5);
        assertThrows(CorruptDataException.class, () -> DynamicIndex.read(ByteBuffer.wrap(neg), "n"));

        Path p = dir.resolve("root.pxar.didx");
        Files.write(p, good);
        assertEquals(sample().computeCsum(), DynamicIndex.open(p).computeCsum());
        Files.write(p, order);
        var e = assertThrows(CorruptDataException.class, () -> DynamicIndex.open(p));
        assertTrue(e.getMessage().contains(p.toString()));
    }
}
