package org.jpbs.core.chunker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The chunking stream cuts as the chunker does, whatever the write sizes, and loses no byte. */
class ChunkingOutputStreamTest {
    @Test
    void cutsTheUpstreamTestBufferAsTheRustChunker() throws Exception {
        ByteBuffer b = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 262144; i++) {
            b.putInt(i);
        }
        byte[] data = b.array();
        Random rnd = new Random(3);
        for (int round = 0; round < 3; round++) {
            List<Integer> sizes = new ArrayList<>();
            List<Long> ends = new ArrayList<>();
            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            try (ChunkingOutputStream out = ChunkingOutputStream.buzhash(64 * 1024, (d, len, end) -> {
                sizes.add(len);
                ends.add(end);
                joined.write(d, 0, len);
            })) {
                int pos = 0;
                while (pos < data.length) {
                    int n = Math.min(data.length - pos, round == 0 ? data.length : 1 + rnd.nextInt(round == 1 ? 7 : 200_000));
                    out.write(data, pos, n);
                    pos += n;
                }
            }
            assertEquals(List.of(143377, 262144, 262144, 262144, 118767), sizes);
            assertEquals(1L << 20, ends.get(ends.size() - 1));
            assertArrayEquals(data, joined.toByteArray());
        }
    }

    @Test
    void anEmptyStreamHasNoChunks() throws Exception {
        List<Integer> sizes = new ArrayList<>();
        ChunkingOutputStream.buzhash(4 << 20, (d, len, end) -> sizes.add(len)).close();
        assertEquals(List.of(), sizes);
    }
}
