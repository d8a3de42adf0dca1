package org.jpbs.datastore.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer registry within one JVM, and the {@code /proc/locks} parser. */
class WriterRegistryTest {
    @TempDir
    Path root;

    @Test
    void registrationsAreListedOldestFirstAndGoneWhenClosed() throws IOException {
        assertEquals(List.of(), WriterRegistry.scan(root), "no registry yet: no writers");
        try (WriterRegistry.Registration a = WriterRegistry.register(root, "backup vm/1");
             WriterRegistry.Registration b = WriterRegistry.register(root, "backup vm/2")) {
            List<WriterRegistry.Entry> live = WriterRegistry.scan(root);
            assertEquals(List.of(a.start(), b.start()), live.stream().map(WriterRegistry.Entry::start).toList());
            assertEquals(ProcessHandle.current().pid(), live.get(0).pid());
            assertEquals("backup vm/1", live.get(0).what());
            assertEquals(Optional.of(a.start()), WriterRegistry.oldest(live));
            assertTrue(Files.isRegularFile(a.file()));
            String text = Files.readString(a.file());
            assertTrue(text.startsWith("start=" + a.start() + "\npid="), text);
            b.close();
            assertEquals(List.of(a.start()), WriterRegistry.scan(root).stream().map(WriterRegistry.Entry::start).toList());
            assertTrue(Files.isRegularFile(a.file()), "scanning never drops a registration of this JVM");
        }
        assertEquals(List.of(), WriterRegistry.scan(root));
    }

    @Test
    void unlockedFilesAreLeftoversOfKilledWritersAndRemoved() throws IOException {
        Path dir = Files.createDirectories(root.resolve(WriterRegistry.DIR));
        Path dead = Files.writeString(dir.resolve("0123abcd" + WriterRegistry.SUFFIX), "start=2020-01-01T00:00:00Z\npid=1\n");
        Path deadTmp = Files.writeString(dir.resolve(".tmp-4567"), "start=");
        Files.setLastModifiedTime(deadTmp, java.nio.file.attribute.FileTime.from(Instant.now().minusSeconds(600)));
        Path other = Files.writeString(dir.resolve("README"), "not ours");
        assertEquals(List.of(), WriterRegistry.scan(root));
        assertFalse(Files.exists(dead));
        assertFalse(Files.exists(deadTmp));
        assertTrue(Files.exists(other), "names not of the registry are left alone");
    }

    /**
     * Another process's writer creates {@code .tmp-<random>} and locks it a moment later; a GC
     * scanning in between must not remove it (the soak saw the writer's backup fail with
     * "….writers/.tmp-…: no such file or directory").
     */
    @Test
    void aFreshUnlockedTemporaryIsAWriterAboutToLockItAndStays() throws IOException {
        Path dir = Files.createDirectories(root.resolve(WriterRegistry.DIR));
        Path fresh = Files.writeString(dir.resolve(".tmp-89abcdef0123456789abcdef"), "");
        assertEquals(List.of(), WriterRegistry.scan(root), "not counted as a writer (it has touched nothing yet)");
        assertTrue(Files.exists(fresh), "left for its writer to lock and rename");
    }

    /** A {@code .writers} that is a file or a dangling link: backup and GC say so, naming the datastore. */
    @Test
    void aRegistryThatIsNotADirectoryIsNamed() throws IOException {
        Path file = Files.writeString(root.resolve(WriterRegistry.DIR), "oops");
        IOException e = assertThrows(IOException.class, () -> WriterRegistry.register(root, "backup vm/1"));
        assertTrue(e.getMessage().contains("datastore " + root.toRealPath()) && e.getMessage().contains(
                file.getFileName() + " is not a directory") && !e.getMessage().contains(".tmp-"), e.getMessage());
        e = assertThrows(IOException.class, () -> WriterRegistry.lockGc(root));
        assertTrue(e.getMessage().contains("is not a directory"), e.getMessage());
        Files.delete(file);
        Files.createSymbolicLink(root.resolve(WriterRegistry.DIR), root.resolve("nowhere"));
        e = assertThrows(IOException.class, () -> WriterRegistry.register(root, "backup vm/1"));
        assertTrue(e.getMessage().contains("is not a directory"), e.getMessage());
    }

