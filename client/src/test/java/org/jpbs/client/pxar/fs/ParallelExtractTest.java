package org.jpbs.client.pxar.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jpbs.core.pxar.PxarDecoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The extractor's file writers ({@code docs/pxar.md#extracting}): what depends on the order of
 * the archive still happens in that order when files are written on other threads — a hardlink
 * to a file handed to a writer just before, a directory's time set after its files, the
 * earliest failing file reported — and every number of writer threads gives the same tree.
 */
class ParallelExtractTest {
    @TempDir
    Path dir;

    /** A seeded tree: directories of many small files with set times, hardlinks to files written just before. */
    private Path tree() throws IOException {
        Path src = Files.createDirectory(dir.resolve("src"));
        Random rnd = new Random(42);
        for (int d = 0; d < 12; d++) {
            Path sub = Files.createDirectory(src.resolve("d" + d));
            for (int i = 0; i < 150; i++) {
                Files.write(sub.resolve(String.format("f%03d", i)), bytes(rnd, rnd.nextInt(20_000)));
                Files.setLastModifiedTime(sub.resolve(String.format("f%03d", i)), FileTime.fromMillis(1_600_000_000_000L + i));
            }
            // "g..." sorts after the files: a hardlink to the last file handed to a writer, and one across directories
            Files.createLink(sub.resolve("g-link"), sub.resolve("f149"));
            if (d > 0) {
                Files.createLink(sub.resolve("h-link"), src.resolve("d" + (d - 1)).resolve("f148"));
            }
            Files.write(sub.resolve("large.bin"), bytes(rnd, FileWriters.MAX_FILE + 5000)); // written inline
            Files.write(sub.resolve("sparse"), new byte[3 * 4096 + 5]);
            Files.setLastModifiedTime(sub, FileTime.fromMillis(1_500_000_000_000L + d));
        }
        Files.setLastModifiedTime(src, FileTime.fromMillis(1_400_000_000_000L));
        return src;
    }

    @Test
    void anyNumberOfWritersRestoresTheSameTree() throws Exception {
        Path src = tree();
        List<String> warnings = new ArrayList<>();
        byte[] archive = archive(src, warnings);
        for (int writers : new int[] {0, 1, 3, 8}) {
            Path out = dir.resolve("out" + writers);
            try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(archive))) {
                new TreeExtractor(TreeExtractor.Options.defaults(), warnings::add).writers(writers).extract(d, out);
            }
            assertArrayEquals(archive, archive(out, warnings), writers + " writers");
            for (int i = 0; i < 12; i++) {
                Path sub = out.resolve("d" + i);
                assertEquals(1_500_000_000_000L + i, Files.getLastModifiedTime(sub).toMillis(), "mtime of " + sub);
                assertEquals(Files.getAttribute(sub.resolve("f149"), "unix:ino"), Files.getAttribute(sub.resolve("g-link"), "unix:ino"));
                assertArrayEquals(Files.readAllBytes(src.resolve("d" + i).resolve("f149")), Files.readAllBytes(sub.resolve("g-link")));
            }
            assertEquals(1_400_000_000_000L, Files.getLastModifiedTime(out).toMillis());
        }
        assertEquals(List.of(), warnings);
    }

    @Test
    void theEarliestFailingFileIsReportedAndTheFilesBeforeItAreComplete() throws Exception {
        Path src = tree();
        byte[] archive = archive(src, new ArrayList<>());
        String[] messages = new String[2];
        for (int writers : new int[] {0, 3}) {
            Path out = dir.resolve("fail" + writers);
            // files in the way (no --overwrite): creating them fails on whichever thread writes them
            Files.createDirectories(out.resolve("d3"));
            Files.createDirectories(out.resolve("d7"));
            Files.writeString(out.resolve("d3/f100"), "in the way");
            Files.writeString(out.resolve("d7/f010"), "in the way too");
            IOException e = assertThrows(IOException.class, () -> {
                try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(archive))) {
                    new TreeExtractor(TreeExtractor.Options.defaults(), w -> {}).writers(writers).extract(d, out);
                }
            });
            messages[writers == 0 ? 0 : 1] = e.getMessage().replace(out.toString(), "OUT");
            assertTrue(e.getMessage().contains("d3/f100"), e.getMessage());
            assertEquals("in the way", Files.readString(out.resolve("d3/f100")));
            for (int i = 0; i < 100; i++) { // every file before the failing one is there, complete
                String name = String.format("d3/f%03d", i);
                assertArrayEquals(Files.readAllBytes(src.resolve(name)), Files.readAllBytes(out.resolve(name)), name);
            }
            assertArrayEquals(Files.readAllBytes(src.resolve("d2/large.bin")), Files.readAllBytes(out.resolve("d2/large.bin")));
        }
        assertEquals(messages[0], messages[1], "the same report with and without writer threads");
    }

    private static byte[] archive(Path root, List<String> warnings) throws Exception {
        return TrickyTreeRoundTripTest.archive(root, warnings);
    }

    private static byte[] bytes(Random rnd, int n) {
        return TrickyTreeRoundTripTest.bytes(rnd, n);
    }

    @Test
    void theWritersPropertyIsANumberFrom0To64() {
        assertEquals(0, TreeExtractor.writersFrom(null));
        assertEquals(0, TreeExtractor.writersFrom(" "));
        assertEquals(3, TreeExtractor.writersFrom("3"));
        assertEquals(64, TreeExtractor.writersFrom("64"));
        for (String bad : new String[] {"abc", "-1", "65", "100000", "99999999999", "2.5"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TreeExtractor.writersFrom(bad), bad);
            assertEquals("system property jpbs.extract.writers: expected a number of writer threads from 0 to 64, got '" + bad + "'",
                    e.getMessage());
        }
    }
}
