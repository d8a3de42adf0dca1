package org.jpbs.client.pxar.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real {@code pxar} 3.1.2 archives extracted by jpbs restore the source trees exactly:
 * archiving the extracted tree again gives the original archive's bytes, which carry every
 * mode, owner, nanosecond time, xattr (in order), ACL, capability, chattr flag, hardlink,
 * device, fifo and socket.
 */
class TreeExtractorVectorsTest extends DiskDirTest {
    @ParameterizedTest
    @ValueSource(strings = {"t1-basic", "t2-special", "t3-xattr-acl", "t4-names"})
    void extractedTreeArchivesToTheSameBytes(String tree) throws Exception {
        Path archive = SharedVectors.require("vectors/real-pxar/" + tree + ".pxar");
        Path target = dir.resolve(tree);
        List<String> warnings = new ArrayList<>();
        try (PxarDecoder d = new PxarDecoder(Files.newInputStream(archive))) {
            new TreeExtractor(TreeExtractor.Options.defaults(), warnings::add).extract(d, target);
        }
        assertEquals(List.of(), warnings);
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        new TreeArchiver(TreeArchiver.Options.defaults(), null, warnings::add).archive(target, again);
        assertEquals(List.of(), warnings);
        assertArrayEquals(Files.readAllBytes(archive), again.toByteArray());
    }
}
