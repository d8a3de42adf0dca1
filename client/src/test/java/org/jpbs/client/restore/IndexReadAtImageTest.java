package org.jpbs.client.restore;

import static org.jpbs.client.TestImages.MIB;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.UUID;
import org.jpbs.client.MemoryChunkStore;
import org.jpbs.client.TestImages;
import org.jpbs.client.backup.ImageBackup;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.pxar.IndexReadAt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random access to an index (what a mount reads through): reads at any offset return the
 * image's bytes, fetch only the chunks they touch (zero chunks none), reuse cached chunks,
 * fetch ahead for a sequential reader, and report a corrupt chunk.
 */
class IndexReadAtImageTest {
    @TempDir
    Path dir;

    /** 10 MiB + 12345 bytes in 1 MiB chunks; [4M,8M) zeros. */
    private TestImages.BackedUp img;

    @BeforeEach
    void backUp() throws IOException {
        img = TestImages.backUp(dir, 2);
    }

    private static int readFully(IndexReadAt r, long pos, byte[] b) throws IOException {
        int done = 0;
        while (done < b.length) {
            int n = r.read(pos + done, b, done, b.length - done);
            if (n < 0) {
                break;
            }
            done += n;
        }
        return done;
    }

    @Test
    void randomReadsReturnTheImageAndFetchOnlyTheirChunks() throws IOException {
        try (IndexReadAt r = new IndexReadAt(img.index(), img.store(), null, true, 4L * MIB, 0, "src.img.fidx")) {
            assertEquals(img.data().length, r.size());
            byte[] b = new byte[1000];
            assertEquals(1000, readFully(r, 2L * MIB + 5, b));
            assertArrayEquals(Arrays.copyOfRange(img.data(), 2 * MIB + 5, 2 * MIB + 1005), b);
            assertEquals(1, r.chunksLoaded(), "one chunk touched, one fetched");
            assertEquals(1000, readFully(r, 2L * MIB + 7000, b));
            assertEquals(1, r.chunksLoaded(), "the same chunk again: from the cache");
            byte[] across = new byte[4000];
            assertEquals(4000, readFully(r, 3L * MIB - 2000, across)); // chunks 2 and 3
            assertArrayEquals(Arrays.copyOfRange(img.data(), 3 * MIB - 2000, 3 * MIB + 2000), across);
            assertEquals(2, r.chunksLoaded());
            byte[] zeros = new byte[MIB];
            assertEquals(MIB, readFully(r, 5L * MIB, zeros));
            assertArrayEquals(new byte[MIB], zeros);
            assertEquals(2, r.chunksLoaded(), "a zero chunk is known by its digest, not fetched");
            byte[] tail = new byte[20000];
            assertEquals(12345, readFully(r, 10L * MIB, tail), "short at the end");
            assertArrayEquals(Arrays.copyOfRange(img.data(), 10 * MIB, img.data().length), Arrays.copyOf(tail, 12345));
            assertEquals(-1, r.read(img.data().length, tail, 0, 1));
            Random rnd = new Random(5);
            for (int k = 0; k < 200; k++) {
                int pos = rnd.nextInt(img.data().length);
                byte[] x = new byte[Math.min(rnd.nextInt(300_000), img.data().length - pos)];
                assertEquals(x.length, readFully(r, pos, x));
                assertArrayEquals(Arrays.copyOfRange(img.data(), pos, pos + x.length), x, "at " + pos);
            }
            assertTrue(r.chunksLoaded() > 7, "a 4 MiB cache refetches chunks it dropped: " + r.chunksLoaded());
        }
    }

    @Test
    void aSequentialReaderGetsTheNextChunksAhead() throws Exception {
        try (IndexReadAt r = new IndexReadAt(img.index(), img.store(), null, true, 16L * MIB, 2, "src.img.fidx")) {
            byte[] b = new byte[128 * 1024];
            readFully(r, 0, b);
            readFully(r, b.length, b); // continues: chunks 1 and 2 are fetched ahead
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (r.chunksLoaded() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(3, r.chunksLoaded());
            byte[] all = new byte[img.data().length];
            assertEquals(img.data().length, readFully(r, 0, all));
            assertArrayEquals(img.data(), all);
        }
    }

    @Test
    void aCorruptChunkIsReportedNamingIt() throws IOException {
        Digest victim = img.index().digest(1);
        byte[] other = new byte[MIB];
        new Random(99).nextBytes(other);
        img.store().chunks.put(victim, DataBlob.encode(other, 0, other.length, true));
        try (IndexReadAt r = new IndexReadAt(img.index(), img.store(), null, true, 4L * MIB, 0, "src.img.fidx")) {
            byte[] b = new byte[10];
            assertEquals(10, readFully(r, 0, b));
            CorruptDataException e = assertThrows(CorruptDataException.class, () -> readFully(r, MIB + 1, b));
            assertTrue(e.getMessage().contains(victim.hex()), e.getMessage());
            assertThrows(CorruptDataException.class, () -> readFully(r, MIB + 1, b), "not cached as good");
        }
    }
}
