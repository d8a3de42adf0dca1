package org.jpbs.datastore.snapshot;

import static org.jpbs.datastore.snapshot.SnapshotWriterTest.OWNER;
import static org.jpbs.datastore.snapshot.SnapshotWriterTest.commitSimple;
import static org.jpbs.datastore.snapshot.SnapshotWriterTest.snap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.lock.DirLock;
import org.jpbs.datastore.lock.LockedException;
import org.jpbs.datastore.verify.SnapshotVerifyResult;
import org.jpbs.datastore.verify.Verifier;
import org.jpbs.datastore.verify.VerifyOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The group/snapshot lock matrix of {@link DirLock} inside one JVM (each lock is a {@code flock}
 * on its own descriptor, so these conflicts are the same a second process sees; the
 * two-process case is {@code cli}'s {@code CrossProcessLockTest}).
 */
@org.junit.jupiter.api.extension.ExtendWith(org.jpbs.datastore.SharedTestDatastore.class)
class SnapshotLockTest {
    static final long T = 1_700_000_000L;
    static Datastore ds;

    @BeforeAll
    static void open() throws IOException {
        SnapshotWriterTest.openDatastore();
        ds = SnapshotWriterTest.ds;
    }

    @Test
    void sharedLocksCoexistAndExcludeRemoval() throws IOException {
        BackupSnapshotRef a = commitSimple(snap("vm/600", T));
        try (DirLock r1 = ds.lockSnapshotShared(a, "reader"); DirLock r2 = ds.lockSnapshotShared(a, "verify")) {
            LockedException e = assertThrows(LockedException.class, () -> ds.removeSnapshot(a));
            assertEquals("snapshot " + a + " is locked by another operation (reader, verify in this process)", e.getMessage());
        }
        try (DirLock r = ds.lockSnapshotShared(a, "reader")) {
            assertThrows(LockedException.class, () -> ds.removeSnapshot(a));
        }
        ds.removeSnapshot(a);
        assertFalse(Files.exists(ds.groupDir(a.group())), "group removed with its last snapshot");
        assertThrows(java.nio.file.NoSuchFileException.class, () -> ds.lockSnapshotShared(a, "reader"));
    }

    @Test
    void aRemovalInProgressRefusesReadersAndVerifySkipsALockedSnapshot() throws IOException {
        BackupSnapshotRef a = commitSimple(snap("vm/601", T));
        try (DirLock x = DirLock.exclusive(ds.snapshotDir(a), "snapshot " + a, "forget/prune")) {
            LockedException e = assertThrows(LockedException.class, () -> ds.lockSnapshotShared(a, "reader"));
            assertTrue(e.getMessage().endsWith("(forget/prune in this process)"), e.getMessage());
            try (Verifier v = new Verifier(ds, VerifyOptions.defaults(), OWNER, new Verifier.Listener() {})) {
                SnapshotVerifyResult r = v.verify(a);
                assertEquals(SnapshotVerifyResult.State.SKIPPED, r.state());
                assertEquals("could not acquire snapshot lock", r.skipReason());
            }
        }
        try (Verifier v = new Verifier(ds, VerifyOptions.defaults(), OWNER, new Verifier.Listener() {})) {
            // verified now (its test chunks do not exist, so it fails, but it is no longer skipped)
            assertEquals(SnapshotVerifyResult.State.FAILED, v.verify(a).state());
        }
        ds.removeSnapshot(a);
    }

    @Test
    void aBackupLocksItsGroupAndItsBaseUntilCommit() throws IOException {
        BackupSnapshotRef base = commitSimple(snap("vm/602", T));
        try (SnapshotWriter w = ds.beginSnapshot(snap("vm/602", T + 60), OWNER)) {
            w.lockBase(base);
            LockedException g = assertThrows(LockedException.class, () -> ds.beginSnapshot(snap("vm/602", T + 120), OWNER));
            assertEquals("backup group vm/602 is locked by another operation (backup in this process)", g.getMessage());
            LockedException b = assertThrows(LockedException.class, () -> ds.removeSnapshot(base));
            assertTrue(b.getMessage().endsWith("(backup in this process)"), b.getMessage());
        }
        ds.removeSnapshot(base); // abort released both
    }

    @Test
    void aNewBackupRemovesLeftoversOfDeadWritersButNotARemovalInProgress() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(DirLock.crossProcess(), "flock via FFM not available");
        BackupSnapshotRef a = commitSimple(snap("vm/603", T));
        Path g = ds.groupDir(a.group());
        Path dead = Files.createDirectory(g.resolve(".tmp-" + BackupSnapshotRef.formatTime(T + 30) + "-killed01"));
        Files.writeString(dead.resolve("drive-scsi0.img.fidx.tmp_abcdef"), "partial");
        Path removing = Files.createDirectory(g.resolve(".tmp-removing-2023-11-14T00:00:00Z-busy0001"));
        Files.setLastModifiedTime(removing, FileTime.from(Instant.now().minusSeconds(48 * 3600)));
        Path removedDead = Files.createDirectory(g.resolve(".tmp-removing-2023-11-13T00:00:00Z-dead0001"));
        java.time.Duration anyAge = java.time.Duration.ofSeconds(-5);
        try (DirLock busy = DirLock.exclusive(removing, "removal", "forget/prune")) {
            assertEquals(2, ds.cleanupStaleTempDirs(anyAge), "the dead writer's and the dead removal's directory");
        }
        assertFalse(Files.exists(dead));
        assertFalse(Files.exists(removedDead));
        assertTrue(Files.exists(removing), "a removal in progress is left to its remover");
        // a writer killed mid-upload: the next backup of the group removes its directory at once
        Files.createDirectory(dead);
        Files.writeString(dead.resolve("drive-scsi0.img.fidx.tmp_abcdef"), "partial");
        Files.delete(removing);
        commitSimple(snap("vm/603", T + 60));
        assertFalse(Files.exists(dead));
        try (SnapshotWriter w = ds.beginSnapshot(snap("vm/603", T + 120), OWNER)) {
            Path mine = w.dir();
            assertEquals(0, ds.cleanupStaleTempDirs(anyAge), "a running backup's group is skipped");
            assertTrue(Files.isDirectory(mine));
            assertEquals(List.of(mine.getFileName().toString()), Files.list(g).map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(".tmp-") && !n.startsWith(".tmp-removing-")).toList());
        }
    }
}
