package org.jpbs.cli.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Leftovers of a restore killed with kill -9 are removed by the next restore of that target; live ones stay. */
class RestoreTargetTest {
    @TempDir
    Path dir;

    @Test
    void staleTemporariesGoLiveOnesAndOthersStay() throws Exception {
        Path stale = Files.write(dir.resolve("disk.img.tmp-a1b2c3"), new byte[] {1, 2, 3});
        Path live = Files.write(dir.resolve("disk.img.tmp-d4e5f6"), new byte[] {4});
        Path other = Files.write(dir.resolve("other.img.tmp-a1b2c3"), new byte[] {5});
        Files.createDirectory(dir.resolve("disk.img.tmp-dir"));
        try (FileChannel c = FileChannel.open(live, StandardOpenOption.WRITE); FileLock l = c.lock()) {
            assertEquals(1, RestoreTarget.removeStaleTemporaries(dir, "disk.img.tmp-"));
        }
        assertFalse(Files.exists(stale), "an unlocked leftover is removed");
        assertTrue(Files.exists(live), "a locked (running) restore's file stays");
        assertTrue(Files.exists(other), "another target's file stays");
        assertTrue(Files.isDirectory(dir.resolve("disk.img.tmp-dir")), "only regular files are touched");
    }
}
