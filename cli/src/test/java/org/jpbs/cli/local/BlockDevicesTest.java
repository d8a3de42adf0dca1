package org.jpbs.cli.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockDevicesTest {
    @TempDir
    Path tmp;

    @Test
    void regularFilesAndCharacterDevices() throws IOException {
        Path f = tmp.resolve("f");
        Files.write(f, new byte[12345]);
        assertTrue(BlockDevices.isRegularFile(f));
        assertFalse(BlockDevices.isBlockDevice(f));
        assertEquals(12345, BlockDevices.size(f));
        assertFalse(BlockDevices.isRegularFile(tmp));
        Path dn = Path.of("/dev/null");
        Assumptions.assumeTrue(Files.exists(dn), "/dev/null absent");
        assertFalse(BlockDevices.isRegularFile(dn));
        assertFalse(BlockDevices.isBlockDevice(dn));
    }

    @Test
    void blockDeviceSizeComesFromSysfs() throws IOException {
        Optional<Path> dev = Optional.empty();
        Path sys = Path.of("/sys/class/block");
        if (Files.isDirectory(sys)) {
            try (Stream<Path> s = Files.list(sys)) {
                dev = s.map(p -> Path.of("/dev", p.getFileName().toString()))
                        .filter(p -> Files.exists(p) && BlockDevices.isBlockDevice(p)).findFirst();
            }
        }
        Assumptions.assumeTrue(dev.isPresent(), "no block device visible in /sys/class/block and /dev");
        long sectors = Long.parseLong(Files.readString(sys.resolve(dev.get().getFileName()).resolve("size")).strip());
        assertEquals(sectors * 512, BlockDevices.size(dev.get()));
        assertEquals(0, Files.size(dev.get()), "what Java itself reports for a block device (why sysfs is needed)");
    }

    @Test
    void restoreTargetWritesTempFileAndRenamesOnCommitOnly() throws IOException {
        Path target = tmp.resolve("out.bin");
        Files.writeString(target, "old");
        try (RestoreTarget t = RestoreTarget.open(target.toString(), 5, System.out)) {
            assertTrue(t.isPositional() && t.isFreshFile());
            assertEquals(5, Files.size(t.tempFile()), "extended to the final size");
            t.writeAll("hello".getBytes());
        } // no commit: discarded
        assertEquals("old", Files.readString(target));
        try (RestoreTarget t = RestoreTarget.open(target.toString(), 5, System.out)) {
            t.writeAll("hello".getBytes());
            t.commit();
        }
        assertEquals("hello", Files.readString(target));
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(1, s.count(), "no temporary file left");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (RestoreTarget t = RestoreTarget.open("-", 3, out)) {
            assertFalse(t.isPositional());
            t.writeAll(new byte[] {1, 2, 3});
            t.commit();
        }
        assertArrayEquals(new byte[] {1, 2, 3}, out.toByteArray());
        assertThrows(IllegalArgumentException.class, () -> RestoreTarget.open(tmp.toString(), 1, out));
        assertThrows(IllegalArgumentException.class, () -> RestoreTarget.open(tmp.resolve("a/b").toString(), 1, out));
    }
}
