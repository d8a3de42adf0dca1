package org.jpbs.core.pxar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.Test;

/** The format's building blocks: type constants, name hashes, goodbye order, and corrupt streams refused. */
class PxarFormatTest {
    private static long marker(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        return SipHash24.hash(PxarFormat.HASH_KEY_0, PxarFormat.HASH_KEY_1, b, 0, b.length);
    }

    @Test
    void typeConstantsAreTheHashesOfTheirMarkers() {
        assertEquals(PxarFormat.ENTRY, marker("__PROXMOX_FORMAT_ENTRY_V2__"));
        assertEquals(PxarFormat.GOODBYE, marker("__PROXMOX_FORMAT_GOODBYE__"));
        assertEquals(PxarFormat.FILENAME, marker("__PROXMOX_FORMAT_FILENAME__"));
        assertEquals(PxarFormat.FORMAT_VERSION, marker("__PROXMOX_FORMAT_VERSION__"));
    }

    @Test
    void filenameHashesMatchTheRealArchive() {
        // from t1-basic.items.txt and t2-special.items.txt (goodbye items)
        assertEquals(0x4e670ce084b74d9fL, PxarFormat.hashFilename("deep.txt".getBytes(StandardCharsets.UTF_8)));
        assertEquals(0xacb42b0a5ee033faL, PxarFormat.hashFilename("zz_hl_to_devs".getBytes(StandardCharsets.UTF_8)));
        // a name of exactly 8 bytes and one longer than 8 exercise both SipHash paths
        assertEquals(0x4a05703f633e1c8bL, PxarFormat.hashFilename("file2.txt".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void goodbyeOrderIsTheCasyncBinarySearchTree() {
        int[][] expected = {{}, {0}, {1, 0}, {1, 0, 2}, {2, 1, 3, 0}, {3, 1, 4, 0, 2}, {3, 1, 5, 0, 2, 4},
            {3, 1, 5, 0, 2, 4, 6}, {4, 2, 6, 1, 3, 5, 7, 0}, {5, 3, 7, 1, 4, 6, 8, 0, 2},
            {6, 3, 8, 1, 5, 7, 9, 0, 2, 4}, {7, 3, 9, 1, 5, 8, 10, 0, 2, 4, 6},
            {8, 4, 12, 2, 6, 10, 14, 1, 3, 5, 7, 9, 11, 13, 15, 0},
            {9, 5, 13, 3, 7, 11, 15, 1, 4, 6, 8, 10, 12, 14, 16, 0, 2}};
        for (int[] e : expected) {
            assertArrayEquals(e, GoodbyeOrder.permutation(e.length), "n=" + e.length);
        }
    }

    @Test
    void aCorruptGoodbyeTableIsRefusedWithItsOffset() throws Exception {
        byte[] a = Files.readAllBytes(SharedVectors.require("vectors/real-pxar/t1-basic.pxar"));
        byte[] bad = a.clone();
        bad[761] ^= 1; // first goodbye item hash of /dir1 (see t1-basic.items.txt)
        IOException e = assertThrows(PxarFormatException.class, () -> drain(bad));
        assertTrue(e.getMessage().contains("at byte 761"), e.getMessage());
    }

    @Test
    void aTruncatedOrExtendedStreamIsRefused() throws Exception {
        byte[] a = Files.readAllBytes(SharedVectors.require("vectors/real-pxar/t2-special.pxar"));
        assertThrows(java.io.EOFException.class, () -> drain(Arrays.copyOf(a, a.length - 1)));
        assertThrows(java.io.EOFException.class, () -> drain(Arrays.copyOf(a, 500)));
        IOException e = assertThrows(PxarFormatException.class, () -> drain(Arrays.copyOf(a, a.length + 3)));
        assertTrue(e.getMessage().contains("after the end"), e.getMessage());
    }

    @Test
    void aStreamThatIsNotPxarIsNamedSo() {
        IOException e = assertThrows(PxarFormatException.class, () -> drain(new byte[64]));
        assertTrue(e.getMessage().contains("not a pxar archive"), e.getMessage());
    }

    @Test
    void fileContentsAreReadFromTheStream() throws Exception {
        Path dir = SharedVectors.require("vectors/real-pxar");
        try (PxarDecoder d = new PxarDecoder(Files.newInputStream(dir.resolve("t1-basic.pxar")))) {
            PxarEntry e;
            while ((e = d.next()) != null) {
                if (e.displayPath().equals("/hello.txt")) {
                    assertEquals("hello pxar\n", new String(d.contents().readAllBytes(), StandardCharsets.UTF_8));
                }
                if (e.displayPath().equals("/random100k.bin")) {
                    byte[] data = d.contents().readAllBytes();
                    assertEquals(102400, data.length);
                }
            }
        }
    }

    private static void drain(byte[] a) throws IOException {
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(a))) {
            while (d.next() != null) {
                // read all
            }
        }
    }
}
