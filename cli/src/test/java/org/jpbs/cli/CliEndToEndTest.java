package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The main job end to end through {@link Main#run(CliContext, String...)} with a temporary datastore. */
class CliEndToEndTest {
    static final int MIB = 1024 * 1024;
    static final long T1 = 1_700_000_000L;
    static final long T2 = 1_700_003_600L;

    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    Path repo;
    Path img;
    Path conf;
    byte[] image;
    CliRunner cli;

    @BeforeEach
    void setUp() throws IOException {
        repo = tmp.resolve("ds");
        cli = new CliRunner(tmp.resolve("home"), Map.of());
        image = seededImage(20);
        img = tmp.resolve("disk.img");
        Files.write(img, image);
        conf = tmp.resolve("100.conf");
        Files.writeString(conf, "boot: order=scsi0\nmemory: 2048\nscsi0: local:100/vm-100-disk-0.raw\n");
    }

    @AfterEach
    void deleteDatastores() throws IOException {
        FastTempDirs.deleteTree(repo);
        FastTempDirs.deleteTree(tmp.resolve("home"));
    }

    /** {@code mib} MiB: chunk 0 random, 1 zero, 2 text, then random. */
    static byte[] seededImage(int mib) {
        byte[] b = new byte[mib * MIB];
        Random r = new Random(42);
        byte[] rnd = new byte[4 * MIB];
        r.nextBytes(rnd);
        System.arraycopy(rnd, 0, b, 0, rnd.length);
        byte[] text = "jpbs backs up disk images in 4 MiB chunks\n".repeat(100_000).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(text, 0, b, 8 * MIB, 4 * MIB);
        for (int off = 12 * MIB; off < b.length; off += rnd.length) {
            r.nextBytes(rnd);
            System.arraycopy(rnd, 0, b, off, Math.min(rnd.length, b.length - off));
        }
        return b;
    }

    CliRunner.Result backup(long time, String... archives) {
        List<String> args = new java.util.ArrayList<>(List.of("backup", "--repository", repo.toString(),
                "--backup-type", "vm", "--backup-id", "100", "--backup-time", Long.toString(time)));
        args.addAll(List.of(archives));
        return cli.run(args.toArray(String[]::new));
    }

    static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    @Test
    void backupRestoreIncrementalListAndFiles() throws IOException {
        CliRunner.Result c = cli.run("datastore", "create", "--sync-level", "none", repo.toString());
        assertEquals(0, c.exit(), c.all());
        assertTrue(Files.isDirectory(repo.resolve(".chunks/ffff")));
        CliRunner.Result again = cli.run("datastore", "create", repo.toString());
        assertEquals(1, again.exit(), again.all());
        assertTrue(again.err().startsWith("jpbs: error: ") && again.err().contains(repo.toString()), again.err());
        CliRunner.Result b1 = backup(T1, "disk.img:" + img, "qemu-server.conf:" + conf);
        assertEquals(0, b1.exit(), b1.all());
        assertTrue(b1.err().contains("disk.img.fidx: 20.0 MiB (20971520 bytes) in 5 chunks"), b1.err());
        assertEquals(4, count(b1.err(), "new\\s+(\\d+) chunk"), b1.err());
        assertEquals(1, count(b1.err(), "zero\\s+(\\d+) chunk"), b1.err());
        String snap1 = "vm/100/" + BackupSnapshotRef.formatTime(T1);

        Path out = tmp.resolve("restored.img");
        CliRunner.Result r = cli.run("restore", "--repository", repo.toString(), snap1, "disk.img", out.toString());
        assertEquals(0, r.exit(), r.all());
        assertEquals(Digest.sha256(image), Digest.sha256(Files.readAllBytes(out)));
        Path sparse = tmp.resolve("sparse.img");
        r = cli.run("restore", "-q", "--sparse", "--fetch-workers", "3", "--repository", repo.toString(), "vm/100",
                "disk.img.fidx", sparse.toString());
        assertEquals(0, r.exit(), r.all());
        assertEquals("", r.err());
        assertArrayEquals(image, Files.readAllBytes(sparse));
        Path confOut = tmp.resolve("conf.out");
        r = cli.run("restore", "-q", "--repository", repo.toString(), snap1, "qemu-server.conf", confOut.toString());
        assertEquals(0, r.exit(), r.all());
        assertArrayEquals(Files.readAllBytes(conf), Files.readAllBytes(confOut));
        r = cli.run("restore", "-q", "--repository", repo.toString(), snap1, "qemu-server.conf.blob", "-");
        assertEquals(0, r.exit(), r.all());
        assertArrayEquals(Files.readAllBytes(conf), r.raw());
        r = cli.run("restore", "-q", "--repository", repo.toString(), snap1, "disk.img", "-");
        assertEquals(0, r.exit(), r.all());
        assertArrayEquals(image, r.raw());
        try (Stream<Path> s = Files.list(tmp)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().contains(".tmp-")), "no temporary files left");
        }

        // second backup: one changed byte in chunk 4 -> 1 new, 3 reused, 1 zero
        long chunksBefore = CliRunner.chunkCount(repo);
        image[16 * MIB + 17] ^= 1;
        Files.write(img, image);
        CliRunner.Result b2 = backup(T2, "disk.img:" + img, "qemu-server.conf:" + conf);
        assertEquals(0, b2.exit(), b2.all());
        assertEquals(1, count(b2.err(), "new\\s+(\\d+) chunk"), b2.err());
        assertEquals(3, count(b2.err(), "reused\\s+(\\d+) chunk"), b2.err());
        assertEquals(1, count(b2.err(), "zero\\s+(\\d+) chunk"), b2.err());
        assertEquals(chunksBefore + 1, CliRunner.chunkCount(repo));
        String snap2 = "vm/100/" + BackupSnapshotRef.formatTime(T2);
        FixedIndex i1 = FixedIndex.open(repo.resolve(snap1).resolve("disk.img.fidx"));
        FixedIndex i2 = FixedIndex.open(repo.resolve(snap2).resolve("disk.img.fidx"));
        for (int i = 0; i < 5; i++) {
            assertEquals(i != 4, i1.digest(i).equals(i2.digest(i)), "chunk " + i);
        }
        r = cli.run("restore", "-q", "--repository", repo.toString(), "vm/100", "disk.img", out.toString());
        assertEquals(0, r.exit(), r.all());
        assertArrayEquals(image, Files.readAllBytes(out), "latest snapshot replaces the existing file");

        CliRunner.Result list = cli.run("snapshot", "list", "--repository", repo.toString());
        assertEquals(0, list.exit(), list.all());
        assertTrue(list.out().contains(snap1) && list.out().contains(snap2), list.out());
        assertTrue(list.out().contains("disk.img index.json qemu-server.conf"), list.out());
        assertTrue(list.out().startsWith("snapshot"), list.out());
        CliRunner.Result group = cli.run("snapshot", "list", "--repository", repo.toString(), "vm/100");
        assertEquals(list.out(), group.out());
        CliRunner.Result files = cli.run("snapshot", "files", "--repository", repo.toString(), snap1);
        assertEquals(0, files.exit(), files.all());
        assertTrue(files.out().contains("disk.img.fidx") && files.out().contains("20971520")
                && files.out().contains("qemu-server.conf.blob") && files.out().contains(i1.computeCsum().hex()), files.out());
    }

    @Test
    void namespacesProgressQuietAndDefaults() throws IOException {
        CliRunner.Result b = cli.run("backup", "--repository", repo.toString(), "--ns", "prod/web", "--backup-id", "h1",
                "--progress", "--workers", "1", "disk.img:" + img);
        assertEquals(0, b.exit(), b.all());
        assertTrue(b.err().contains("100.0% 20.0 MiB of 20.0 MiB") && b.err().contains("MiB/s"), b.err());
        CliRunner.Result list = cli.run("snapshot", "list", "--repository", repo.toString());
        assertTrue(list.out().startsWith("ns "), list.out());
        assertTrue(list.out().contains("prod/web  host/h1/"), list.out());
        CliRunner.Result nsList = cli.run("snapshot", "list", "--repository", repo.toString(), "--ns", "prod/web");
        assertTrue(nsList.out().startsWith("snapshot") && nsList.out().contains("host/h1/"), nsList.out());
        CliRunner.Result rootList = cli.run("snapshot", "list", "--repository", repo.toString(), "--ns", "");
        assertFalse(rootList.out().contains("host/h1/"), rootList.out());
        Path out = tmp.resolve("ns.img");
        CliRunner.Result r = cli.run("restore", "-q", "--repository", repo.toString(), "--ns", "prod/web", "host/h1",
                "disk.img", out.toString());
        assertEquals(0, r.exit(), r.all());
        assertArrayEquals(image, Files.readAllBytes(out));

        CliRunner.Result quiet = cli.run("backup", "-q", "--repository", repo.toString(), "--backup-id", "h1", "disk.img:" + img);
        assertEquals(0, quiet.exit(), quiet.all());
        assertEquals("", quiet.err());
        assertEquals("", quiet.out());

        // $PBS_REPOSITORY as a path, then the default under the home directory
        int before = CliRunner.snapshots(repo).size();
        CliRunner envCli = new CliRunner(tmp.resolve("home"), Map.of("PBS_REPOSITORY", repo.toString()));
        assertEquals(0, envCli.run("backup", "-q", "--backup-id", "e", "c.conf:" + conf).exit());
        assertEquals(before + 1, CliRunner.snapshots(repo).size());
        // a bare datastore name is, as for proxmox-backup-client, a server on localhost (never ignored)
        CliRunner.Result bare = new CliRunner(tmp.resolve("home"), Map.of("PBS_REPOSITORY", "store"))
                .run("backup", "-q", "c.conf:" + conf);
        assertEquals(1, bare.exit(), bare.all());
        assertTrue(bare.err().contains("root@pam on localhost:8007"), bare.all());
        assertFalse(Files.exists(tmp.resolve("home/.local/share/jpbs/datastore")), bare.all());
        // without --repository and PBS_REPOSITORY: the default location
        CliRunner homeCli = new CliRunner(tmp.resolve("home"), Map.of());
        CliRunner.Result h = homeCli.run("backup", "-q", "c.conf:" + conf);
        assertEquals(0, h.exit(), h.all());
        assertEquals(1, CliRunner.snapshots(tmp.resolve("home/.local/share/jpbs/datastore")).size());
        assertTrue(homeCli.run("snapshot", "list").out().contains("host/"));
    }

    @Test
    void helpAndVersion() {
        for (String[] args : new String[][] {{"--help"}, {"backup", "--help"}, {"restore", "--help"},
                {"datastore", "create", "--help"}, {"snapshot", "list", "--help"}, {"snapshot", "files", "--help"}}) {
            CliRunner.Result r = cli.run(args);
            assertEquals(0, r.exit(), r.all());
            assertTrue(r.out().startsWith("Usage: jpbs"), r.out());
        }
        assertTrue(cli.run("backup", "--help").out().contains("--backup-type"));
        assertTrue(cli.run("restore", "--help").out().contains("--sparse"));
        CliRunner.Result v = cli.run("--version");
        assertEquals(0, v.exit());
        assertTrue(v.out().startsWith("jpbs "), v.out());
        CliRunner.Result none = cli.run();
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("Usage: jpbs"), none.err());
    }
}
