package org.jpbs.core.chunker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The payload chunker ({@code docs/pxar.md#metadata-change-detection}): a suggested boundary cuts
 * exactly there when the chunk is between the minimum and maximum size, is dropped below the
 * minimum, and leaves the cut to the rolling hash above the maximum; without suggestions it is
 * the buzhash chunker; a forced cut keeps later suggestions. (As in PBS, where a suggestion
 * falls in a later write, the rolling hash may cut first: cuts depend on the write sizes.)
 */
class PayloadChunkerTest {
    private static final int AVG = 64 * 1024; // min 16 KiB, max 256 KiB

    private static List<Long> cuts(byte[] data, List<Long> suggestions, int piece, long forcedCutAt) throws Exception {
        PayloadChunker c = new PayloadChunker(AVG);
        List<Long> ends = new ArrayList<>();
        try (ChunkingOutputStream out = new ChunkingOutputStream(c, c.maxSize(), (d, len, end) -> ends.add(end))) {
            suggestions.forEach(c::suggest);
            int pos = 0;
            while (pos < data.length) {
                int n = (int) Math.min(data.length - pos, forcedCutAt > pos ? Math.min(piece, forcedCutAt - pos) : piece);
                out.write(data, pos, n);
                pos += n;
                if (pos == forcedCutAt) {
                    out.cut();
                }
            }
        }
        return ends;
    }

    @Test
    void withoutSuggestionsItIsTheBuzhashChunker() throws Exception {
        byte[] data = new byte[2 << 20];
        new Random(1).nextBytes(data);
        List<Long> want = new ArrayList<>();
        try (ChunkingOutputStream out = ChunkingOutputStream.buzhash(AVG, (d, len, end) -> want.add(end))) {
            out.write(data, 0, data.length);
        }
        assertEquals(want, cuts(data, List.of(), data.length, -1));
        assertEquals(want, cuts(data, List.of(), 999, -1));
    }

    @Test
    void suggestionsCutWithinTheSizeLimits() throws Exception {
        byte[] data = new byte[1 << 20];
        new Random(2).nextBytes(data);
        // 100: too small (dropped); 50,000: a 50,000-byte chunk; 400,000: 350,000 after it, over the
        // maximum (the rolling hash decides); written at once, each suggestion is decidable at once
        List<Long> ends = cuts(data, List.of(100L, 50_000L, 400_000L), data.length, -1);
        assertEquals(50_000L, ends.get(0), ends.toString());
        assertTrue(!ends.contains(100L) && ends.get(ends.size() - 1) == data.length, ends.toString());
        for (int i = 1; i < ends.size(); i++) {
            assertTrue(ends.get(i) - ends.get(i - 1) <= 256 * 1024, ends.toString());
        }
        List<Long> plain = cuts(data, List.of(), data.length, -1);
        assertTrue(!plain.contains(50_000L), plain.toString());
    }

    @Test
    void aForcedCutKeepsLaterSuggestions() throws Exception {
        byte[] data = new byte[300_000];
        new Random(3).nextBytes(data);
        List<Long> ends = cuts(data, List.of(40_000L, 100_000L), data.length, 30_000);
        assertEquals(30_000L, ends.get(0));
        assertEquals(100_000L, ends.get(1), "40,000 is 10,000 after the forced cut: too small; 100,000 is taken");
    }
}
