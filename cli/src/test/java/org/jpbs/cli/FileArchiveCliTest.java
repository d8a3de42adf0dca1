package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File archives end to end ({@code docs/pxar.md#backup-and-restore}): a seeded tree with
 * owners, modes, times, xattrs, symlinks, hardlinks, a fifo, a sparse file and excluded paths is
 * backed up with an image and a blob into one snapshot, to a local datastore and to a
 * {@code jpbs serve} on loopback, restored and compared; the second backup of the unchanged tree
 * stores/uploads no chunk; the catalog is dumped and searched; bad input fails in one line.
 * The trees live below the build directory (the test tmpdir is tmpfs, which lacks xattrs);
 * needs root (owners) and ext4/xfs/btrfs.
 */
class FileArchiveCliTest {
    static final long T1 = 1_700_000_000L;
    static final long T2 = 1_700_003_600L;
    static final BackupGroupRef GROUP = new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "files");

    @TempDir(factory = FastTempDirs.class)
    static Path shared;

    static Path base;
    static Path src;
    static Path img;
    static Path conf;

    @BeforeAll
    static void build() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root (owners)");
        Path parent = Files.createDirectories(Path.of("target", "pxar-cli-trees")).toAbsolutePath();
        base = Files.createTempDirectory(parent, "t");
        String fs = Files.getFileStore(base).type();
        Assumptions.assumeTrue(List.of("ext4", "xfs", "btrfs").contains(fs), "needs ext4/xfs/btrfs, have " + fs);
        src = Files.createDirectories(base.resolve("src"));
        seedTree(src, new Random(17));
        img = base.resolve("disk.img");
        byte[] image = new byte[3 * 1024 * 1024];
        new Random(3).nextBytes(image);
        Files.write(img, image);
        conf = base.resolve("vm.conf");
        Files.writeString(conf, "memory: 512\n");
    }

    @AfterAll
    static void cleanUp() throws IOException, InterruptedException {
        if (base != null) {
            new ProcessBuilder("rm", "-rf", base.toString()).inheritIO().start().waitFor();
        }
        FastTempDirs.deleteTree(shared); // three datastores: JUnit's own cleanup of 3 x 65536 directories is slow
    }

    /** About 10 MiB in ~300 entries: every kind the test can make without special tools, plus excluded paths. */
    static void seedTree(Path root, Random r) throws Exception {
        FileTime t = FileTime.from(1_600_000_000L, TimeUnit.SECONDS);
        for (int d = 0; d < 6; d++) {
            Path dir = Files.createDirectories(root.resolve("dir" + d).resolve("sub" + (d % 2)));
            for (int f = 0; f < 40; f++) {
                Path p = dir.resolve("file-" + f + (f % 7 == 0 ? ".bin" : ".txt"));
                byte[] data = new byte[f == 3 ? 5 * 1024 * 1024 / (d + 1) : r.nextInt(20_000)];
                r.nextBytes(data);
                Files.write(p, data);
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(f % 2 == 0 ? "rw-r-----" : "rwxr-xr-x"));
                Files.setAttribute(p, "unix:uid", 1000 + f % 3);
                Files.setAttribute(p, "unix:gid", 2000 + f % 5);
                Files.setLastModifiedTime(p, FileTime.from(1_600_000_000_123_456_789L + f * 1_000_000_007L, TimeUnit.NANOSECONDS));
            }
            UserDefinedFileAttributeView x = Files.getFileAttributeView(dir.resolve("file-1.txt"), UserDefinedFileAttributeView.class);
            x.write("jpbs.test", ByteBuffer.wrap(("value " + d).getBytes(StandardCharsets.UTF_8)));
            Files.write(dir.resolve("skip.tmp"), new byte[] {1, 2, 3}); // --exclude '*.tmp'
        }
        Files.writeString(root.resolve("empty"), "");
        Files.createSymbolicLink(root.resolve("link-to-dir"), Path.of("dir0/sub0"));
        Files.createSymbolicLink(root.resolve("dangling"), Path.of("no/such/target"));
        Files.createLink(root.resolve("dir1/hardlink"), root.resolve("dir0/sub0/file-2.txt"));
        // a sparse file: 1 MiB of data after a 8 MiB hole
        try (var ch = java.nio.channels.FileChannel.open(root.resolve("sparse"), java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            byte[] d = new byte[1 << 20];
            r.nextBytes(d);
            ch.write(ByteBuffer.wrap(d), 8L << 20);
        }
        Process p = new ProcessBuilder("mkfifo", root.resolve("fifo").toString()).start();
        assertEquals(0, p.waitFor());
        // .pxarexclude: cache/ directories anywhere
        Files.createDirectories(root.resolve("dir2/cache"));
        Files.writeString(root.resolve("dir2/cache/junk"), "junk");
        Files.writeString(root.resolve(".pxarexclude"), "cache/\n");
        try (Stream<Path> s = Files.walk(root)) {
            for (Path dir : s.filter(Files::isDirectory).sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.setLastModifiedTime(dir, t);
            }
        }
    }

    private static CliRunner cli(Path home, Map<String, String> env) {
        return new CliRunner(home, env);
    }

    private static String snap(long time) {
        return "host/files/" + BackupSnapshotRef.formatTime(time);
    }

    @Test
    void localDatastoreBackupRestoreIncrementalCatalog() throws Exception {
        Path tmp = Files.createTempDirectory(base, "w"); // a disk file system (xattrs)
        Path repo = shared.resolve("repo"); // tmpfs: its 65536 chunk directories go fast
        assertEquals(0, cli(tmp, Map.of()).run("datastore", "create", "files", repo.toString()).exit());
        CliRunner cli = cli(tmp, Map.of("PBS_REPOSITORY", repo.toString()));
        CliRunner.Result b = backup(cli, T1);
        assertEquals(0, b.exit(), b.all());
        assertTrue(b.err().contains("root.pxar.didx: "), b.err());
        assertEquals(List.of("root.pxar.didx", "sub.pxar.didx", "disk.img.fidx", "vm.conf.blob", "catalog.pcat1.didx"),
                manifest(cli, T1).files().stream().map(f -> f.filename()).toList());
        long chunks = chunkFiles(repo);

        check(cli, tmp, T1);

        // unchanged tree: nothing new in the chunk store, every chunk reused
        CliRunner.Result b2 = backup(cli, T2);
        assertEquals(0, b2.exit(), b2.all());
        assertEquals(chunks, chunkFiles(repo), "second backup of the unchanged tree stored no chunk");
        assertTrue(b2.err().contains("root.pxar.didx: ") && b2.err().matches("(?s).*root\\.pxar\\.didx: .*\\n  new +0 chunks.*"),
                b2.err());
        assertEquals(manifest(cli, T1).file("root.pxar.didx").orElseThrow().csum(),
                manifest(cli, T2).file("root.pxar.didx").orElseThrow().csum(), "the same archive, the same index");

        // restore into an existing tree: refused per file unless --overwrite
        Path again = tmp.resolve("again");
        assertEquals(0, cli.run("restore", "-q", snap(T2), "root.pxar", again.toString()).exit());
        CliRunner.Result exists = cli.run("restore", "-q", snap(T2), "root.pxar", again.toString());
        assertEquals(1, exists.exit(), exists.all());
        assertEquals(1, exists.err().strip().lines().count(), exists.err());
        CliRunner.Result over = cli.run("restore", "-q", "--overwrite", snap(T2), "root.pxar", again.toString());
        assertEquals(0, over.exit(), over.all());
        assertSameTree(src, again);
    }

    @Test
    void serverBackupRestoreIncrementalCatalog() throws Exception {
        Path tmp = Files.createTempDirectory(base, "w"); // a disk file system (xattrs)
        try (NetTestServer server = NetTestServer.startWithToken(shared.resolve("server"))) {
            CliRunner cli = cli(tmp, server.env());
            CliRunner.Result b = backup(cli, T1);
            assertEquals(0, b.exit(), b.all());
            assertTrue(server.uploadedChunks(new BackupSnapshotRef(GROUP, T1)) > 3);
            check(cli, tmp, T1);
            CliRunner.Result b2 = backup(cli, T2);
            assertEquals(0, b2.exit(), b2.all());
            assertEquals(0, server.uploadedChunks(new BackupSnapshotRef(GROUP, T2)),
                    "the unchanged tree uploads no chunk");
            // the stored didx decodes as the server keeps it
            DynamicIndex idx = DynamicIndex.open(server.storePath.resolve(snap(T2)).resolve("root.pxar.didx"));
            assertTrue(idx.chunkCount() >= 2, idx.toString());
        } finally {
            FastTempDirs.deleteTree(shared.resolve("server"));
        }
    }

    @Test
    void encryptedFileArchiveRestoresOnlyWithTheKey() throws Exception {
        Path tmp = Files.createTempDirectory(base, "w"); // a disk file system (xattrs)
        Path repo = shared.resolve("repo-enc"); // tmpfs: its 65536 chunk directories go fast
        assertEquals(0, cli(tmp, Map.of()).run("datastore", "create", "enc", repo.toString()).exit());
        Map<String, String> env = new HashMap<>(Map.of("PBS_REPOSITORY", repo.toString()));
        Path key = tmp.resolve("key.json");
        CliRunner.Result k = cli(tmp, env).run("key", "create", "--kdf", "none", key.toString());
        assertEquals(0, k.exit(), k.all());
        CliRunner cli = cli(tmp, env);
        CliRunner.Result b = cli.run("backup", "-q", "--keyfile", key.toString(), "--backup-type", "host", "--backup-id",
                "files", "--backup-time", Long.toString(T1), "--exclude", "*.tmp", "root.pxar:" + src);
        assertEquals(0, b.exit(), b.all());
        BackupManifest m = manifest(cli, T1);
        assertEquals(CryptMode.ENCRYPT, m.file("root.pxar.didx").orElseThrow().cryptMode());
        assertEquals(CryptMode.ENCRYPT, m.file("catalog.pcat1.didx").orElseThrow().cryptMode());
        CliRunner.Result noKey = cli.run("restore", snap(T1), "root.pxar", tmp.resolve("x").toString());
        assertEquals(1, noKey.exit(), noKey.all());
        Path out = tmp.resolve("out");
        CliRunner.Result r = cli.run("restore", "-q", "--keyfile", key.toString(), snap(T1), "root.pxar", out.toString());
        assertEquals(0, r.exit(), r.all());
        assertSameTree(src, out);
        CliRunner.Result dump = cli.run("catalog", "dump", "--keyfile", key.toString(), snap(T1));
        assertEquals(0, dump.exit(), dump.all());
        assertTrue(dump.out().contains("f \"./root.pxar.didx/empty\" 0 "), dump.out());
    }

    @Test
    void badInputFailsInOneLine() throws Exception {
        Path tmp = Files.createTempDirectory(base, "w"); // a disk file system (xattrs)
        Path repo = shared.resolve("repo-bad"); // tmpfs: its 65536 chunk directories go fast
        assertEquals(0, cli(tmp, Map.of()).run("datastore", "create", "bad", repo.toString()).exit());
        CliRunner cli = cli(tmp, Map.of("PBS_REPOSITORY", repo.toString()));
        String[][] cases = {
            {"1", "is not a directory", "backup", "root.pxar:" + conf},
            {"1", "no such file or directory", "backup", "root.pxar:" + base.resolve("missing")},
            {"2", "only NAME.pxar makes a dynamic index", "backup", "root.didx:" + src},
            {"2", "--entries-max must be at least 1", "backup", "--entries-max", "0", "root.pxar:" + src},
            {"2", "--exclude '': empty pattern", "backup", "--exclude", "", "root.pxar:" + src},
            {"2", "--include-dev", "backup", "--include-dev", conf.toString(), "root.pxar:" + src},
        };
        for (String[] c : cases) {
            CliRunner.Result r = cli.run(java.util.Arrays.copyOfRange(c, 2, c.length));
            assertEquals(Integer.parseInt(c[0]), r.exit(), r.all());
            assertTrue(r.err().contains(c[1]), r.all());
            assertEquals(1, r.err().strip().lines().count(), r.all());
        }
        assertEquals(0, cli.run("backup", "-q", "--backup-type", "host", "--backup-id", "files", "--backup-time",
                Long.toString(T1), "disk.img:" + img).exit());
        CliRunner.Result pattern = cli.run("restore", "--pattern", "x", snap(T1), "disk.img", tmp.resolve("d").toString());
        assertEquals(2, pattern.exit(), pattern.all());
        CliRunner.Result noCatalog = cli.run("catalog", "dump", snap(T1));
        assertEquals(1, noCatalog.exit(), noCatalog.all());
        assertTrue(noCatalog.err().contains("has no catalog"), noCatalog.err());
    }

    private static CliRunner.Result backup(CliRunner cli, long time) {
        return cli.run("backup", "--backup-type", "host", "--backup-id", "files", "--backup-time", Long.toString(time),
                "--exclude", "*.tmp", "root.pxar:" + src, "sub.pxar:" + src.resolve("dir0"), "disk.img:" + img,
                "vm.conf:" + conf);
    }

    private static BackupManifest manifest(CliRunner cli, long time) throws IOException {
        CliRunner.Result r = cli.run("restore", "-q", snap(time), "index.json", "-");
        assertEquals(0, r.exit(), r.all());
        return BackupManifest.parse(r.raw(), "index.json");
    }

    /** Restores, the raw stream, a partial restore, the catalog: all from snapshot {@code time}. */
    private static void check(CliRunner cli, Path tmp, long time) throws Exception {
        Path out = tmp.resolve("restored-" + time);
        CliRunner.Result r = cli.run("restore", snap(time), "root.pxar", out.toString());
        assertEquals(0, r.exit(), r.all());
        assertSameTree(src, out);
        assertEquals("*.tmp\n", Files.readString(out.resolve(".pxarexclude-cli")));
        Path sub = tmp.resolve("sub-" + time);
        assertEquals(0, cli.run("restore", "-q", snap(time), "sub.pxar", sub.toString()).exit());
        assertSameTree(src.resolve("dir0"), sub);

        // the raw pxar stream to standard output decodes
        CliRunner.Result raw = cli.run("restore", "-q", snap(time), "root.pxar", "-");
        assertEquals(0, raw.exit(), raw.all());
        PxarDecoder dec = new PxarDecoder(new ByteArrayInputStream(raw.raw()));
        int entries = 0;
        for (PxarEntry e; (e = dec.next()) != null; ) {
            entries++;
        }
        assertTrue(entries > 250, "entries " + entries);

        // a partial restore with --pattern
        Path part = tmp.resolve("part-" + time);
        CliRunner.Result p = cli.run("restore", "-q", "--pattern", "/dir1/sub1/*.bin", snap(time), "root.pxar", part.toString());
        assertEquals(0, p.exit(), p.all());
        try (Stream<Path> s = Files.walk(part)) {
            List<String> files = s.filter(Files::isRegularFile).map(x -> part.relativize(x).toString()).sorted().toList();
            assertEquals(List.of("dir1/sub1/file-0.bin", "dir1/sub1/file-14.bin", "dir1/sub1/file-21.bin",
                    "dir1/sub1/file-28.bin", "dir1/sub1/file-35.bin", "dir1/sub1/file-7.bin"), files);
        }

        CliRunner.Result dump = cli.run("catalog", "dump", snap(time));
        assertEquals(0, dump.exit(), dump.all());
        List<String> lines = dump.out().lines().toList();
        assertEquals("d \"./root.pxar.didx\"", lines.get(0));
        assertTrue(lines.contains("d \"./sub.pxar.didx\""), dump.out());
        assertTrue(lines.contains("l \"./root.pxar.didx/link-to-dir\""), dump.out());
        assertTrue(lines.contains("h \"./root.pxar.didx/dir1/hardlink\""), dump.out());
        assertTrue(lines.contains("p \"./root.pxar.didx/fifo\""), dump.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("f \"./root.pxar.didx/sparse\" 9437184 ")), dump.out());
        assertFalse(dump.out().contains(".tmp\"") || dump.out().contains("cache/junk"), dump.out());
        CliRunner.Result find = cli.run("catalog", "find", snap(time), "/root.pxar.didx/dir3/**/file-3?.txt");
        assertEquals(0, find.exit(), find.all());
        List<String> want = new ArrayList<>();
        for (int f : new int[] {30, 31, 32, 33, 34, 36, 37, 38, 39}) { // 35 is a .bin
            want.add("\"/root.pxar.didx/dir3/sub1/file-" + f + ".txt\"");
        }
        assertEquals(want, find.out().lines().toList());
    }

    /** The restored tree equals the source; on failure lists only the entries that differ. */
    static void assertSameTree(Path source, Path restored) throws IOException {
        Map<String, String> want = describe(source, true);
        Map<String, String> got = describe(restored, false);
        List<String> diff = new ArrayList<>();
        java.util.Set<String> keys = new java.util.TreeSet<>(want.keySet());
        keys.addAll(got.keySet());
        for (String k : keys) {
            if (!java.util.Objects.equals(want.get(k), got.get(k))) {
                diff.add("'" + k + "': want " + want.get(k) + ", got " + got.get(k));
            }
        }
        assertEquals(List.of(), diff, restored.toString());
    }

    private static long chunkFiles(Path repo) throws IOException {
        try (Stream<Path> s = Files.walk(repo.resolve(".chunks"))) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    /**
     * Every entry below {@code root}: type, mode, owner, mtime (ns), size, content hash, symlink
     * target, user xattrs, and which earlier path it is a hardlink of. {@code source}: leaves out
     * what the backup excludes; the restored tree's {@code .pxarexclude-cli} is left out too.
     */
    static Map<String, String> describe(Path root, boolean source) throws IOException {
        Map<String, String> out = new TreeMap<>();
        Map<String, Object> inodes = new HashMap<>();
        Map<Object, java.util.TreeSet<String>> links = new HashMap<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a) throws IOException {
                if (source && dir.getFileName().toString().equals("cache")) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                add(dir);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes a) throws IOException {
                String name = file.getFileName().toString();
                if (source && name.endsWith(".tmp") || !source && file.getParent().equals(root) && name.equals(".pxarexclude-cli")) {
                    return FileVisitResult.CONTINUE;
                }
                add(file);
                return FileVisitResult.CONTINUE;
            }

            private void add(Path p) throws IOException {
                Map<String, Object> a = Files.readAttributes(p, "unix:*", LinkOption.NOFOLLOW_LINKS);
                StringBuilder d = new StringBuilder();
                int mode = (Integer) a.get("mode");
                d.append(Integer.toOctalString(mode)).append(' ').append(a.get("uid")).append(':').append(a.get("gid"));
                if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && !p.equals(root)) {
                    d.append(" mtime=").append(((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS));
                } else if (!p.equals(root)) {
                    d.append(" mtime=").append(((FileTime) a.get("lastModifiedTime")).to(TimeUnit.SECONDS));
                }
                String rel = root.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    d.append(" -> ").append(Files.readSymbolicLink(p));
                } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    d.append(" size=").append(a.get("size")).append(" sha=").append(sha(p));
                    links.computeIfAbsent(a.get("ino"), k -> new java.util.TreeSet<>()).add(rel);
                    inodes.put(rel, a.get("ino"));
                    UserDefinedFileAttributeView x = Files.getFileAttributeView(p, UserDefinedFileAttributeView.class);
                    List<String> names = new ArrayList<>(x.list());
                    names.sort(null);
                    for (String n : names) {
                        ByteBuffer buf = ByteBuffer.allocate(x.size(n));
                        x.read(n, buf);
                        d.append(" xattr ").append(n).append('=').append(new String(buf.array(), StandardCharsets.UTF_8));
                    }
                }
                out.put(rel, d.toString());
            }
        });
        for (Map.Entry<String, Object> e : inodes.entrySet()) { // hardlinks: every name of the inode, sorted
            if (links.get(e.getValue()).size() > 1) {
                out.put(e.getKey(), out.get(e.getKey()) + " links=" + links.get(e.getValue()));
            }
        }
        return out;
    }

    private static String sha(Path p) throws IOException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(Files.readAllBytes(p));
            return HexFormat.of().formatHex(md.digest()).substring(0, 16);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
