package org.jpbs.datastore.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@SuppressWarnings("try")
class DatastoreLockTest {
    @TempDir
    Path root;

    @Test
    void sharedTwiceInProcessThenExclusiveFailsUntilAllReleased() throws IOException {
        try (DatastoreLock a = DatastoreLock.shared(root); DatastoreLock b = DatastoreLock.shared(root)) {
            assertEquals(2, DatastoreLock.sharedHolders(root));
            LockedException e = assertThrows(LockedException.class, () -> DatastoreLock.exclusive(root));
            assertTrue(e.getMessage().startsWith("datastore " + root.toRealPath() + " is locked by "), e.getMessage());
            a.close();
            a.close(); // idempotent
            assertEquals(1, DatastoreLock.sharedHolders(root));
            assertThrows(LockedException.class, () -> DatastoreLock.exclusive(root));
        }
        assertEquals(0, DatastoreLock.sharedHolders(root));
        try (DatastoreLock x = DatastoreLock.exclusive(root)) {
            assertTrue(x.isExclusive());
            assertThrows(LockedException.class, () -> DatastoreLock.shared(root));
            assertThrows(LockedException.class, () -> DatastoreLock.exclusive(root));
        }
        DatastoreLock.shared(root).close();
        assertTrue(Files.isRegularFile(root.resolve(".lock")), "lock file created on demand");
    }

    @Test
    void sameDatastoreViaAnotherPathSharesTheCount() throws IOException {
        Path link = Files.createSymbolicLink(root.resolveSibling(root.getFileName() + "-link"), root);
        try (DatastoreLock a = DatastoreLock.shared(root); DatastoreLock b = DatastoreLock.shared(link)) {
            assertEquals(2, DatastoreLock.sharedHolders(root));
            assertEquals(a.root(), b.root());
        } finally {
            Files.delete(link);
        }
    }

    @Test
    void exclusiveLockInAnotherProcessBlocksSharedHere() throws Exception {
        Process child = startHolder("exclusive");
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line = out.readLine();
            assertEquals("LOCKED exclusive", line, "child did not take the lock; see its stderr");
            LockedException e = assertThrows(LockedException.class, () -> DatastoreLock.shared(root));
            assertEquals("datastore " + root.toRealPath() + " is locked by another process (garbage collection running?)",
                    e.getMessage());
            assertEquals("datastore " + root.toRealPath(), e.what());
            assertThrows(LockedException.class, () -> DatastoreLock.exclusive(root));
            child.getOutputStream().close(); // let it release and exit
            assertEquals("RELEASED", out.readLine());
            assertEquals(0, child.waitFor());
        } finally {
            child.destroyForcibly();
        }
        try (DatastoreLock l = DatastoreLock.shared(root)) {
            assertNotNull(l);
        }
    }

    @Test
    void sharedLockInAnotherProcessAllowsSharedButNotExclusiveHere() throws Exception {
        Process child = startHolder("shared");
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            assertEquals("LOCKED shared", out.readLine(), "child did not take the lock; see its stderr");
            try (DatastoreLock l = DatastoreLock.shared(root)) {
                assertEquals(1, DatastoreLock.sharedHolders(root));
            }
            LockedException e = assertThrows(LockedException.class, () -> DatastoreLock.exclusive(root));
            assertTrue(e.getMessage().contains("another process"), e.getMessage());
            child.getOutputStream().close();
            assertEquals("RELEASED", out.readLine());
            assertEquals(0, child.waitFor());
        } finally {
            child.destroyForcibly();
        }
        DatastoreLock.exclusive(root).close();
    }

    private Process startHolder(String mode) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                LockHolderMain.class.getName(), root.toString(), mode);
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    @Test
    void gcLockCoexistsWithWritersOfThisJvmAndKnowsTheOldest() throws Exception {
        try (DatastoreLock a = DatastoreLock.shared(root)) {
            Thread.sleep(5);
            try (DatastoreLock b = DatastoreLock.shared(root)) {
                assertEquals(java.util.Optional.of(a.since()), DatastoreLock.oldestSharedSince(root));
                try (DatastoreLock gc = DatastoreLock.forGc(root)) {
                    assertTrue(gc.isExclusive());
                    DatastoreLock.shared(root).close(); // a backup may start while GC runs
                    assertThrows(LockedException.class, () -> DatastoreLock.forGc(root));
                    assertThrows(LockedException.class, () -> DatastoreLock.exclusive(root));
                    // another process can take no lock at all while GC runs
                    assertEquals(List.of("FAILED"), holderOutput("shared"));
                }
                a.close();
                assertEquals(java.util.Optional.of(b.since()), DatastoreLock.oldestSharedSince(root));
                // GC ended, the writers remain: the lock is shared again, other processes may write
                assertEquals(List.of("LOCKED shared", "RELEASED"), holderOutput("shared"));
                assertEquals(List.of("FAILED"), holderOutput("exclusive"));
            }
        }
        assertEquals(java.util.Optional.empty(), DatastoreLock.oldestSharedSince(root));
        try (DatastoreLock gc = DatastoreLock.forGc(root)) {
            assertThrows(LockedException.class, () -> DatastoreLock.exclusive(root));
        }
    }

    @Test
    void gcLockRefusedWhileAnotherProcessWrites() throws Exception {
        Process child = startHolder("shared");
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            assertEquals("LOCKED shared", out.readLine());
            try (DatastoreLock l = DatastoreLock.shared(root)) {
                LockedException e = assertThrows(LockedException.class, () -> DatastoreLock.forGc(root));
                assertEquals("datastore " + root.toRealPath() + " is locked by another process (backup or sync running?)",
                        e.getMessage());
                assertEquals(1, DatastoreLock.sharedHolders(root), "the failed upgrade keeps the shared lock");
            }
            child.getOutputStream().close();
            assertEquals("RELEASED", out.readLine());
            assertEquals(0, child.waitFor());
        } finally {
            child.destroyForcibly();
        }
    }

    /** Runs a holder that releases at once; its stdout lines, or FAILED if it could not lock. */
    private List<String> holderOutput(String mode) throws Exception {
        Process p = startHolder(mode);
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int rc = p.waitFor();
        return rc == 0 ? List.of(out.strip().split("\n")) : List.of("FAILED");
    }

    @Test
    void inProcessPathLock() throws IOException {
        Path g = root.resolve("vm/100");
        try (InProcessLock l = InProcessLock.tryLock(g, "backup group vm/100", "another backup in this process")) {
            assertTrue(InProcessLock.isLocked(root.resolve("vm/./100")));
            LockedException e = assertThrows(LockedException.class,
                    () -> InProcessLock.tryLock(g, "backup group vm/100", "another backup in this process"));
            assertEquals("backup group vm/100 is locked by another backup in this process", e.getMessage());
            assertEquals(g, l.path());
        }
        InProcessLock.tryLock(g, "x", "y").close();
    }
}
