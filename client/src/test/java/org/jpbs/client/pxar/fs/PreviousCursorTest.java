package org.jpbs.client.pxar.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEncoder;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.core.pxar.Stat;
import org.junit.jupiter.api.Test;

/**
 * {@link PreviousCursor} ({@code docs/pxar.md#metadata-change-detection}): over a split archive
 * with nested directories, names that sort around {@code '/'} ({@code "a.b"} after {@code "a/..."})
 * and non-file entries, asking paths in archive order — some gone, some new — gives exactly what
 * a random-access lookup gives; asking out of order is refused.
 */
class PreviousCursorTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Metadata meta(int type, long mtime) {
        return Metadata.of(new Stat(type | 0644, 0, 1000, 1000, mtime, 7));
    }

    /** root: a/{x, y/{z}}, a.b (file), a0/{dev-like symlink s, file q}, b (dir, empty), c (file), \u00e9 (file). */
    private static byte[][] archive() throws Exception {
        ByteArrayOutputStream m = new ByteArrayOutputStream();
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        PxarEncoder e = new PxarEncoder(m, p, meta(0040000, 1));
        e.beginDirectory(b("a"), meta(0040000, 2));
        file(e, "x", 3);
        e.beginDirectory(b("y"), meta(0040000, 4));
        file(e, "z", 5);
        e.endDirectory();
        e.endDirectory();
        file(e, "a.b", 6);
        e.beginDirectory(b("a0"), meta(0040000, 7));
        file(e, "q", 8);
        e.addSymlink(b("s"), meta(0120000, 9), b("q"));
        e.endDirectory();
        e.beginDirectory(b("b"), meta(0040000, 10));
        e.endDirectory();
        file(e, "c", 11);
        file(e, "\u00e9", 12);
        e.finish();
        return new byte[][] {m.toByteArray(), p.toByteArray()};
    }

    private static void file(PxarEncoder e, String name, int size) throws Exception {
        byte[] data = new byte[size];
        new Random(size).nextBytes(data);
        e.beginFile(b(name), meta(0100000, size), size);
        e.write(data, 0, size);
        e.endFile();
    }

    @Test
    void findsWhatALookupFindsInArchiveOrder() throws Exception {
        byte[] meta = archive()[0];
        PxarAccessor accessor = new PxarAccessor(ReadAt.of(meta));
        List<String> asked = List.of("0new", "a/x", "a/y", "a/y/w", "a/y/z", "a/y/zz", "a.b", "a0/q", "a0/s", "b/gone",
                "c", "d", "\u00e9", "\u00ff");
        try (PreviousCursor c = new PreviousCursor(new ByteArrayInputStream(meta))) {
            int found = 0;
            for (String path : asked) {
                PreviousArchive.File got = c.file(b(path));
                PxarAccessor.Node n = accessor.lookup(b(path));
                boolean file = n != null && n.entry().kind() == PxarEntry.Kind.FILE;
                if (!file) {
                    assertNull(got, path);
                    continue;
                }
                found++;
                assertNotNull(got, path);
                assertEquals(n.entry().fileSize(), got.size(), path);
                assertEquals(n.entry().payloadRef(), got.payloadOffset(), path);
                assertTrue(got.matches(n.entry().metadata(), n.entry().fileSize()), path);
            }
            assertEquals(6, found); // a/x, a/y/z, a.b, a0/q, c, é
            assertThrows(IllegalStateException.class, () -> c.file(b("a/x")));
        }
    }

    @Test
    void orderIsTheDecodersOrder() throws Exception {
        byte[] meta = archive()[0];
        List<byte[]> paths = new ArrayList<>();
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(meta))) {
            for (PxarEntry e = d.next(); e != null; e = d.next()) {
                if (e.kind() != PxarEntry.Kind.DIRECTORY_END) {
                    paths.add(e.path());
                }
            }
        }
        for (int i = 1; i < paths.size(); i++) {
            assertTrue(PreviousCursor.compare(paths.get(i - 1), paths.get(i)) < 0,
                    new String(paths.get(i - 1), StandardCharsets.UTF_8) + " before "
                            + new String(paths.get(i), StandardCharsets.UTF_8));
        }
        assertTrue(PreviousCursor.compare(b("a/zzz"), b("a.b")) < 0);
        assertTrue(PreviousCursor.compare(b("a"), b("a/b")) < 0);
        assertEquals(0, PreviousCursor.compare(b("a/b"), Arrays.copyOf(b("a/b"), 3)));
    }
}
