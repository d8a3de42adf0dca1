package org.jpbs.cli;

import static org.jpbs.cli.CliEndToEndTest.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input gives exit code != 0, exactly one line {@code jpbs: error: ...} naming the file or
 * parameter, and leaves the datastore without a new snapshot and the target without files.
 */
class CliBadInputTest {
    static final long T1 = 1_700_000_000L;

    /** One datastore for the class (creating the 65536 chunk directories takes seconds). */
    @TempDir(factory = FastTempDirs.class)
    static Path shared;

    static Path repo;
    static Path img;
    static Path conf;
    static String snap;

    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    CliRunner cli;
    List<String> before;

    @BeforeAll
    static void backUpOnce() throws IOException {
        repo = shared.resolve("ds");
        img = shared.resolve("disk.img");
        Files.write(img, CliEndToEndTest.seededImage(13));
        conf = shared.resolve("vm.conf");
        Files.writeString(conf, "memory: 512\n");
        CliRunner.Result r = new CliRunner(shared.resolve("home"), Map.of()).run("backup", "-q", "--repository",
                repo.toString(), "--backup-type", "vm", "--backup-id", "100", "--backup-time", Long.toString(T1),
                "disk.img:" + img, "qemu-server.conf:" + conf);
        assertEquals(0, r.exit(), r.all());
        snap = "vm/100/" + BackupSnapshotRef.formatTime(T1);
    }

    @AfterAll
    static void deleteDatastore() throws IOException {
        FastTempDirs.deleteTree(repo);
    }

    @BeforeEach
    void setUp() throws IOException {
        cli = new CliRunner(tmp.resolve("home"), Map.of());
        before = CliRunner.snapshots(repo);
    }

    /** Runs a failing command and checks exit code, the single error line, and the datastore. */
    private void fails(int exit, String mustContain, String... args) throws IOException {
        CliRunner.Result r = cli.run(args);
        assertEquals(exit, r.exit(), r.all());
        if (!"-".equals(args[args.length - 1])) {
            assertEquals("", r.out(), r.all()); // (restoring to stdout streams in order: a prefix may be out)
        }
        String[] lines = r.err().split("\n");
        assertEquals(1, lines.length, "one line: " + r.err());
        assertTrue(lines[0].startsWith("jpbs: error: "), r.err());
        assertTrue(lines[0].contains(mustContain), "'" + mustContain + "' in: " + r.err());
        assertEquals(before, CliRunner.snapshots(repo), "no new snapshot");
        assertEquals(List.of(), CliRunner.tempEntries(repo), "no temporary snapshot dirs");
    }

