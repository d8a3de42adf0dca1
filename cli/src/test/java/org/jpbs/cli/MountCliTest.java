package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jpbs.cli.mount.Mounts;
import org.jpbs.core.api.BackupSnapshotRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jpbs mount} / {@code jpbs unmount} end to end ({@code docs/pxar.md#mount}): the seeded
 * tree of {@link FileArchiveCliTest} is backed up with an image, then its file archive is
 * mounted from a local datastore and through {@code jpbs serve} and the mounted tree compared
 * with the source (contents, modes, owners, times, symlinks, hardlinks, xattrs); the image
 * archive is mounted and its one file compared byte for byte (and through a read-only loop
 * device when losetup works); unmounting ({@code jpbs unmount}, {@code fusermount3 -u}) ends
 * the command and leaves no mount in {@code /proc/self/mounts}; bad input fails in one line.
 * Without {@code /dev/fuse} or libfuse3 the tests skip with a message, except under
 * {@code CI=true} (CI installs fuse3, {@code .ci/run}), where they fail.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class MountCliTest {
    static final long T1 = 1_700_000_000L;

    @TempDir(factory = FastTempDirs.class)
    static Path shared;

    static Path base;
    static Path src;
    static Path img;
    static byte[] image;

    @BeforeAll
    static void build() throws Exception {
        requireFuse();
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root (owners in the tree)");
        Path parent = Files.createDirectories(Path.of("target", "mount-cli-trees")).toAbsolutePath();
        base = Files.createTempDirectory(parent, "t");
        String fs = Files.getFileStore(base).type();
        Assumptions.assumeTrue(List.of("ext4", "xfs", "btrfs").contains(fs), "needs ext4/xfs/btrfs (xattrs), have " + fs);
        src = Files.createDirectories(base.resolve("src"));
        FileArchiveCliTest.seedTree(src, new Random(23));
        // 4 MiB random, 4 MiB of zeros (a zero chunk), then 3 MiB and 4 KiB: a short last chunk
        // (whole 512-byte sectors, so a loop device shows all of it)
        image = new byte[11 * 1024 * 1024 + 4096];
        Random r = new Random(5);
        byte[] part = new byte[4 * 1024 * 1024];
        r.nextBytes(part);
        System.arraycopy(part, 0, image, 0, part.length);
        r.nextBytes(part);
        System.arraycopy(part, 0, image, 8 * 1024 * 1024, image.length - 8 * 1024 * 1024);
        img = base.resolve("disk.img");
        Files.write(img, image);
    }

    /** Skips without /dev/fuse or libfuse3, with a message; fails instead under CI=true. */
    static void requireFuse() {
        String missing = null;
        if (!Files.exists(Path.of("/dev/fuse"))) {
            missing = "/dev/fuse";
        } else {
            try {
                Mounts.libfuse3();
            } catch (IOException e) {
                missing = "libfuse3.so.3";
            }
        }
        if (missing != null) {
            String msg = "mount tests need /dev/fuse and libfuse3 (apt-get install fuse3 libfuse3-3): " + missing + " not found";
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(msg);
            }
            Assumptions.abort(msg);
        }
    }

    @AfterAll
    static void cleanUp() throws IOException, InterruptedException {
        if (base != null) {
            new ProcessBuilder("rm", "-rf", base.toString()).inheritIO().start().waitFor();
        }
    }

    private static String snap() {
        return "host/files/" + BackupSnapshotRef.formatTime(T1);
    }

    private static void backup(CliRunner cli) {
        CliRunner.Result b = cli.run("backup", "-q", "--backup-type", "host", "--backup-id", "files", "--backup-time",
                Long.toString(T1), "--exclude", "*.tmp", "root.pxar:" + src, "disk.img:" + img);
        assertEquals(0, b.exit(), b.all());
    }

    /** A {@code jpbs mount} running in the background, mounted when this returns. */
    private static CompletableFuture<CliRunner.Result> mount(CliRunner cli, Path mnt, String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "mount";
        System.arraycopy(args, 0, all, 1, args.length);
        all[all.length - 1] = mnt.toString();
        CompletableFuture<CliRunner.Result> run = CompletableFuture.supplyAsync(() -> cli.run(all));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Mounts.isMounted(mnt.toRealPath())) {
            if (run.isDone()) {
                Assertions.fail("jpbs mount ended before mounting: " + run.get().all());
            }
            assertTrue(System.nanoTime() < deadline, "not mounted after 60 s");
            Thread.sleep(50);
        }
        return run;
    }

    /** Waits for the mount command to end after an unmount: exit 0, nothing left mounted. */
    private static void assertEnded(CompletableFuture<CliRunner.Result> run, Path mnt) throws Exception {
        CliRunner.Result r = run.get(30, TimeUnit.SECONDS);
        assertEquals(0, r.exit(), r.all());
        assertTrue(r.err().contains("mounted root.pxar.didx") || r.err().contains("mounted disk.img.fidx"), r.all());
        assertFalse(Mounts.isMounted(mnt.toRealPath()), "still mounted");
        assertFalse(Files.readString(Path.of("/proc/self/mounts")).contains(" " + mnt.toRealPath() + " "));
        try (var s = Files.list(mnt)) {
            assertEquals(0, s.count(), "the mount point is an empty directory again");
        }
    }

    /** Whatever a failed test left mounted is unmounted. */
    private static void forceUnmount(Path mnt) throws Exception {
        if (Files.isDirectory(mnt) && Mounts.isMounted(mnt.toRealPath())) {
            new ProcessBuilder("umount", "-l", mnt.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void fileArchiveFromALocalDatastoreShowsTheTree() throws Exception {
        Path tmp = Files.createTempDirectory(base, "w");
        Path repo = shared.resolve("repo");
        assertEquals(0, new CliRunner(tmp, Map.of()).run("datastore", "create", "files", repo.toString()).exit());
        CliRunner cli = new CliRunner(tmp, Map.of("PBS_REPOSITORY", repo.toString()));
        backup(cli);
        Path mnt = Files.createDirectories(tmp.resolve("mnt"));
        try {
            CompletableFuture<CliRunner.Result> run = mount(cli, mnt, snap(), "root.pxar");
            FileArchiveCliTest.assertSameTree(src, mnt);
            assertEquals("dir0/sub0", Files.readSymbolicLink(mnt.resolve("link-to-dir")).toString());
            assertEquals(Files.getAttribute(mnt.resolve("dir1/hardlink"), "unix:ino"),
                    Files.getAttribute(mnt.resolve("dir0/sub0/file-2.txt"), "unix:ino"), "a hardlink shares its inode");
            assertFalse(canWrite(mnt.resolve("empty")), "read-only");
            // a file read from the middle (random access through the goodbye tables and the chunk cache)
            byte[] whole = Files.readAllBytes(src.resolve("sparse"));
            try (var ch = java.nio.channels.FileChannel.open(mnt.resolve("sparse"))) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(100_000);
                ch.read(b, 8L * 1024 * 1024 + 12345);
                assertArrayEquals(Arrays.copyOfRange(whole, 8 * 1024 * 1024 + 12345, 8 * 1024 * 1024 + 112345), b.array());
            }
            CliRunner.Result u = cli.run("unmount", mnt.toString());
            assertEquals(0, u.exit(), u.all());
            assertEnded(run, mnt);
        } finally {
            forceUnmount(mnt);
            FastTempDirs.deleteTree(repo);
        }
    }

    private static boolean canWrite(Path p) {
        try {
            Files.writeString(p, "x");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void fileArchiveThroughAServerShowsTheTreeAndFusermountEndsIt() throws Exception {
        Path tmp = Files.createTempDirectory(base, "w");
        try (NetTestServer server = NetTestServer.startWithToken(shared.resolve("server"))) {
            CliRunner cli = new CliRunner(tmp, server.env());
            backup(cli);
            Path mnt = Files.createDirectories(tmp.resolve("mnt"));
            try {
                CompletableFuture<CliRunner.Result> run = mount(cli, mnt, snap(), "root.pxar.didx");
                FileArchiveCliTest.assertSameTree(src, mnt);
                Process p = new ProcessBuilder("fusermount3", "-u", mnt.toString()).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(30, TimeUnit.SECONDS));
                assertEquals(0, p.exitValue(), out);
                assertEnded(run, mnt);
            } finally {
                forceUnmount(mnt);
            }
        } finally {
            FastTempDirs.deleteTree(shared.resolve("server"));
        }
    }

    @Test
    void imageArchiveIsOneFileWithTheImagesBytes() throws Exception {
        Path tmp = Files.createTempDirectory(base, "w");
        Path repo = shared.resolve("repo-img");
        assertEquals(0, new CliRunner(tmp, Map.of()).run("datastore", "create", "img", repo.toString()).exit());
        CliRunner cli = new CliRunner(tmp, Map.of("PBS_REPOSITORY", repo.toString()));
        backup(cli);
        Path mnt = Files.createDirectories(tmp.resolve("mnt"));
        try {
            CompletableFuture<CliRunner.Result> run = mount(cli, mnt, "--cache-size", "8", snap(), "disk.img");
            try (var s = Files.list(mnt)) {
                assertEquals(List.of("disk.img"), s.map(x -> x.getFileName().toString()).toList());
            }
            Path file = mnt.resolve("disk.img");
            assertEquals(image.length, Files.size(file));
            assertArrayEquals(image, Files.readAllBytes(file));
            loopDeviceReadsTheImage(file);
            CliRunner.Result u = cli.run("unmount", "-q", mnt.toString());
            assertEquals(0, u.exit(), u.all());
            assertEnded(run, mnt);
        } finally {
            forceUnmount(mnt);
            FastTempDirs.deleteTree(repo);
        }
    }

    /** Attaches the mounted image to a read-only loop device and reads it back; skipped (with a message) where losetup cannot. */
    private static void loopDeviceReadsTheImage(Path file) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("losetup", "-r", "-f", "--show", file.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            System.err.println("MountCliTest: no losetup, loop-device check skipped: " + e.getMessage());
            return;
        }
        String dev = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0 || !dev.startsWith("/dev/loop")) {
            System.err.println("MountCliTest: cannot attach a loop device (needs root and /dev/loop*), check skipped: " + dev);
            return;
        }
        try (InputStream in = Files.newInputStream(Path.of(dev))) {
            assertArrayEquals(image, in.readNBytes(image.length + 1), "the loop device reads the image");
        } finally {
            new ProcessBuilder("losetup", "-d", dev).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
            // the kernel lets go of the file a moment later; until then it cannot be unmounted
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline) {
                Process j = new ProcessBuilder("losetup", "-j", file.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
                if (new String(j.getInputStream().readAllBytes(), StandardCharsets.UTF_8).isBlank() && j.waitFor() == 0) {
                    break;
                }
                Thread.sleep(50);
            }
        }
    }

    @Test
    void badInputFailsInOneLine() throws Exception {
        Path tmp = Files.createTempDirectory(base, "w");
        Path repo = shared.resolve("repo-bad");
        assertEquals(0, new CliRunner(tmp, Map.of()).run("datastore", "create", "bad", repo.toString()).exit());
        CliRunner cli = new CliRunner(tmp, Map.of("PBS_REPOSITORY", repo.toString()));
        backup(cli);
        Path full = Files.createDirectories(tmp.resolve("full"));
        Files.writeString(full.resolve("x"), "x");
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        String[][] cases = {
            {"2", "no such directory", "mount", snap(), "root.pxar", tmp.resolve("missing").toString()},
            {"2", "not empty", "mount", snap(), "root.pxar", full.toString()},
            {"2", "not a directory", "mount", snap(), "root.pxar", full.resolve("x").toString()},
            {"3", "archive 'nope.pxar' is not in snapshot", "mount", snap(), "nope.pxar", empty.toString()},
            {"2", "is a blob", "mount", snap(), "vm.conf", empty.toString()},
            {"2", "not a FUSE mount", "unmount", empty.toString()},
            {"2", "no such directory", "unmount", tmp.resolve("missing").toString()},
        };
        try {
            for (String[] c : cases) {
                CliRunner.Result r = cli.run(Arrays.copyOfRange(c, 2, c.length));
                assertEquals(Integer.parseInt(c[0]), r.exit(), r.all());
                assertTrue(r.err().contains(c[1]), r.all());
                assertEquals(1, r.err().strip().lines().count(), r.all());
            }
            assertFalse(Mounts.isMounted(empty.toRealPath()));
        } finally {
            FastTempDirs.deleteTree(repo);
        }
    }
}
