package org.jpbs.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A recycled datastore is indistinguishable from a new one, and one that differs otherwise is not reused. */
class DatastorePoolTest {
    /** A datastore made by Datastore.create, the reference (one for the class: each costs a second). */
    @TempDir
    static Path reference;
    private static List<String> fresh;

    @TempDir
    Path tmp;
    /** What the pool held before the test (of other tests of this JVM): put back after it. */
    private List<Path> aside;

    @BeforeAll
    static void makeReference() throws IOException {
        Datastore.create(reference.resolve("fresh"), SyncLevel.NONE);
        fresh = layout(reference.resolve("fresh"));
    }

    @BeforeEach
    void emptyPool() {
        aside = DatastorePool.takeAll();
    }

    @AfterEach
    void restorePool() {
        DatastorePool.putBack(aside);
    }

    /** Relative path, type, mode and size of every entry below {@code root} (sizes of directories left out). */
    private static List<String> layout(Path root) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted().toList()) {
                PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                out.add(root.relativize(p) + " " + (a.isDirectory() ? "d" : "f") + " "
                        + PosixFilePermissions.toString(a.permissions()) + (a.isDirectory() ? "" : " " + a.size()));
            }
        }
        return out;
    }

    private static boolean onTmpfs(Path p) throws IOException {
        return Files.getFileStore(p).type().equals("tmpfs");
    }

    @Test
    void aRecycledDatastoreIsLikeANewOne() throws Exception {
        assumeTrue(onTmpfs(tmp) && onTmpfs(Path.of("/dev/shm")), "the pool works on tmpfs only");
        assertEquals(2 + 65536 + 1, fresh.size());

        Path used = tmp.resolve("a/used");
        Datastore.create(used, SyncLevel.NONE);
        Random r = new Random(7);
        for (int i = 0; i < 50; i++) { // chunk files, a sub directory and stray files in prefix dirs
            String prefix = String.format("%04x", r.nextInt(65536));
            Files.write(used.resolve(".chunks/" + prefix + "/" + "ab".repeat(32)), new byte[r.nextInt(100) + 1]);
        }
        Files.createDirectories(used.resolve(".chunks/0000/sub/dir"));
        Files.createDirectories(used.resolve("vm/100/2024-01-01T00:00:00Z"));
        Files.writeString(used.resolve("vm/100/owner"), "root@pam\n");
        Files.writeString(used.resolve(".lock"), "x");
        Files.writeString(used.resolve(".gc-status"), "{}");
        DatastorePool.recycleUnder(tmp.resolve("a"));
        assertFalse(Files.exists(used), "the datastore moved to the pool");
        assertEquals(1, DatastorePool.pooled());

        Path reused = tmp.resolve("b/reused");
        Datastore ds = DatastorePool.datastore(reused, SyncLevel.NONE);
        assertEquals(fresh, layout(reused), "exactly what Datastore.create makes");
        assertTrue(Files.isDirectory(ds.root().resolve(".chunks/ffff")));
    }

    @Test
    void aDatastoreWithOtherModesIsNotReused() throws Exception {
        assumeTrue(onTmpfs(tmp) && onTmpfs(Path.of("/dev/shm")), "the pool works on tmpfs only");
        Path odd = tmp.resolve("x/odd");
        Datastore.create(odd, SyncLevel.NONE);
        Files.setPosixFilePermissions(odd.resolve(".chunks/1234"), PosixFilePermissions.fromString("rwx------"));
        DatastorePool.recycleUnder(tmp.resolve("x"));
        assertFalse(Files.exists(odd), "the datastore moved to the pool");
        assertEquals(1, DatastorePool.pooled());
        Path p = tmp.resolve("new");
        DatastorePool.create(p, SyncLevel.NONE);
        assertEquals(0, DatastorePool.pooled());
        assertEquals(fresh, layout(p), "a new datastore, not the odd one");
    }

    /** The pool keeps Datastore.create's refusal of a datastore inside another one. */
    @Test
    void aPathInsideADatastoreIsRefusedAsByDatastoreCreate() throws Exception {
        assumeTrue(onTmpfs(tmp) && onTmpfs(Path.of("/dev/shm")), "the pool works on tmpfs only");
        Datastore.create(tmp.resolve("x/spare"), SyncLevel.NONE);
        DatastorePool.recycleUnder(tmp.resolve("x"));
        assertEquals(1, DatastorePool.pooled());
        Path nested = reference.resolve("fresh/host/inner");
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> DatastorePool.create(nested, SyncLevel.NONE));
        assertTrue(e.getMessage().contains("is inside the datastore"), e.getMessage());
        assertFalse(Files.exists(reference.resolve("fresh/host")), "nothing made inside the outer datastore");
        assertEquals(1, DatastorePool.pooled(), "the pooled datastore stays in the pool");
    }

    @Test
    void anExistingDirectoryIsLeftToDatastoreCreate() throws Exception {
        Path existing = Files.createDirectory(tmp.resolve("existing"));
        Files.setPosixFilePermissions(existing, PosixFilePermissions.fromString("rwx------"));
        DatastorePool.create(existing, SyncLevel.NONE);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(existing)),
                "Datastore.create keeps the mode of an existing empty directory");
        Files.writeString(tmp.resolve("file"), "x");
        Path file = tmp.resolve("file");
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> DatastorePool.create(file, SyncLevel.NONE));
        assertTrue(e.getMessage().contains("exists and is not a directory"), e.getMessage());
    }
}