    private String[] backup(String... archives) {
        String[] head = {"backup", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id", "100"};
        String[] all = new String[head.length + archives.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(archives, 0, all, head.length, archives.length);
        return all;
    }

    @Test
    void badBackupArguments() throws IOException {
        Path missing = tmp.resolve("nope.img");
        fails(1, missing.toString(), backup("disk.img:" + missing));
        fails(1, tmp + " is a directory", backup("disk.img:" + tmp));
        fails(1, "is not a regular file or block device", backup("disk.img:/dev/null"));
        fails(2, "a/b.img", backup("a/b.img:" + img));
        fails(2, "../x.img", backup("../x.img:" + img));
        fails(2, "'a..img'", backup("a..img:" + img));
        fails(2, "missing ':'", backup("disk.img"));
        fails(2, "archive name must not be empty", backup(":" + img));
        fails(2, "empty path", backup("disk.img:"));
        fails(2, "index.json.blob", backup("index.json:" + conf));
        fails(2, "given twice", backup("disk.img:" + img, "disk.img:" + img));
        fails(1, tmp + " is a directory", backup("disk.img:" + img, "x.conf:" + tmp));
        fails(1, "archive 'root.pxar': " + img + " is not a directory", backup("root.pxar:" + img));
        fails(1, "archive 'root.pxar': " + missing + ": no such file or directory", backup("root.pxar:" + missing));
        fails(2, "only NAME.pxar makes a dynamic index", backup("root.didx:" + tmp));
        fails(2, "use NAME.img for an image", backup("x.fidx:" + img));
        fails(2, "invalid archive name 'r/t.pxar.didx'", backup("r/t.pxar:" + tmp));
        fails(2, "unknown backup type 'xx'", "backup", "--repository", repo.toString(), "--backup-type", "xx",
                "disk.img:" + img);
        fails(2, "invalid backup id 'a b'", "backup", "--repository", repo.toString(), "--backup-id", "a b",
                "disk.img:" + img);
        fails(2, "--workers", "backup", "--repository", repo.toString(), "--workers", "0", "disk.img:" + img);
        fails(1, "--backup-time", backup("--backup-time", Long.toString(T1 - 10), "disk.img:" + img));
        fails(2, "--ns", "backup", "--repository", repo.toString(), "--ns", "a//b", "disk.img:" + img);
        fails(1, "set PBS_PASSWORD", "backup", "--repository", "root@pam@host:store", "disk.img:" + img); // a server, but no password
        fails(2, "ARCHIVE", "backup", "--repository", repo.toString());
        fails(2, "--workers", "backup", "--repository", repo.toString(), "--workers", "many", "disk.img:" + img);
        fails(2, "--bogus", "backup", "--bogus", "disk.img:" + img);
        assertFalse(Files.exists(tmp.resolve("home")), "the default datastore was not touched");
    }

    /** Issue 12 item 11: a malformed GROUP is a usage error (exit 2); {@code verify -q} prints no ok line. */
    @Test
    void badGroupArgumentsAreUsageErrorsAndQuietVerifyPrintsNoOkLine() throws IOException {
        fails(2, "invalid backup group '../vm/100'", "prune", "--repository", repo.toString(), "../vm/100", "--keep-last", "1");
        fails(2, "unknown backup type '..'", "prune", "--repository", repo.toString(), "../vm", "--keep-last", "1");
        fails(2, "unknown backup type '..'", "verify", "--repository", repo.toString(), "../vm");
        String group = snap.substring(0, snap.lastIndexOf('/'));
        fails(2, "--keep-last must be at least 1, got -1 (see 'jpbs prune --help')", "prune", "--repository", repo.toString(),
                group, "--keep-last", "-1");
        fails(2, "--keep-daily must be at least 1, got 0", "prune", "--repository", repo.toString(), group, "--keep-daily", "0");
        fails(2, "invalid backup group '../vm/100'", "snapshot", "list", "--repository", repo.toString(), "../vm/100");
        CliRunner.Result r = cli.run("verify", "-q", "--repository", repo.toString(), snap);
        assertEquals(0, r.exit(), r.all());
        assertEquals("", r.out(), "-q: no ok line");
        assertEquals("", r.err(), "-q: no summary");
        r = cli.run("verify", "--repository", repo.toString(), snap);
        assertEquals(0, r.exit(), r.all());
        assertEquals(snap + ": ok\n", r.out());
    }

    /** Issue 12 items 6 and 11 through {@code jpbs restore}: the user's look-alike files stay; a symlink TARGET is followed. */
    @Test
    void restoreKeepsUsersLookalikeFilesAndFollowsASymlinkTarget() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("out"));
        Path keep1 = Files.writeString(dir.resolve("disk.img.tmp-keepme"), "mine");
        Path keep2 = Files.writeString(dir.resolve("disk.img.tmp-2024-01-01-backup"), "mine too");
        CliRunner.Result r = cli.run("restore", "-q", "--repository", repo.toString(), snap, "disk.img", dir.resolve("disk.img").toString());
        assertEquals(0, r.exit(), r.all());
        assertEquals("mine", Files.readString(keep1));
        assertEquals("mine too", Files.readString(keep2));
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(img), Files.readAllBytes(dir.resolve("disk.img"))));

        Path real = Files.writeString(dir.resolve("real.img"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.img"), Path.of("real.img"));
        r = cli.run("restore", "-q", "--repository", repo.toString(), snap, "disk.img", link.toString());
        assertEquals(0, r.exit(), r.all());
        assertTrue(Files.isSymbolicLink(link), "the link is kept");
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(img), Files.readAllBytes(real)), "its target got the data");
    }

    /**
     * A target that runs out of space, or a directory the caller cannot write: the one error line
     * names TARGET (was a bare "No space left on device", or the name of the temporary file).
     */
    @Test
    void restoreErrorsWritingTheTargetNameIt() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/full")), "/dev/full absent");
        fails(1, "TARGET /dev/full: no space left on device", "restore", "-q", "--repository", repo.toString(), snap,
                "disk.img", "/dev/full");
        fails(1, "TARGET /dev/full: no space left on device", "restore", "-q", "--repository", repo.toString(), snap,
                "qemu-server.conf", "/dev/full");
    }

    @Test
    void badRestoreArguments() throws IOException {
        Path out = tmp.resolve("out.img");
        fails(ExitCodes.NOT_FOUND, "archive 'nothing.img' is not in snapshot", "restore", "--repository", repo.toString(), snap, "nothing.img", out.toString());
        fails(ExitCodes.NOT_FOUND, "vm/100/2023-11-14T22:13:21Z", "restore", "--repository", repo.toString(), "vm/100/2023-11-14T22:13:21Z", "disk.img", out.toString());
        fails(ExitCodes.NOT_FOUND, "no finished snapshot in group vm/101", "restore", "--repository", repo.toString(), "vm/101", "disk.img", out.toString());
        fails(2, "invalid snapshot 'vm'", "restore", "--repository", repo.toString(), "vm", "disk.img", out.toString());
        fails(2, "unknown backup type 'xx'", "restore", "--repository", repo.toString(), "xx/1", "disk.img", out.toString());
        fails(2, "a/b.img", "restore", "--repository", repo.toString(), snap, "a/b.img", out.toString());
        fails(1, tmp + " is a directory", "restore", "--repository", repo.toString(), snap, "disk.img", tmp.toString());
        fails(1, "does not exist", "restore", "--repository", repo.toString(), snap, "disk.img", tmp.resolve("no/dir/x").toString());
        fails(1, tmp.resolve("nods").toString(), "restore", "--repository", tmp.resolve("nods").toString(), snap, "disk.img", out.toString());
        fails(1, "not a datastore", "restore", "--repository", tmp.toString(), snap, "disk.img", out.toString());
        fails(2, "--fetch-workers", "restore", "--repository", repo.toString(), "--fetch-workers", "0", snap, "disk.img", out.toString());
        fails(2, "TARGET", "restore", "--repository", repo.toString(), snap, "disk.img");
        // an environment variable standing for an option: the error names the variable
        String[] restore = {"restore", "--repository", repo.toString(), snap, "disk.img", out.toString()};
        cli = new CliRunner(tmp.resolve("home"), Map.of("PBS_RESTORE_FETCH_CONCURRENCY", "0"));
        fails(2, "jpbs: error: PBS_RESTORE_FETCH_CONCURRENCY must be at least 1, got 0 (stands for --fetch-concurrency)", restore);
        cli = new CliRunner(tmp.resolve("home"), Map.of("PBS_RESTORE_MAX_THREADS", "-3"));
        fails(2, "jpbs: error: PBS_RESTORE_MAX_THREADS must be at least 1, got -3 (stands for --fetch-workers)", restore);
        cli = new CliRunner(tmp.resolve("home"), Map.of("PBS_RESTORE_MAX_THREADS", "many"));
        fails(2, "PBS_RESTORE_MAX_THREADS: not a number: 'many'", restore);
        cli = new CliRunner(tmp.resolve("home"), Map.of("PBS_RESTORE_MAX_THREADS", "0"));
        fails(2, "--fetch-workers must be at least 1, got 0", "restore", "--fetch-workers", "0", "--repository",
                repo.toString(), snap, "disk.img", out.toString()); // the option wins over the variable
        assertFalse(Files.exists(out));
        noTempFiles();
    }

    @Test
    void corruptChunkIndexAndBlobFailTheRestoreNamingThem() throws IOException {
        Path snapDir = repo.resolve(snap);
        Path out = tmp.resolve("out.img");
        FixedIndex idx = FixedIndex.open(snapDir.resolve("disk.img.fidx"));

        // a chunk whose content no longer matches its digest (rewritten as another valid blob)
        Digest victim = idx.digest(2);
        Path chunk = repo.resolve(".chunks").resolve(victim.prefix()).resolve(victim.hex());
        byte[] saved = Files.readAllBytes(chunk);
        Digest other = idx.digest(0);
        Files.write(chunk, Files.readAllBytes(repo.resolve(".chunks").resolve(other.prefix()).resolve(other.hex())));
        fails(ExitCodes.CORRUPT, victim.hex(), "restore", "--repository", repo.toString(), snap, "disk.img", out.toString());
        // a flipped bit in the chunk file (CRC)
        byte[] flipped = saved.clone();
        flipped[flipped.length - 3] ^= 0x10;
        Files.write(chunk, flipped);
        fails(ExitCodes.CORRUPT, victim.hex(), "restore", "--repository", repo.toString(), "--sparse", snap, "disk.img", out.toString());
        fails(ExitCodes.CORRUPT, victim.hex(), "restore", "--repository", repo.toString(), snap, "disk.img", "-");
        // a missing chunk
        Files.delete(chunk);
        fails(ExitCodes.CORRUPT, victim.hex(), "restore", "--repository", repo.toString(), snap, "disk.img", out.toString());
        Files.write(chunk, saved);
        assertFalse(Files.exists(out));

        // a corrupted index: one digest byte changed -> csum mismatch against the manifest
        Path fidx = snapDir.resolve("disk.img.fidx");
        byte[] idxBytes = Files.readAllBytes(fidx);
        idxBytes[4096 + 5] ^= 1;
        Files.write(fidx, idxBytes);
        fails(ExitCodes.CORRUPT, "disk.img.fidx", "restore", "--repository", repo.toString(), snap, "disk.img", out.toString());
        idxBytes[4096 + 5] ^= 1;
        Files.write(fidx, idxBytes);

        // a corrupted blob
        Path blob = snapDir.resolve("qemu-server.conf.blob");
        byte[] blobBytes = Files.readAllBytes(blob);
        blobBytes[blobBytes.length - 1] ^= 1;
        Files.write(blob, blobBytes);
        fails(ExitCodes.CORRUPT, "qemu-server.conf.blob", "restore", "--repository", repo.toString(), snap, "qemu-server.conf",
                tmp.resolve("c.out").toString());
        assertFalse(Files.exists(tmp.resolve("c.out")));
        noTempFiles();
        blobBytes[blobBytes.length - 1] ^= 1;
        Files.write(blob, blobBytes);

        // everything repaired: restores work again
        CliRunner.Result ok = cli.run("restore", "-q", "--repository", repo.toString(), snap, "disk.img", out.toString());
        assertEquals(0, ok.exit(), ok.all());
        ok = cli.run("restore", "-q", "--repository", repo.toString(), snap, "qemu-server.conf", "-");
        assertEquals("memory: 512\n", ok.out(), ok.all());
    }

    @Test
    void corruptPreviousIndexOnlyWarnsAndBacksUpEverything() throws IOException {
        String[] args = {"backup", "--repository", repo.toString(), "--backup-type", "vm", "--backup-id", "200", "disk.img:" + img};
        assertEquals(0, cli.run(args).exit());
        Path fidx = repo.resolve(cli.run("snapshot", "list", "--repository", repo.toString(), "vm/200").out().lines()
                .filter(l -> l.startsWith("vm/200/")).findFirst().orElseThrow().split(" ")[0]).resolve("disk.img.fidx");
        byte[] b = Files.readAllBytes(fidx);
        b[4096] ^= 1;
        Files.write(fidx, b);
        CliRunner.Result r = cli.run(args);
        assertEquals(0, r.exit(), r.all());
        assertTrue(r.err().contains("jpbs: warning: cannot use disk.img.fidx of the previous snapshot"), r.err());
        assertEquals(0, count(r.err(), "new\\s+(\\d+) chunk"), "compressed again, all already stored: " + r.err());
        assertEquals(3, count(r.err(), "reused\\s+(\\d+) chunk"), r.err());
        assertEquals(before.size() + 2, CliRunner.snapshots(repo).size());
    }

    private void noTempFiles() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().contains(".tmp-")), "no temporary restore files");
        }
    }
}
