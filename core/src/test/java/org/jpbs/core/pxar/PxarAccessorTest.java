package org.jpbs.core.pxar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random access through the goodbye tables of the real archives: every path the sequential
 * decoder sees is found by lookup with the same metadata and contents, directory listings
 * come back in archive order, absent names are not found, hardlinks resolve to their first name.
 */
class PxarAccessorTest {
    @ParameterizedTest
    @ValueSource(strings = {"t1-basic", "t2-special", "t3-xattr-acl", "t4-names"})
    void everyEntryIsFoundByLookup(String tree) throws Exception {
        byte[] archive = Files.readAllBytes(SharedVectors.require("vectors/real-pxar/" + tree + ".pxar"));
        Map<String, PxarEntry> entries = new LinkedHashMap<>();
        Map<String, byte[]> contents = new LinkedHashMap<>();
        Map<String, List<String>> children = new LinkedHashMap<>();
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(archive))) {
            ArrayDeque<String> dirs = new ArrayDeque<>();
            PxarEntry e;
            while ((e = d.next()) != null) {
                String p = new String(e.path(), StandardCharsets.ISO_8859_1);
                if (e.kind() == PxarEntry.Kind.DIRECTORY_END) {
                    dirs.pop();
                    continue;
                }
                if (!dirs.isEmpty()) {
                    children.get(dirs.peek()).add(p);
                }
                entries.put(p, e);
                if (e.kind() == PxarEntry.Kind.FILE) {
                    contents.put(p, d.contents().readAllBytes());
                }
                if (e.kind() == PxarEntry.Kind.DIRECTORY) {
                    dirs.push(p);
                    children.put(p, new ArrayList<>());
                }
            }
        }
        PxarAccessor acc = new PxarAccessor(ReadAt.of(archive));
        for (Map.Entry<String, PxarEntry> me : entries.entrySet()) {
            byte[] path = me.getKey().getBytes(StandardCharsets.ISO_8859_1);
            PxarAccessor.Node n = acc.lookup(path);
            assertNotNull(n, me.getKey());
            PxarEntry want = me.getValue();
            assertEquals(want.kind(), n.entry().kind(), me.getKey());
            assertEquals(want.fileOffset(), n.offset(), me.getKey());
            assertArrayEquals(want.path(), n.entry().path());
            if (want.metadata() != null) {
                assertEquals(want.metadata().stat(), n.entry().metadata().stat());
            }
            if (want.kind() == PxarEntry.Kind.FILE) {
                assertArrayEquals(contents.get(me.getKey()), acc.open(n).readAllBytes());
            }
            if (want.kind() == PxarEntry.Kind.HARDLINK) {
                PxarAccessor.Node t = acc.resolveHardlink(n);
                assertArrayEquals(want.linkTarget(), t.entry().path());
                assertArrayEquals(contents.get(new String(want.linkTarget(), StandardCharsets.ISO_8859_1)),
                        acc.open(n).readAllBytes());
            }
            if (want.kind() == PxarEntry.Kind.DIRECTORY) {
                List<String> listed = new ArrayList<>();
                for (PxarAccessor.Node c : acc.list(n)) {
                    listed.add(new String(c.entry().path(), StandardCharsets.ISO_8859_1));
                }
                assertEquals(children.get(me.getKey()), listed);
                assertNull(acc.child(n, "no such name".getBytes(StandardCharsets.UTF_8)));
            }
        }
        assertNull(acc.lookup("does/not/exist".getBytes(StandardCharsets.UTF_8)));
    }
}
