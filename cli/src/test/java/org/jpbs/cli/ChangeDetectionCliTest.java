package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.manifest.BackupManifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jpbs backup --change-detection-mode data|metadata} ({@code docs/pxar.md#metadata-change-detection}):
 * split archives written, restored equal from a local datastore and through {@code jpbs serve};
 * the second metadata-mode backup of an unchanged tree reads no file (the archiver's counter of
 * files and bytes read, printed by the command) and stores or uploads no payload chunk; a file
 * changed in between is read again and restored with its new contents. Needs root and a disk
 * file system, as {@link FileArchiveCliTest}, whose seeded tree it uses.
 */
class ChangeDetectionCliTest {
    static final long T1 = 1_700_000_000L;
    static final long T2 = 1_700_003_600L;
    static final long T3 = 1_700_007_200L;
    static final BackupGroupRef GROUP = new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "files");
    private static final Pattern READ = Pattern.compile("root\\.pxar: (\\d+) files read \\(([^)]*)\\), (\\d+) unchanged files reused");

    @TempDir(factory = FastTempDirs.class)
    static Path shared;

    static Path base;

    @BeforeAll
    static void build() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root (owners)");
        Path parent = Files.createDirectories(Path.of("target", "pxar-cli-trees")).toAbsolutePath();
        base = Files.createTempDirectory(parent, "cd");
        String fs = Files.getFileStore(base).type();
        Assumptions.assumeTrue(List.of("ext4", "xfs", "btrfs").contains(fs), "needs ext4/xfs/btrfs, have " + fs);
    }

    @AfterAll
    static void cleanUp() throws IOException, InterruptedException {
        if (base != null) {
            new ProcessBuilder("rm", "-rf", base.toString()).inheritIO().start().waitFor();
        }
    }

    private static Path seed(String name, long seed) throws Exception {
        Path src = Files.createDirectories(base.resolve(name));
        FileArchiveCliTest.seedTree(src, new Random(seed));
        byte[] first = new byte[100];
        new Random(seed).nextBytes(first);
        Files.write(src.resolve("0-first"), first); // the first file's payload, after .pxarexclude
        Files.setLastModifiedTime(src.resolve("0-first"), FileTime.from(1_600_000_000L, TimeUnit.SECONDS));
        return src;
    }

    @Test
    void metadataModeTwiceReadsNothingLocally() throws Exception {
        Path src = seed("src-local", 31);
        Path tmp = Files.createTempDirectory(base, "w");
        Path repo = shared.resolve("repo");
        assertEquals(0, new CliRunner(tmp, Map.of()).run("datastore", "create", "cdmode", repo.toString()).exit());
        CliRunner cli = new CliRunner(tmp, Map.of("PBS_REPOSITORY", repo.toString()));

        CliRunner.Result b1 = backup(cli, "metadata", T1, src);
        assertEquals(0, b1.exit(), b1.all());
        assertTrue(b1.err().contains("no previous metadata archive to compare with"), b1.err());
        assertEquals(List.of("root.ppxar.didx", "root.mpxar.didx"),
                manifest(cli, T1).files().stream().map(f -> f.filename()).toList(), "split archives, no catalog");
        long[] first = counts(b1);
        assertTrue(first[0] > 200 && first[1] == 0, b1.err());
        long chunks = chunkFiles(repo);
        restoreEqual(cli, T1, "root.pxar", src, tmp);

        CliRunner.Result b2 = backup(cli, "metadata", T2, src);
        assertEquals(0, b2.exit(), b2.all());
        long[] second = counts(b2);
        assertEquals(0, second[0], "the unchanged tree is not read: " + b2.err());
        assertEquals(first[0], second[1], b2.err());
        // new in the payload index: only the start marker (cut off before the reused chunks) and the
        // last bytes (.pxarexclude-cli, the tail marker), a few dozen bytes
        assertTrue(b2.err().matches("(?s).*root\\.ppxar\\.didx: .*?\\n  new +[0-2] chunks? +\\d+ B,.*"), b2.err());
        // only the metadata stream may differ (reused files' goodbye items count no payload)
        assertTrue(chunkFiles(repo) - chunks <= 3, "new chunks " + (chunkFiles(repo) - chunks));
        restoreEqual(cli, T2, "root.mpxar", src, tmp);
        catalogFromMetadataArchive(cli, src);

        // a changed file (new contents, same size, new mtime) and a new file are read; the file
        // before the changed one shares its chunk (too much padding to reuse), everything after is reused
        Path changed = src.resolve("0-first");
        byte[] data = Files.readAllBytes(changed);
        data[0] ^= 1;
        Files.write(changed, data);
        Files.setLastModifiedTime(changed, FileTime.from(1_650_000_000L, TimeUnit.SECONDS));
        Files.writeString(src.resolve("zz-new"), "new\n");
        CliRunner.Result b3 = backup(cli, "metadata", T3, src);
        assertEquals(0, b3.exit(), b3.all());
        long[] third = counts(b3);
        assertEquals(3, third[0], "0-first, zz-new and .pxarexclude read: " + b3.err());
        assertEquals(first[0] - 2, third[1], b3.err());
        restoreEqual(cli, T3, "root.pxar", src, tmp);
    }

    @Test
    void dataModeAndMetadataModeThroughServer() throws Exception {
        Path src = seed("src-server", 37);
        Path tmp = Files.createTempDirectory(base, "w");
        try (NetTestServer server = NetTestServer.startWithToken(shared.resolve("server"))) {
            CliRunner cli = new CliRunner(tmp, server.env());
            CliRunner.Result b1 = backup(cli, "data", T1, src);
            assertEquals(0, b1.exit(), b1.all());
            long[] first = counts(b1);
            assertTrue(first[0] > 200 && first[1] == 0, b1.err());
            assertTrue(server.uploadedChunks(new BackupSnapshotRef(GROUP, T1)) > 3);
            restoreEqual(cli, T1, "root.pxar", src, tmp);

            // metadata mode against the data-mode snapshot: nothing read, only metadata chunks uploaded
            CliRunner.Result b2 = backup(cli, "metadata", T2, src);
            assertEquals(0, b2.exit(), b2.all());
            long[] second = counts(b2);
            assertEquals(0, second[0], b2.err());
            assertEquals(first[0], second[1], b2.err());
            assertTrue(server.uploadedChunks(new BackupSnapshotRef(GROUP, T2)) <= 3, b2.err());
            restoreEqual(cli, T2, "root.mpxar", src, tmp);
            CliRunner.Result find = cli.run("catalog", "find", snap(T2), "/root.mpxar.didx/dir1/hardlink");
            assertEquals(0, find.exit(), find.all());
            assertEquals("\"/root.mpxar.didx/dir1/hardlink\"\n", find.out());

            // the raw metadata stream is still a pxar stream with references
            CliRunner.Result raw = cli.run("restore", "-q", snap(T2), "root.mpxar", "-");
            assertEquals(0, raw.exit(), raw.all());
            assertTrue(raw.raw().length > 1000);
        } finally {
            FastTempDirs.deleteTree(shared.resolve("server"));
        }
    }

    @Test
    void encryptedMetadataModeReusesWithTheKey() throws Exception {
        Path src = Files.createDirectories(base.resolve("src-enc"));
        Random r = new Random(41);
        for (int i = 0; i < 30; i++) {
            byte[] data = new byte[r.nextInt(50_000)];
            r.nextBytes(data);
            Path f = Files.createDirectories(src.resolve("d" + i % 3)).resolve("f" + i);
            Files.write(f, data);
            Files.setLastModifiedTime(f, FileTime.from(1_600_000_000L + i, TimeUnit.SECONDS));
        }
        Path tmp = Files.createTempDirectory(base, "w");
        Path repo = shared.resolve("repo-enc");
        assertEquals(0, new CliRunner(tmp, Map.of()).run("datastore", "create", "cdenc", repo.toString()).exit());
        CliRunner cli = new CliRunner(tmp, Map.of("PBS_REPOSITORY", repo.toString()));
        Path key = tmp.resolve("key.json");
        assertEquals(0, cli.run("key", "create", "--kdf", "none", key.toString()).exit());
        for (long t : new long[] {T1, T2}) {
            CliRunner.Result b = cli.run("backup", "--keyfile", key.toString(), "--backup-type", "host", "--backup-id",
                    "files", "--backup-time", Long.toString(t), "--change-detection-mode", "metadata", "root.pxar:" + src);
            assertEquals(0, b.exit(), b.all());
            assertEquals(t == T1 ? 30 : 0, counts(b)[0], b.err());
        }
        assertEquals(1, cli.run("restore", "-q", snap(T2), "root.pxar", tmp.resolve("nokey").toString()).exit());
        Path out = tmp.resolve("restored-enc");
        CliRunner.Result r2 = cli.run("restore", "-q", "--keyfile", key.toString(), snap(T2), "root.pxar", out.toString());
        assertEquals(0, r2.exit(), r2.all());
        FileArchiveCliTest.assertSameTree(src, out);
    }

    @Test
    void badModeIsAUsageError() throws Exception {
        Path tmp = Files.createTempDirectory(base, "w");
        CliRunner.Result r = new CliRunner(tmp, Map.of("PBS_REPOSITORY", shared.resolve("none").toString()))
                .run("backup", "--change-detection-mode", "fast", "root.pxar:" + tmp);
        assertEquals(2, r.exit(), r.all());
        assertTrue(r.err().contains("--change-detection-mode: value 'fast' is not defined"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.all());
    }

    /**
     * A snapshot of split archives has no catalog: {@code catalog dump} and {@code find} list its
     * metadata archive instead (docs/pxar.md#catalog-of-split-archives), the same entries a legacy
     * backup's catalog lists for the tree.
     */
    private static void catalogFromMetadataArchive(CliRunner cli, Path src) {
        CliRunner.Result legacy = cli.run("backup", "-q", "--backup-type", "host", "--backup-id", "legacy",
                "--backup-time", Long.toString(T1), "--exclude", "*.tmp", "root.pxar:" + src);
        assertEquals(0, legacy.exit(), legacy.all());
        CliRunner.Result want = cli.run("catalog", "dump", "host/legacy/" + BackupSnapshotRef.formatTime(T1));
        assertEquals(0, want.exit(), want.all());
        CliRunner.Result dump = cli.run("catalog", "dump", snap(T2));
        assertEquals(0, dump.exit(), dump.all());
        assertTrue(dump.out().startsWith("d \"./root.mpxar.didx\"\n"), dump.out());
        assertEquals(want.out().replace("./root.pxar.didx", "./root.mpxar.didx"), dump.out());
        assertTrue(dump.out().lines().count() > 200, dump.out());
        CliRunner.Result find = cli.run("catalog", "find", snap(T2), "/root.mpxar.didx/dir3/**/file-3?.txt");
        assertEquals(0, find.exit(), find.all());
        List<String> found = find.out().lines().toList();
        assertEquals(9, found.size(), find.out());
        assertTrue(found.stream().allMatch(l -> l.startsWith("\"/root.mpxar.didx/dir3/")), find.out());
    }

    private static CliRunner.Result backup(CliRunner cli, String mode, long time, Path src) {
        return cli.run("backup", "--backup-type", "host", "--backup-id", "files", "--backup-time", Long.toString(time),
                "--change-detection-mode", mode, "--exclude", "*.tmp", "root.pxar:" + src);
    }

    /** Files read and files reused as the backup printed them. */
    private static long[] counts(CliRunner.Result r) {
        Matcher m = READ.matcher(r.err());
        assertTrue(m.find(), r.err());
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(3))};
    }

    private static void restoreEqual(CliRunner cli, long time, String archive, Path src, Path tmp) throws IOException {
        Path out = tmp.resolve("restored-" + time);
        CliRunner.Result r = cli.run("restore", "-q", snap(time), archive, out.toString());
        assertEquals(0, r.exit(), r.all());
        FileArchiveCliTest.assertSameTree(src, out);
    }

    private static String snap(long time) {
        return "host/files/" + BackupSnapshotRef.formatTime(time);
    }

    private static BackupManifest manifest(CliRunner cli, long time) throws IOException {
        CliRunner.Result r = cli.run("restore", "-q", snap(time), "index.json", "-");
        assertEquals(0, r.exit(), r.all());
        return BackupManifest.parse(r.raw(), "index.json");
    }

    private static long chunkFiles(Path repo) throws IOException {
        try (Stream<Path> s = Files.walk(repo.resolve(".chunks"))) {
            return s.filter(Files::isRegularFile).count();
        }
    }
}
