package org.jpbs.cli.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Leftovers of a restore killed with kill -9 are removed by the next restore of that target;
 * live ones and the user's own look-alike files stay (issue 12 item 6); a symbolic link
 * TARGET is followed, not replaced (issue 12 item 11).
 */
class RestoreTargetTest {
    @TempDir
    Path dir;

    /** A leftover as a killed restore leaves it: exact name, marker set (where xattrs exist). */
    private Path leftover(String suffix) throws Exception {
        Path f = Files.write(dir.resolve("disk.img" + RestoreTarget.TMP_INFIX + suffix), new byte[] {1, 2, 3});
        try {
            Files.getFileAttributeView(f, UserDefinedFileAttributeView.class)
                    .write(RestoreTarget.MARKER, ByteBuffer.wrap("1".getBytes()));
        } catch (java.io.IOException e) {
            // no user xattrs on this file system: the name alone decides
        }
        return f;
    }

    @Test
    void staleTemporariesGoLiveOnesAndOthersStay() throws Exception {
        Path stale = leftover("0123456789abcdef");
        Path live = leftover("fedcba9876543210");
        Path other = Files.write(dir.resolve("other.img" + RestoreTarget.TMP_INFIX + "0123456789abcdef"), new byte[] {5});
        Files.createDirectory(dir.resolve("disk.img" + RestoreTarget.TMP_INFIX + "00000000000000aa"));
        try (FileChannel c = FileChannel.open(live, StandardOpenOption.WRITE); FileLock l = c.lock()) {
            assertEquals(1, RestoreTarget.removeStaleTemporaries(dir, "disk.img"));
        }
        assertFalse(Files.exists(stale), "an unlocked leftover is removed");
        assertTrue(Files.exists(live), "a locked (running) restore's file stays");
        assertTrue(Files.exists(other), "another target's file stays");
        assertTrue(Files.isDirectory(dir.resolve("disk.img" + RestoreTarget.TMP_INFIX + "00000000000000aa")),
                "only regular files are touched");
    }

    @Test
    void usersOwnFilesNamedLikeTemporariesAreKept() throws Exception {
        String[] users = {"disk.img.tmp-keepme", "disk.img.tmp-2024-01-01-backup", "disk.img.tmp-a1b2c3",
            "disk.img.tmp-jpbs-0123", "disk.img.tmp-jpbs-0123456789abcdef.old", "disk.img.tmp-jpbs-0123456789ABCDEF"};
        for (String u : users) {
            Files.write(dir.resolve(u), u.getBytes());
        }
        Path unmarked = Files.write(dir.resolve("disk.img" + RestoreTarget.TMP_INFIX + "1111111111111111"), new byte[] {7});
        boolean xattrs = Files.getFileStore(dir).supportsFileAttributeView(UserDefinedFileAttributeView.class)
                && !RestoreTarget.carriesMarker(unmarked);
        // a whole restore onto DIR/disk.img, as `jpbs restore … DIR/disk.img` opens it
        try (RestoreTarget t = RestoreTarget.open(dir.resolve("disk.img").toString(), 4, new ByteArrayOutputStream())) {
            assertTrue(RestoreTarget.carriesMarker(t.tempFile()), "our own temporary file carries the marker");
            assertTrue(t.tempFile().getFileName().toString().matches("disk\\.img\\.tmp-jpbs-[0-9a-f]{16}"), t.tempFile().toString());
            t.writeAll(new byte[] {1, 2, 3, 4});
            t.commit();
        }
        for (String u : users) {
            assertArrayEquals(u.getBytes(), Files.readAllBytes(dir.resolve(u)), "the user's " + u + " is kept");
        }
        assertEquals(xattrs, Files.exists(unmarked),
                "a file of the exact pattern without the marker is kept where the file system has user xattrs");
        assertArrayEquals(new byte[] {1, 2, 3, 4}, Files.readAllBytes(dir.resolve("disk.img")));
    }

    @Test
    void symlinkTargetIsFollowedNotReplaced() throws Exception {
        Path realDir = Files.createDirectory(dir.resolve("real"));
        Path real = Files.write(realDir.resolve("vm.img"), new byte[] {9, 9});
        Path link = Files.createSymbolicLink(dir.resolve("link.img"), Path.of("real/vm.img"));
        try (RestoreTarget t = RestoreTarget.open(link.toString(), 3, new ByteArrayOutputStream())) {
            assertEquals(realDir.toRealPath(), t.tempFile().getParent(), "temporary file next to the real file");
            t.writeAll(new byte[] {1, 2, 3});
            t.commit();
        }
        assertTrue(Files.isSymbolicLink(link), "the link stays a link");
        assertEquals(Path.of("real/vm.img"), Files.readSymbolicLink(link));
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(real), "the file it points to got the data");
        try (var s = Files.list(dir)) {
            assertEquals(2, s.count(), "nothing else written next to the link");
        }

        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.img"), Path.of("nowhere/x.img"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RestoreTarget.open(dangling.toString(), 3, new ByteArrayOutputStream()));
        assertTrue(e.getMessage().contains(dangling.toString()) && e.getMessage().contains("does not exist"), e.getMessage());
        assertTrue(Files.isSymbolicLink(dangling));
    }

    /**
     * A hostile user plants {@code /tmp/disk.img -> /root/precious} in a sticky world-writable
     * directory; the operator restores to {@code /tmp/disk.img}. The kernel's protected_symlinks
     * rule refuses to follow such a link (a shell's {@code >} fails), and so must restore: the
     * link's owner is neither the caller nor the directory's owner.
     */
    @Test
    void aForeignSymlinkInAStickyWorldWritableDirectoryIsNotFollowed() throws Exception {
        Path sticky = Files.createDirectory(dir.resolve("tmp"));
        Files.setPosixFilePermissions(sticky, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setAttribute(sticky, "unix:mode", 01777);
        Path victim = Files.write(dir.resolve("precious"), new byte[] {7, 7});
        Path link = Files.createSymbolicLink(sticky.resolve("disk.img"), victim);
        int me = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        int other = me == 65534 ? 65533 : 65534;
        try {
            Files.setAttribute(link, "unix:uid", other, java.nio.file.LinkOption.NOFOLLOW_LINKS); // lchown
        } catch (java.io.IOException e) {
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "needs root to give the link another owner: " + e);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RestoreTarget.open(link.toString(), 3, new ByteArrayOutputStream()));
        assertTrue(e.getMessage().contains(link.toString()) && e.getMessage().contains("sticky"), e.getMessage());
        assertArrayEquals(new byte[] {7, 7}, Files.readAllBytes(victim), "the file the link points to is untouched");
        assertTrue(Files.isSymbolicLink(link));

        // the caller's own link there is followed, as the kernel does
        Files.setAttribute(link, "unix:uid", me, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        try (RestoreTarget t = RestoreTarget.open(link.toString(), 3, new ByteArrayOutputStream())) {
            t.writeAll(new byte[] {1, 2, 3});
            t.commit();
        }
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(victim));
    }
}
