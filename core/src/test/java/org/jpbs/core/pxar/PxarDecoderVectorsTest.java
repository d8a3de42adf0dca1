package org.jpbs.core.pxar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * jpbs's decoder against the archives the real {@code pxar} 3.1.2 made: every item (entry
 * metadata, xattrs, ACLs, capabilities, payload sizes, links, devices, goodbye tables) equals
 * the independent decoder's annotated dump, and the paths equal {@code pxar list}.
 */
class PxarDecoderVectorsTest {
    @ParameterizedTest
    @ValueSource(strings = {"t1-basic", "t2-special", "t3-xattr-acl", "t4-names"})
    void decodesEveryItemOfTheRealArchive(String tree) throws Exception {
        Path dir = SharedVectors.require("vectors/real-pxar");
        List<String> expected = ItemListing.fromDump(dir.resolve(tree + ".items.txt"));
        List<String> actual;
        try (PxarDecoder d = new PxarDecoder(Files.newInputStream(dir.resolve(tree + ".pxar")))) {
            actual = ItemListing.fromDecoder(d);
            assertNull(d.next());
            assertEquals(Files.size(dir.resolve(tree + ".pxar")), d.position());
        }
        assertTrue(expected.size() > 10, "dump parsed: " + expected.size());
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    @ParameterizedTest
    @ValueSource(strings = {"t1-basic", "t2-special", "t3-xattr-acl", "t4-names"})
    void pathsEqualPxarList(String tree) throws Exception {
        Path dir = SharedVectors.require("vectors/real-pxar");
        List<String> expected = Files.readAllLines(dir.resolve(tree + ".list.txt"));
        List<String> actual = new java.util.ArrayList<>();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(dir.resolve(tree + ".pxar")), 7);
                PxarDecoder d = new PxarDecoder(in)) {
            PxarEntry e;
            while ((e = d.next()) != null) {
                if (e.kind() != PxarEntry.Kind.DIRECTORY_END) {
                    actual.add("\"" + pxarListQuote(e.displayPath()) + "\"");
                }
            }
        }
        assertEquals(expected, actual);
    }

    /** {@code pxar list} prints Rust's Debug of the path: backslash, quote and tab escaped. */
    private static String pxarListQuote(String p) {
        return p.replace("\\", "\\\\").replace("\"", "\\\"").replace("\t", "\\t");
    }
}
