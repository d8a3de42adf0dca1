package org.jpbs.datastore.chunks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.jpbs.datastore.snapshot.Datastore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChunkStoreCreateTest {
    @TempDir
    Path tmp;

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void createMakesAllPrefixDirsWithPbsModes() throws IOException {
        // one datastore only: creating and deleting 65,536 directories is slow on some disks
        Path root = tmp.resolve("a/b/store");
        long t0 = System.nanoTime();
        DirectoryChunkStore cs = ChunkStores.create(root, SyncLevel.NONE);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("ChunkStore.create: 65536 directories in " + ms + " ms");
        assertEquals(root.toAbsolutePath(), cs.root());
        Path chunks = root.resolve(".chunks");
        try (Stream<Path> s = Files.list(chunks)) {
            assertEquals(65536, s.filter(Files::isDirectory).count());
        }
        for (String p : new String[] {"0000", "00ff", "7a3c", "ffff"}) {
            assertTrue(Files.isDirectory(chunks.resolve(p)), p);
            assertEquals("rwxr-x---", mode(chunks.resolve(p)), p);
        }
        try (Stream<Path> s = Files.list(chunks)) {
            assertTrue(s.allMatch(p -> p.getFileName().toString().matches("[0-9a-f]{4}")));
        }
        assertEquals("rwxr-xr-x", mode(root));
        assertEquals("rwxr-x---", mode(chunks));
        Path lock = root.resolve(".lock");
        assertTrue(Files.isRegularFile(lock));
        assertEquals(0, Files.size(lock));
        assertEquals("rw-r--r--", mode(lock));
        ChunkStores.open(root, SyncLevel.FILE); // opens fine

        IOException e = assertThrows(IOException.class, () -> Datastore.create(root, SyncLevel.NONE));
        assertTrue(e.getMessage().contains("already a datastore"), e.getMessage());
        assertEquals(root.toAbsolutePath(), Datastore.openOrCreate(root).root(), "openOrCreate opens an existing one");
    }

    @Test
    void createRefusesNonEmptyForeignDirectoryAndExistingDatastore() throws IOException {
        Path foreign = Files.createDirectories(tmp.resolve("foreign"));
        Files.writeString(foreign.resolve("data.txt"), "mine");
        IOException e = assertThrows(IOException.class, () -> ChunkStores.create(foreign, SyncLevel.NONE));
        assertTrue(e.getMessage().contains("non-empty") && e.getMessage().contains(foreign.toString()), e.getMessage());
        assertFalse(Files.exists(foreign.resolve(".chunks")), "nothing created in a refused directory");

        Path file = Files.writeString(tmp.resolve("plainfile"), "x");
        e = assertThrows(IOException.class, () -> ChunkStores.create(file, SyncLevel.NONE));
        assertTrue(e.getMessage().contains("not a directory"), e.getMessage());
    }

    @Test
    void openOfNonDatastoreFailsClearly() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("notastore"));
        IOException e = assertThrows(IOException.class, () -> Datastore.open(dir));
        assertEquals("not a datastore: " + dir.toAbsolutePath() + " (no .chunks directory)", e.getMessage());
        IOException e2 = assertThrows(IOException.class, () -> Datastore.open(tmp.resolve("missing")));
        assertTrue(e2.getMessage().startsWith("not a datastore: "), e2.getMessage());
    }

    @Test
    void syncLevelParses() {
        assertEquals(SyncLevel.FILESYSTEM, SyncLevel.parse("filesystem"));
        assertEquals(SyncLevel.FILE, SyncLevel.parse("File"));
        assertEquals(SyncLevel.NONE, SyncLevel.parse("none"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SyncLevel.parse("fast"));
        assertTrue(e.getMessage().contains("'fast'"), e.getMessage());
    }
}
