package org.jpbs.datastore.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTimesTest {
    @TempDir
    Path dir;

    private static BasicFileAttributes attrs(Path p) throws Exception {
        return Files.readAttributes(p, BasicFileAttributes.class);
    }

    @Test
    void nativeBindingIsAvailable() {
        // surefire runs with --enable-native-access=ALL-UNNAMED, so the FFM path must work here
        assertTrue(FileTimes.nativeAvailable(), "FFM binding to libc failed; only the fallback would be tested");
    }

    @Test
    void touchAtimeMovesAtimeAndKeepsMtime() throws Exception {
        Path f = Files.writeString(dir.resolve("f"), "x");
        Instant old = Instant.parse("2020-01-02T03:04:05.123456789Z");
        Instant mtime = Instant.parse("2021-05-06T07:08:09.5Z");
        Files.setLastModifiedTime(f, FileTime.from(mtime));
        FileTimes.setAtime(f, old);
        assertEquals(old, attrs(f).lastAccessTime().toInstant(), "setAtime sets the exact atime");
        assertEquals(mtime, attrs(f).lastModifiedTime().toInstant(), "setAtime keeps mtime");

        Instant before = Instant.now().minusSeconds(5);
        FileTimes.touchAtime(f);
        Instant atime = attrs(f).lastAccessTime().toInstant();
        assertTrue(atime.isAfter(before), "atime moved to now: " + atime);
        assertEquals(mtime, attrs(f).lastModifiedTime().toInstant(), "touchAtime keeps mtime");
    }

    @Test
    void pureJavaFallbackKeepsMtime() throws Exception {
        Path a = Files.writeString(dir.resolve("a"), "a");
        Path b = Files.writeString(dir.resolve("b"), "b");
        Instant mtime = Instant.parse("2021-05-06T07:08:09Z");
        Files.setLastModifiedTime(a, FileTime.from(mtime));
        Files.setLastModifiedTime(b, FileTime.from(mtime));
        FileTimes.setAtime(b, Instant.parse("2020-01-01T00:00:00Z"));
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(javaBin, "--illegal-native-access=deny", "-cp", System.getProperty("java.class.path"),
                FileTimesFallbackMain.class.getName(), a.toString(), b.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.contains("native=false") && out.contains("done"), out);
        assertEquals(Instant.ofEpochSecond(1_000_000_000L), attrs(a).lastAccessTime().toInstant());
        assertEquals(mtime, attrs(a).lastModifiedTime().toInstant());
        assertTrue(attrs(b).lastAccessTime().toInstant().isAfter(Instant.parse("2024-01-01T00:00:00Z")));
        assertEquals(mtime, attrs(b).lastModifiedTime().toInstant());
    }

    @Test
    void missingFileGivesNoSuchFile() {
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> FileTimes.touchAtime(dir.resolve("nope")));
        assertTrue(e.getMessage().contains("nope"), e.getMessage());
    }

    @Test
    void relativePathsAreResolved() throws Exception {
        Path f = Files.writeString(dir.resolve("rel"), "x");
        Path rel = Path.of("").toAbsolutePath().relativize(f);
        assertFalse(rel.isAbsolute());
        FileTimes.setAtime(rel, Instant.ofEpochSecond(1_000_000_000L));
        assertEquals(Instant.ofEpochSecond(1_000_000_000L), attrs(f).lastAccessTime().toInstant());
    }

    @Test
    void atomicReplaceLeavesNoTempFiles() throws Exception {
        Path target = dir.resolve("target.bin");
        AtomicFiles.replaceFile(target, new byte[] {1, 2, 3}, true);
        AtomicFiles.replaceFile(target, new byte[] {4, 5}, false);
        assertEquals(2, Files.size(target));
        try (var s = Files.list(dir)) {
            assertEquals(1, s.filter(p -> p.getFileName().toString().startsWith("target")).count());
        }
        FsSync.syncFilesystem(dir); // best effort, must not throw
    }
}
