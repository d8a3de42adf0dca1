package org.jpbs.client.pxar.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.core.pxar.PxarFormat;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Split archives (metadata stream + payload stream, as PBS 3.3's change-detection mode
 * writes them): a real tree archived split, decoded (goodbye tables checked), extracted
 * from both streams and archived again unified gives the real pxar's bytes.
 */
class SplitArchiveTest extends DiskDirTest {
    @ParameterizedTest
    @ValueSource(strings = {"t1-basic", "t2-special"})
    void splitArchiveRestoresTheTree(String tree) throws Exception {
        byte[] real = Files.readAllBytes(SharedVectors.require("vectors/real-pxar/" + tree + ".pxar"));
        List<String> warnings = new ArrayList<>();
        Path src = dir.resolve(tree + "-src");
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(real))) {
            new TreeExtractor(TreeExtractor.Options.defaults(), warnings::add).extract(d, src);
        }
        ByteArrayOutputStream meta = new ByteArrayOutputStream();
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        new TreeArchiver(TreeArchiver.Options.defaults(), null, warnings::add).archive(src, meta, payload);
        byte[] m = meta.toByteArray();
        byte[] p = payload.toByteArray();
        assertEquals(PxarFormat.FORMAT_VERSION, le(m, 0));
        assertEquals(2, le(m, 16));
        assertEquals(PxarFormat.PAYLOAD_START_MARKER, le(p, 0));
        assertEquals(PxarFormat.PAYLOAD_TAIL_MARKER, le(p, p.length - 16));

        int refs = 0;
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(m))) {
            PxarEntry e;
            while ((e = d.next()) != null) {
                if (e.kind() == PxarEntry.Kind.FILE) {
                    refs += e.hasPayloadRef() ? 1 : 0;
                }
            }
        }
        assertEquals(true, refs > 0);
        assertEquals(new PxarAccessor(ReadAt.of(real)).list(new PxarAccessor(ReadAt.of(real)).root()).size(),
                new PxarAccessor(ReadAt.of(m)).list(new PxarAccessor(ReadAt.of(m)).root()).size());

        Path restored = dir.resolve(tree + "-restored");
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(m))) {
            new TreeExtractor(TreeExtractor.Options.defaults(), warnings::add).extract(d, restored, ReadAt.of(p));
        }
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        new TreeArchiver(TreeArchiver.Options.defaults(), null, warnings::add).archive(restored, again);
        assertEquals(List.of(), warnings);
        assertArrayEquals(real, again.toByteArray());
    }

    private static long le(byte[] b, int off) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (b[off + i] & 0xff);
        }
        return v;
    }
}
