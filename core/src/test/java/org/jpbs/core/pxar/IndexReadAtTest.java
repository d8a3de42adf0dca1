package org.jpbs.core.pxar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.jpbs.core.ChunkSource;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.chunker.ChunkingOutputStream;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.DynamicIndexBuilder;
import org.jpbs.core.testing.SampleTree;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Random access to a chunked archive ({@code docs/pxar.md#random-access}): a file deep in a
 * 3000-file archive of about 100 chunks is found and read with a handful of chunk loads, each
 * checked against its digest; the cache keeps repeated small reads from loading a chunk twice.
 */
class IndexReadAtTest {
    static SampleTree tree;
    static DynamicIndex index;
    static final Map<Digest, byte[]> CHUNKS = new HashMap<>();

    /** The chunks of a stream cut by the buzhash chunker (average 64 KiB), and its index. */
    static DynamicIndex chunk(byte[] data, Map<Digest, byte[]> store) throws IOException {
        DynamicIndexBuilder b = new DynamicIndexBuilder();
        try (ChunkingOutputStream out = ChunkingOutputStream.buzhash(64 * 1024, (buf, len, end) -> {
            byte[] c = java.util.Arrays.copyOf(buf, len);
            Digest d = EncodedChunk.digest(c, 0, len, null);
            store.put(d, c);
            b.append(end, d);
        })) {
            out.write(data);
        }
        return b.build(UUID.nameUUIDFromBytes(data), 1_700_000_000L);
    }

    /** A chunk source over a map that counts its reads. */
    static final class CountingSource implements ChunkSource {
        final Map<Digest, byte[]> chunks;
        final AtomicInteger reads = new AtomicInteger();

        CountingSource(Map<Digest, byte[]> chunks) {
            this.chunks = chunks;
        }

        @Override
        public byte[] readChunk(Digest digest, int expectedSize, CryptConfig crypt) throws IOException {
            reads.incrementAndGet();
            byte[] c = chunks.get(digest);
            if (c == null) {
                throw new MissingChunkException(digest, "test map");
            }
            return c.clone();
        }
    }

    @BeforeAll
    static void build() throws IOException {
        tree = new SampleTree(7, 3000);
        index = chunk(tree.archive, CHUNKS);
    }

    @Test
    void oneFileCostsAFewChunksNotTheArchive() throws Exception {
        assertTrue(index.chunkCount() > 60, "archive of " + index.chunkCount() + " chunks");
        CountingSource src = new CountingSource(CHUNKS);
        IndexReadAt at = new IndexReadAt(index, src, null, "root.pxar.didx", 8);
        PxarAccessor acc = new PxarAccessor(at);
        PxarAccessor.Node n = acc.lookup("many/f02345".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(tree.many(2345), acc.open(n).readAllBytes());
        assertTrue(src.reads.get() <= 6, src.reads.get() + " chunks read for one file of " + index.chunkCount());
        assertEquals(src.reads.get(), at.chunksLoaded());
        assertArrayEquals(tree.big, acc.open(acc.lookup("big.bin".getBytes(StandardCharsets.UTF_8))).readAllBytes());
    }

    @Test
    void aWrongChunkIsRefused() throws Exception {
        Map<Digest, byte[]> bad = new HashMap<>(CHUNKS);
        Digest last = index.digest(index.chunkCount() - 1);
        byte[] c = bad.get(last).clone();
        c[0] ^= 1;
        bad.put(last, c);
        IndexReadAt at = new IndexReadAt(index, new CountingSource(bad), null, "root.pxar.didx", 8);
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> new PxarAccessor(at).root());
        assertTrue(e.getMessage().contains("does not match its digest"), e.getMessage());
        assertEquals(-1, at.read(index.size(), new byte[1], 0, 1));
    }
}
