package org.jpbs.client.mount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.core.pxar.XAttr;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a mount of the real pxar archives shows: every entry with a UTF-8 path has the
 * decoder's mode, owner, time and size, files read back equal at any offset, hardlinks share
 * their target's inode, symbolic links their target, xattrs (with capabilities) are listed,
 * directories list their children in archive order; missing paths and wrong kinds are errors.
 */
class PxarTreeTest {
    @ParameterizedTest
    @ValueSource(strings = {"t1-basic", "t2-special", "t3-xattr-acl", "t4-names"})
    void theTreeShowsWhatTheDecoderReads(String tree) throws Exception {
        byte[] archive = Files.readAllBytes(SharedVectors.require("vectors/real-pxar/" + tree + ".pxar"));
        Map<String, PxarEntry> entries = new LinkedHashMap<>();
        Map<String, byte[]> contents = new LinkedHashMap<>();
        Map<String, List<String>> children = new LinkedHashMap<>();
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(archive))) {
            for (PxarEntry e; (e = d.next()) != null; ) {
                if (e.kind() == PxarEntry.Kind.DIRECTORY_END) {
                    continue;
                }
                String p = "/" + new String(e.path(), StandardCharsets.UTF_8);
                if (!Arrays.equals(p.substring(1).getBytes(StandardCharsets.UTF_8), e.path())) {
                    continue; // not UTF-8: FUSE paths are strings (docs/pxar.md#mount)
                }
                entries.put(p, e);
                if (!p.equals("/")) {
                    String parent = p.substring(0, Math.max(1, p.lastIndexOf('/')));
                    children.computeIfAbsent(parent, k -> new ArrayList<>()).add(p.substring(p.lastIndexOf('/') + 1));
                }
                if (e.kind() == PxarEntry.Kind.FILE) {
                    contents.put(p, d.contents().readAllBytes());
                }
            }
        }
        Random rnd = new Random(tree.hashCode());
        int checked = 0;
        try (PxarTree t = new PxarTree(ReadAt.of(archive), null, () -> { })) {
            for (Map.Entry<String, PxarEntry> me : entries.entrySet()) {
                String p = me.getKey();
                PxarEntry e = me.getValue();
                NodeAttr a = t.attr(p);
                if (e.kind() == PxarEntry.Kind.HARDLINK) {
                    String target = "/" + new String(e.linkTarget(), StandardCharsets.UTF_8);
                    assertEquals(t.attr(target), a, p + " shows its target " + target);
                    assertArrayEquals(contents.get(target), readAll(t, p), p);
                    continue;
                }
                var st = e.metadata().stat();
                assertEquals(st.mode(), a.mode(), p);
                assertEquals(st.uid(), a.uid(), p);
                assertEquals(st.gid(), a.gid(), p);
                assertEquals(st.mtimeSecs(), a.mtimeSecs(), p);
                assertEquals(st.mtimeNanos(), a.mtimeNanos(), p);
                assertEquals(e.fileOffset() + 1, a.ino(), p);
                List<XAttr> x = t.xattrs(p);
                for (XAttr want : e.metadata().xattrs()) {
                    assertTrue(x.stream().anyMatch(g -> Arrays.equals(g.name(), want.name())
                            && Arrays.equals(g.value(), want.value())), p + ": xattr " + new String(want.name()));
                }
                if (e.metadata().fcaps() != null) {
                    assertTrue(x.stream().anyMatch(g -> new String(g.name()).equals("security.capability")
                            && Arrays.equals(g.value(), e.metadata().fcaps())), p + ": capability");
                }
                switch (e.kind()) {
                    case FILE -> {
                        byte[] c = contents.get(p);
                        assertEquals(c.length, a.size(), p);
                        assertArrayEquals(c, readAll(t, p), p);
                        if (c.length > 1) {
                            long h = t.open(p);
                            int at = rnd.nextInt(c.length);
                            byte[] b = new byte[c.length - at + 10];
                            assertEquals(c.length - at, t.read(h, at, b, 0, b.length), p + " at " + at);
                            assertArrayEquals(Arrays.copyOfRange(c, at, c.length), Arrays.copyOf(b, c.length - at));
                            assertEquals(0, t.read(h, c.length + 5, b, 0, 1));
                            t.release(h);
                        }
                    }
                    case SYMLINK -> {
                        assertArrayEquals(e.linkTarget(), t.readlink(p), p);
                        assertEquals(e.linkTarget().length, a.size());
                    }
                    case DIRECTORY -> {
                        List<String> names = t.list(p);
                        assertTrue(names.containsAll(children.getOrDefault(p, List.of())), p + ": " + names);
                        assertEquals(2, a.nlink());
                        assertEquals(TreeException.Reason.EISDIR,
                                assertThrows(TreeException.class, () -> t.open(p)).reason());
                    }
                    case DEVICE -> assertEquals(NodeAttr.makedev(e.deviceMajor(), e.deviceMinor()), a.rdev(), p);
                    default -> { }
                }
                checked++;
            }
            assertEquals(TreeException.Reason.ENOENT, assertThrows(TreeException.class, () -> t.attr("/no-such")).reason());
            assertEquals(TreeException.Reason.EINVAL, assertThrows(TreeException.class, () -> t.readlink("/")).reason());
        }
        assertTrue(checked > 3, tree + ": " + checked);
    }

    private static byte[] readAll(PxarTree t, String p) throws IOException {
        long h = t.open(p);
        try {
            byte[] b = new byte[(int) t.attr(p).size()];
            int done = 0;
            while (done < b.length) {
                int n = t.read(h, done, b, done, Math.min(7777, b.length - done));
                assertTrue(n > 0);
                done += n;
            }
            return b;
        } finally {
            t.release(h);
        }
    }
}
