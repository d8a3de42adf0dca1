package org.jpbs.client.pxar.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.pattern.MatchEntry;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --pattern}: only what the patterns include is restored, with the directories leading to it. */
class PatternRestoreTest {
    @Test
    void restoresOnlyTheMatchingPart(@TempDir Path dir) throws Exception {
        Path archive = SharedVectors.require("vectors/real-pxar/t1-basic.pxar");
        List<MatchEntry> patterns = List.of(MatchEntry.parse(b("/dir1/sub1"), true, false),
                MatchEntry.parse(b("*.bin"), true, false), MatchEntry.parse(b("!deep.txt"), true, false));
        TreeExtractor.Options opts = new TreeExtractor.Options(false, false, false, false, patterns);
        List<String> warnings = new ArrayList<>();
        Path target = dir.resolve("out");
        TreeExtractor extractor = new TreeExtractor(opts, warnings::add);
        try (PxarDecoder d = new PxarDecoder(Files.newInputStream(archive))) {
            extractor.extract(d, target);
        }
        assertEquals(3, extractor.restored(), "sub1, subsub and the .bin file; /dir1 only leads there");
        assertEquals(List.of(), warnings);
        List<String> got;
        try (Stream<Path> s = Files.walk(target)) {
            got = s.map(p -> "/" + target.relativize(p).toString().replace('\\', '/')).sorted().toList();
        }
        assertEquals(List.of("/", "/dir1", "/dir1/sub1", "/dir1/sub1/subsub", "/random100k.bin"), got);
        assertEquals(102400, Files.size(target.resolve("random100k.bin")));
    }

    /** The count the CLI uses to report a --pattern that matched nothing (nothing is written then). */
    @Test
    void aPatternMatchingNothingRestoresNoEntry(@TempDir Path dir) throws Exception {
        Path archive = SharedVectors.require("vectors/real-pxar/t1-basic.pxar");
        TreeExtractor extractor = new TreeExtractor(new TreeExtractor.Options(false, false, false, false,
                List.of(MatchEntry.parse(b("/no/such/path"), true, false))), w -> { });
        Path target = dir.resolve("out");
        try (PxarDecoder d = new PxarDecoder(Files.newInputStream(archive))) {
            extractor.extract(d, target);
        }
        assertEquals(0, extractor.restored());
        try (Stream<Path> s = Files.list(target)) {
            assertEquals(0, s.count());
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