    /**
     * On a full ext4 datastore without {@code .writers} (made by PBS, or removed), creating the
     * directory fails with ENOSPC and GC refused to run ("….writers: No space left on device"),
     * though GC is what frees space. It now runs with the {@code .chunks} flock as its mutex,
     * which a second GC (here: a second descriptor, which conflicts like another process) sees.
     */
    @Test
    void garbageCollectionStillLocksOnAFullDiskWithoutRegistry() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(org.jpbs.datastore.os.FlockFile.available());
        Files.createDirectories(root.resolve(".chunks"));
        WriterRegistry.GcLockPath full = () -> {
            throw new java.nio.file.FileSystemException(root.resolve(WriterRegistry.DIR).toString(), null,
                    "No space left on device");
        };
        try (WriterRegistry.GcLock gc = WriterRegistry.lockGc(root, full);
             org.jpbs.datastore.os.FlockFile other = org.jpbs.datastore.os.FlockFile.open(root.resolve(".chunks"))) {
            assertFalse(other.tryLock(true), "another GC is excluded");
        }
        try (WriterRegistry.GcLock gc = WriterRegistry.lockGc(root);
             org.jpbs.datastore.os.FlockFile other = org.jpbs.datastore.os.FlockFile.open(root.resolve(".chunks"))) {
            assertFalse(other.tryLock(true), "a GC with the registry takes the .chunks lock too");
        }
        try (org.jpbs.datastore.os.FlockFile other = org.jpbs.datastore.os.FlockFile.open(root.resolve(".chunks"))) {
            assertTrue(other.tryLock(true), "released when the GC ends");
        }
        IOException e = assertThrows(IOException.class, () -> WriterRegistry.lockGc(root, () -> {
            throw new java.nio.file.AccessDeniedException("x");
        }));
        assertFalse(e instanceof LockedException, "other errors still fail: " + e);
    }

    @Test
    void unparsableStartCountsAsTheOldestPossible() {
        WriterRegistry.Entry e = WriterRegistry.parse(Path.of("x.writer"), "garbage\npid=12\n");
        assertEquals(Instant.EPOCH, e.start());
        assertEquals(12, e.pid());
        assertEquals(Instant.EPOCH, WriterRegistry.parse(Path.of("x.writer"), "start=yesterday\n").start());
        assertEquals(Instant.parse("2026-01-02T03:04:05.123Z"),
                WriterRegistry.parse(Path.of("x.writer"), "start=2026-01-02T03:04:05.123Z\npid=1\nwhat=backup\n").start());
    }

    @Test
    void oneGarbageCollectionAtATimeInThisJvm() throws IOException {
        try (WriterRegistry.GcLock gc = WriterRegistry.lockGc(root)) {
            LockedException e = assertThrows(LockedException.class, () -> WriterRegistry.lockGc(root));
            assertTrue(e.getMessage().endsWith("is locked by garbage collection in this process"), e.getMessage());
        }
        WriterRegistry.lockGc(root).close();
    }

    @Test
    void procLocksLinesOfTheFileAreFound() throws IOException {
        Path f = Files.writeString(root.resolve(".lock"), "");
        long ino = ((Number) Files.getAttribute(f, "unix:ino")).longValue();
        long dev = ((Number) Files.getAttribute(f, "unix:dev")).longValue();
        long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & 0xfffff000L);
        long minor = (dev & 0xff) | ((dev >>> 12) & 0xffffff00L);
        String id = String.format("%02x:%02x:%d", major, minor, ino);
        Path locks = Files.writeString(root.resolve("locks"), String.join("\n",
                "1: POSIX  ADVISORY  READ 4711 " + id + " 0 EOF",
                "1: -> POSIX  ADVISORY  WRITE 4712 " + id + " 0 EOF",
                "2: FLOCK  ADVISORY  WRITE 4713 " + id + " 0 EOF",
                "3: POSIX  ADVISORY  READ 4714 " + String.format("%02x:%02x:%d", major, minor, ino + 1) + " 0 EOF",
                "4: POSIX  ADVISORY  READ 4715 " + id + " 0 EOF") + "\n");
        assertEquals(Optional.of(List.of(4711L, 4715L)), LockHolders.holders(f, locks));
        assertEquals(Optional.empty(), LockHolders.holders(f, root.resolve("no-such-file")));
    }
}
