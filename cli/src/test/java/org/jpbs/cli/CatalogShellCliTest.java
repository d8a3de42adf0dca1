package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.jpbs.core.api.BackupSnapshotRef;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jpbs catalog shell} with commands piped into standard input
 * ({@code docs/pxar.md#catalog-shell}), on a local datastore and through {@code jpbs serve}:
 * navigation, find, stat, selection and a restore of the selected entries; bad arguments exit 2.
 */
class CatalogShellCliTest {
    static final long T = 1_700_000_000L;
    static final String SNAP = "host/files/" + BackupSnapshotRef.formatTime(T);

    @TempDir
    static Path tmp;
    static Path src;
    static byte[] big;

    @BeforeAll
    static void tree() throws Exception {
        src = Files.createDirectories(tmp.resolve("src"));
        Files.writeString(src.resolve("a.txt"), "alpha");
        Files.createDirectories(src.resolve("docs/deep"));
        Files.writeString(src.resolve("docs/readme.md"), "# read me\n");
        big = new byte[700_000];
        new Random(9).nextBytes(big);
        Files.write(src.resolve("docs/deep/x.bin"), big);
        Files.createSymbolicLink(src.resolve("link"), Path.of("docs/readme.md"));
        Files.createDirectories(src.resolve("many"));
        for (int i = 0; i < 200; i++) {
            Files.writeString(src.resolve("many/n" + i + ".txt"), "n" + i);
        }
    }

    static CliRunner.Result shell(CliRunner cli, String commands, String... args) {
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream(commands.getBytes(StandardCharsets.UTF_8)));
            String[] all = new String[2 + args.length];
            all[0] = "catalog";
            all[1] = "shell";
            System.arraycopy(args, 0, all, 2, args.length);
            return cli.run(all);
        } finally {
            System.setIn(saved);
        }
    }

    static void backupAndBrowse(CliRunner cli, Path work) throws Exception {
        CliRunner.Result b = cli.run("backup", "-q", "--backup-type", "host", "--backup-id", "files", "--backup-time",
                Long.toString(T), "root.pxar:" + src);
        assertEquals(0, b.exit(), b.all());
        Path out = work.resolve("restored");
        CliRunner.Result r = shell(cli, "ls\ncd docs\npwd\nls\nfind *.md\nstat /a.txt\nselect deep/x.bin\nselect ../link\n"
                + "list-selected\nrestore-selected " + out + "\ncd nowhere\nexit\n", SNAP, "root.pxar");
        assertEquals(0, r.exit(), r.all());
        assertTrue(r.out().startsWith(String.join("\n", "a.txt", "docs", "link", "many", "\"/docs\"", "deep", "readme.md",
                "/docs/readme.md", "  File: /a.txt", "  Size: 5             Type: file", "")), r.all());
        assertTrue(r.out().contains(String.join("\n", "added path: \"/docs/deep/x.bin\"", "added path: \"/link\"",
                "/docs/deep/x.bin", "/link", "")), r.all());
        assertEquals("Error: no such file or directory: \"nowhere\"\n", r.err(), r.all());
        assertArrayEquals(big, Files.readAllBytes(out.resolve("docs/deep/x.bin")));
        assertEquals("docs/readme.md", Files.readSymbolicLink(out.resolve("link")).toString());
        assertFalse(Files.exists(out.resolve("a.txt")));
        assertFalse(Files.exists(out.resolve("many")));
        Path whole = work.resolve("whole");
        CliRunner.Result w = shell(cli, "restore " + whole + " many/n1*\n", SNAP, "root.pxar");
        assertEquals(0, w.exit(), w.all());
        try (var s = Files.list(whole.resolve("many"))) {
            assertEquals(111, s.count()); // n1, n10..n19, n100..n199
        }
        assertEquals("n15", Files.readString(whole.resolve("many/n15.txt")));
    }

    @Test
    void localDatastore() throws Exception {
        Path repo = tmp.resolve("repo");
        assertEquals(0, new CliRunner(tmp, Map.of()).run("datastore", "create", "shell", repo.toString()).exit());
        CliRunner cli = new CliRunner(tmp, Map.of("PBS_REPOSITORY", repo.toString()));
        backupAndBrowse(cli, Files.createDirectories(tmp.resolve("local")));
        CliRunner.Result bad = shell(cli, "", SNAP, "disk.img");
        assertEquals(2, bad.exit(), bad.all());
        assertTrue(bad.err().contains("not a file archive"), bad.err());
        // as restore and mount: not found (exit 3), one line naming the archive as typed, never the internal file
        CliRunner.Result missing = shell(cli, "", SNAP, "other.pxar");
        assertEquals(3, missing.exit(), missing.all());
        assertTrue(missing.err().startsWith("jpbs: error: archive 'other.pxar' is not in snapshot " + SNAP + " (it has: "),
                missing.all());
        assertFalse(missing.err().contains("other.mpxar.didx") || missing.err().contains("other.pxar.didx"), missing.all());
        assertEquals(1, missing.err().strip().lines().count(), missing.all());
        CliRunner.Result missingSplit = shell(cli, "", SNAP, "other.mpxar");
        assertEquals(3, missingSplit.exit(), missingSplit.all());
        assertTrue(missingSplit.err().contains("archive 'other.mpxar' is not in snapshot"), missingSplit.all());
        CliRunner.Result noArchive = shell(cli, "", SNAP);
        assertEquals(2, noArchive.exit(), noArchive.all());
    }

    @Test
    void throughServe() throws Exception {
        try (NetTestServer server = NetTestServer.startWithToken(tmp.resolve("server"))) {
            backupAndBrowse(new CliRunner(tmp, server.env()), Files.createDirectories(tmp.resolve("remote")));
        }
    }
}
