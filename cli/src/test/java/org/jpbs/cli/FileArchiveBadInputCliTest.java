package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jpbs.core.api.BackupSnapshotRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's mistakes with file archives ({@code README.md}, "restore", "Exit codes"): restoring a
 * file archive over an existing regular file is refused (exit 2) and leaves the file as it was
 * (it was silently replaced by the raw pxar stream; the PBS client refuses too: it extracts into
 * a directory only); a missing archive, or a group without snapshot, in a local datastore is
 * "not found" (exit 3) for {@code restore} and {@code catalog dump}. Each is one error line.
 */
class FileArchiveBadInputCliTest {
    static final long T1 = 1_700_000_000L;

    @TempDir(factory = FastTempDirs.class)
    static Path shared;
    static Path repo;
    static String snap;

    @BeforeAll
    static void backUpOnce() throws IOException {
        repo = shared.resolve("ds");
        Path src = shared.resolve("src");
        Files.createDirectories(src.resolve("sub"));
        Files.writeString(src.resolve("a.txt"), "hello\n");
        Files.writeString(src.resolve("sub/b.txt"), "b\n");
        CliRunner.Result r = new CliRunner(shared.resolve("home"), Map.of()).run("backup", "-q", "--repository",
                repo.toString(), "--backup-id", "files", "--backup-time", Long.toString(T1), "root.pxar:" + src);
        assertEquals(0, r.exit(), r.all());
        snap = "host/files/" + BackupSnapshotRef.formatTime(T1);
    }

    @AfterAll
    static void deleteDatastore() throws IOException {
        FastTempDirs.deleteTree(repo);
    }

    private static CliRunner.Result fails(int exit, String mustContain, String... args) {
        CliRunner.Result r = new CliRunner(shared.resolve("home"), Map.of()).run(args);
        assertEquals(exit, r.exit(), r.all());
        String[] lines = r.err().split("\n");
        assertEquals(1, lines.length, "one line: " + r.err());
        assertTrue(lines[0].startsWith("jpbs: error: ") && lines[0].contains(mustContain), "'" + mustContain + "' in: " + r.err());
        return r;
    }

    @Test
    void aFileArchiveIsNotWrittenOverAnExistingFile() throws IOException {
        Path file = shared.resolve("notes.txt");
        Files.writeString(file, "my notes\n");
        fails(2, "TARGET " + file + " is an existing file", "restore", "--repository", repo.toString(), snap, "root.pxar",
                file.toString());
        fails(2, "TARGET " + file + " is an existing file", "restore", "--repository", repo.toString(), snap,
                "root.pxar.didx", file.toString());
        assertEquals("my notes\n", Files.readString(file), "the file is as it was");
        assertEquals(List.of("notes.txt"), Files.list(shared).map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith("notes")).toList(), "no temporary file left");
        // an existing file inside an existing directory: refused without --overwrite, kept
        Path dir = shared.resolve("into");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("a.txt"), "mine\n");
        fails(1, "a.txt", "restore", "-q", "--repository", repo.toString(), snap, "root.pxar", dir.toString());
        assertEquals("mine\n", Files.readString(dir.resolve("a.txt")));
        // the raw stream is still there for whoever asks for it: "-"
        CliRunner.Result raw = new CliRunner(shared.resolve("home"), Map.of()).run("restore", "-q", "--repository",
                repo.toString(), snap, "root.pxar", "-");
        assertEquals(0, raw.exit(), raw.err());
        assertTrue(raw.raw().length > 0);
    }

    @Test
    void aMissingArchiveOrAnEmptyGroupIsNotFound() throws IOException {
        Path out = shared.resolve("out");
        fails(ExitCodes.NOT_FOUND, "archive 'nope.pxar' is not in snapshot", "restore", "--repository",
                repo.toString(), snap, "nope.pxar", out.toString());
        fails(ExitCodes.NOT_FOUND, "no finished snapshot in group host/nobody", "restore", "--repository", repo.toString(),
                "host/nobody", "root.pxar", out.toString());
        fails(ExitCodes.NOT_FOUND, "no finished snapshot in group host/nobody", "catalog", "dump", "--repository",
                repo.toString(), "host/nobody");
        assertTrue(!Files.exists(out), "nothing made");
    }

    /**
     * A --pattern that matches nothing restores nothing: the PBS client then ends silently with an
     * empty directory; jpbs reports it as "not found" (exit 3) in one line naming the patterns and
     * the archive, and leaves no directory it made. An existing TARGET directory stays.
     */
    @Test
    void aPatternThatMatchesNothingIsReportedAndLeavesNothing() throws IOException {
        Path out = shared.resolve("nothing-matched");
        CliRunner.Result r = fails(ExitCodes.NOT_FOUND, "--pattern '/nope/**' '*.md' matched nothing in root.pxar: nothing restored",
                "restore", "--repository", repo.toString(), snap, "root.pxar", out.toString(), "--pattern", "/nope/**",
                "--pattern", "*.md");
        assertTrue(!Files.exists(out), "no directory left: " + r.all());
        // parents the restore had to make for TARGET are not left either
        Path parent = shared.resolve("nm-parent");
        fails(ExitCodes.NOT_FOUND, "matched nothing in root.pxar", "restore", "--repository", repo.toString(), snap,
                "root.pxar", parent.resolve("deeper/target").toString(), "--pattern", "/nope/**");
        assertTrue(!Files.exists(parent), "no parent directory left");
        Path existing = Files.createDirectories(shared.resolve("existing-target"));
        fails(ExitCodes.NOT_FOUND, "matched nothing in root.pxar", "restore", "--repository", repo.toString(), snap,
                "root.pxar", existing.toString(), "--pattern", "!*.txt");
        assertTrue(Files.isDirectory(existing), "an existing TARGET stays");
        // one matching pattern is enough: the others may match nothing
        Path some = shared.resolve("some-matched");
        CliRunner.Result ok = new CliRunner(shared.resolve("home"), Map.of()).run("restore", "-q", "--repository",
                repo.toString(), snap, "root.pxar", some.toString(), "--pattern", "/nope/**", "--pattern", "b.txt");
        assertEquals(0, ok.exit(), ok.all());
        assertEquals("b\n", Files.readString(some.resolve("sub/b.txt")));
        assertTrue(!Files.exists(some.resolve("a.txt")));
    }
}
