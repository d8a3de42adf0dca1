package org.jpbs.core.pxar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Decoding a real archive and feeding every entry to jpbs's encoder gives the same bytes: the
 * encoder's item layout, offsets and goodbye tables equal the Rust encoder's, independent of
 * any file system.
 */
class PxarReencodeTest {
    @ParameterizedTest
    @ValueSource(strings = {"t1-basic", "t2-special", "t3-xattr-acl", "t4-names"})
    void reencodingTheDecodedEntriesGivesTheSameBytes(String tree) throws Exception {
        Path file = SharedVectors.require("vectors/real-pxar/" + tree + ".pxar");
        byte[] original = Files.readAllBytes(file);
        assertArrayEquals(original, reencode(original));
    }

    static byte[] reencode(byte[] archive) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PxarDecoder d = new PxarDecoder(new java.io.ByteArrayInputStream(archive))) {
            PxarEntry root = d.next();
            PxarEncoder enc = new PxarEncoder(out, root.metadata());
            PxarEntry e;
            byte[] buf = new byte[8192];
            while ((e = d.next()) != null) {
                switch (e.kind()) {
                    case DIRECTORY -> enc.beginDirectory(e.name(), e.metadata());
                    case DIRECTORY_END -> {
                        if (e.path().length == 0) {
                            enc.finish();
                        } else {
                            enc.endDirectory();
                        }
                    }
                    case FILE -> {
                        enc.beginFile(e.name(), e.metadata(), e.fileSize());
                        int r;
                        while ((r = d.read(buf, 0, buf.length)) > 0) {
                            enc.write(buf, 0, r);
                        }
                        enc.endFile();
                    }
                    case SYMLINK -> enc.addSymlink(e.name(), e.metadata(), e.linkTarget());
                    case DEVICE -> enc.addDevice(e.name(), e.metadata(), e.deviceMajor(), e.deviceMinor());
                    case FIFO, SOCKET -> enc.addSpecial(e.name(), e.metadata());
                    case HARDLINK -> enc.addHardlink(e.name(), e.linkTarget(), e.fileOffset() - e.hardlinkOffset());
                }
            }
        }
        return out.toByteArray();
    }
}
