package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jpbs.cli.local.BlockDevices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backup from and restore to real block devices (loop devices over seeded files), where Java
 * reports size 0 and the size must come from sysfs. Skips unless {@code losetup} can attach a
 * loop device (root, a {@code /dev/loop*} node); always detaches what it attached.
 */
class LoopDeviceTest {
    static final int MIB = 1024 * 1024;

    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    @AfterEach
    void deleteDatastore() throws IOException {
        FastTempDirs.deleteTree(tmp.resolve("ds"));
    }

    private static Optional<String> attach(Path file) {
        try {
            Process p = new ProcessBuilder("losetup", "-f", "--show", file.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0 || !out.startsWith("/dev/")) {
                return Optional.empty();
            }
            return Optional.of(out);
        } catch (IOException | InterruptedException e) {
            return Optional.empty();
        }
    }

    private static void detach(String dev) throws Exception {
        new ProcessBuilder("losetup", "-d", dev).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
    }

    @Test
    void backupFromAndRestoreToLoopDevices() throws Exception {
        byte[] data = CliEndToEndTest.seededImage(13);
        Path srcFile = tmp.resolve("src.img");
        Files.write(srcFile, data);
        Path dstFile = tmp.resolve("dst.img");
        Files.write(dstFile, new byte[data.length]);
        Optional<String> src = attach(srcFile);
        Assumptions.assumeTrue(src.isPresent(), "cannot attach a loop device (needs root and /dev/loop*): skipping");
        Optional<String> dst = Optional.empty();
        try {
            dst = attach(dstFile);
            Assumptions.assumeTrue(dst.isPresent(), "cannot attach a second loop device: skipping");
            assertEquals(data.length, BlockDevices.size(Path.of(src.get())));
            CliRunner cli = new CliRunner(tmp.resolve("home"), Map.of());
            String repo = tmp.resolve("ds").toString();
            CliRunner.Result b = cli.run("backup", "--repository", repo, "--backup-id", "loop", "disk.img:" + src.get());
            assertEquals(0, b.exit(), b.all());
            assertTrue(b.err().contains("disk.img.fidx: 13.0 MiB (13631488 bytes) in 4 chunks"), b.err());
            CliRunner.Result r = cli.run("restore", "-q", "--repository", repo, "host/loop", "disk.img", dst.get());
            assertEquals(0, r.exit(), r.all());
        } finally {
            detach(src.get());
            if (dst.isPresent()) {
                detach(dst.get());
            }
        }
        assertArrayEquals(data, Files.readAllBytes(dstFile), "written in place on the device");
    }
}
