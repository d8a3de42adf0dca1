package org.jpbs.client.pxar.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.core.pxar.pattern.MatchEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --exclude} patterns, {@code .pxarexclude} files and {@code lost+found} skipping as
 * the PBS client applies them: excluded entries are absent, the command-line patterns are
 * stored as the root's last entry {@code .pxarexclude-cli} (mode 0600, time 0).
 */
class ExcludeArchiveTest {
    @Test
    void excludedEntriesAreLeftOut(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectory(dir.resolve("root"));
        Files.createDirectories(root.resolve("a/cache"));
        Files.createDirectories(root.resolve("lost+found"));
        Files.createDirectories(root.resolve("sub/deeper"));
        Files.writeString(root.resolve("a/cache/x"), "x");
        Files.writeString(root.resolve("a/keep.log"), "k");
        Files.writeString(root.resolve("a/drop.log"), "d");
        Files.writeString(root.resolve("sub/x"), "x");
        Files.writeString(root.resolve("sub/deeper/x"), "x");
        Files.writeString(root.resolve("sub/y.tmp"), "y");
        Files.writeString(root.resolve("sub/.pxarexclude"), "# comment\n  /x  \n*.tmp\n");
        Files.writeString(root.resolve("top.tmp"), "t");
        List<MatchEntry> cli = List.of(MatchEntry.parse(b("*.log"), false, false),
                MatchEntry.parse(b("!keep.log"), false, false), MatchEntry.parse(b("cache/"), false, false));
        TreeArchiver.Options opts = new TreeArchiver.Options(TreeArchiver.DEFAULT_ENTRIES_MAX, null, true, cli);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> warnings = new ArrayList<>();
        new TreeArchiver(opts, null, warnings::add).archive(root, out);
        assertEquals(List.of(), warnings);
        List<String> paths = new ArrayList<>();
        String cliContent = null;
        try (PxarDecoder d = new PxarDecoder(new ByteArrayInputStream(out.toByteArray()))) {
            PxarEntry e;
            while ((e = d.next()) != null) {
                if (e.kind() == PxarEntry.Kind.DIRECTORY_END) {
                    continue;
                }
                paths.add(e.displayPath());
                if (e.displayPath().equals("/.pxarexclude-cli")) {
                    cliContent = new String(d.contents().readAllBytes(), StandardCharsets.UTF_8);
                    assertEquals(0100600, e.metadata().stat().mode());
                    assertEquals(0, e.metadata().stat().mtimeSecs());
                }
            }
        }
        assertEquals(List.of("/", "/a", "/a/keep.log", "/sub", "/sub/.pxarexclude", "/sub/deeper", "/sub/deeper/x",
                "/top.tmp", "/.pxarexclude-cli"), paths);
        assertEquals("*.log\n!keep.log\ncache/\nlost+found\n", cliContent);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
