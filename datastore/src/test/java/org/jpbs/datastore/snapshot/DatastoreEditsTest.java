package org.jpbs.datastore.snapshot;

import static org.jpbs.datastore.snapshot.SnapshotWriterTest.OWNER;
import static org.jpbs.datastore.snapshot.SnapshotWriterTest.commitSimple;
import static org.jpbs.datastore.snapshot.SnapshotWriterTest.snap;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.lock.DirLock;
import org.jpbs.datastore.lock.LockedException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The datastore edits behind the admin API: manifest updates under the manifest lock (no lost
 * update between concurrent writers such as notes and verify), protection under the snapshot
 * lock, the client log written once, group and namespace removal with protected snapshots and
 * running backups.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.jpbs.datastore.SharedTestDatastore.class)
class DatastoreEditsTest {
    static final long T = 1_700_000_000L;
    static Datastore ds;

    @BeforeAll
    static void open() throws IOException {
        SnapshotWriterTest.openDatastore();
        ds = SnapshotWriterTest.ds;
    }

    static BackupManifest manifest(BackupSnapshotRef ref) throws IOException {
        return ds.openSnapshot(ref).manifest();
    }

    @Test
    void concurrentManifestUpdatesLoseNothing() throws Exception {
        BackupSnapshotRef a = commitSimple(snap("vm/700", T));
        int writers = 8;
        int rounds = 25;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                String key = "k" + w;
                fs.add(pool.submit(() -> {
                    go.await();
                    for (int i = 1; i <= rounds; i++) {
                        int n = i;
                        ds.updateManifest(a, m -> m.unprotected().put(key, n));
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        BackupManifest m = manifest(a);
        for (int w = 0; w < writers; w++) {
            assertEquals(rounds, m.unprotected().get("k" + w).asInt(), "every writer's last update is there: " + m.unprotected());
        }
        assertEquals(List.of("drive-scsi0.img.fidx", "qemu-server.conf.blob"),
                m.files().stream().map(f -> f.filename()).sorted().toList(), "files untouched");
    }

    @Test
    void protectionNeedsTheSnapshotLock() throws IOException {
        BackupSnapshotRef a = commitSimple(snap("vm/701", T));
        try (DirLock r = ds.lockSnapshotShared(a, "reader")) {
            LockedException e = assertThrows(LockedException.class, () -> ds.setProtected(a, true));
            assertEquals("snapshot " + a + " is locked by another operation (reader in this process)", e.getMessage());
        }
        assertFalse(ds.isProtected(a));
        ds.setProtected(a, true);
        assertTrue(ds.isProtected(a));
        ds.setProtected(a, true); // again: still protected
        ds.setProtected(a, false);
        assertFalse(ds.isProtected(a));
        assertThrows(java.nio.file.NoSuchFileException.class, () -> ds.setProtected(snap("vm/701", T + 1), true));
    }

    @Test
    void clientLogIsWrittenOnce() throws IOException {
        BackupSnapshotRef a = commitSimple(snap("vm/702", T));
        byte[] one = DataBlob.encode("one".getBytes(StandardCharsets.UTF_8), 0, 3, true).raw();
        byte[] two = DataBlob.encode("two".getBytes(StandardCharsets.UTF_8), 0, 3, true).raw();
        assertTrue(ds.addClientLog(a, one));
        assertFalse(ds.addClientLog(a, two), "a second log is refused");
        assertArrayEquals(one, Files.readAllBytes(ds.snapshotDir(a).resolve(DatastoreLayout.CLIENT_LOG)));
        assertEquals(List.of(), SnapshotWriterTest.names(ds.snapshotDir(a)).stream().filter(n -> n.contains(".tmp")).toList());
        assertThrows(java.nio.file.NoSuchFileException.class, () -> ds.addClientLog(snap("vm/702", T + 1), one));
    }

    @Test
    void groupRemovalKeepsProtectedSnapshotsAndRespectsARunningBackup() throws IOException {
        BackupSnapshotRef a = commitSimple(snap("vm/703", T));
        BackupSnapshotRef b = commitSimple(snap("vm/703", T + 60));
        ds.setGroupNotes(a.group(), "notes");
        ds.setProtected(a, true);
        assertFalse(ds.removeGroup(a.group()), "protected snapshot kept");
        assertTrue(Files.isDirectory(ds.snapshotDir(a)));
        assertFalse(Files.exists(ds.snapshotDir(b)));
        assertEquals("notes", ds.groupNotes(a.group()), "the group stays with its notes");
        ds.setProtected(a, false);
        try (SnapshotWriter w = ds.beginSnapshot(snap("vm/703", T + 120), OWNER)) {
            assertThrows(LockedException.class, () -> ds.removeGroup(a.group()), "a backup of the group is running");
        }
        assertTrue(ds.removeGroup(a.group()));
        assertFalse(Files.exists(ds.groupDir(a.group())), "group directory with owner and notes removed");
        assertTrue(ds.removeGroup(a.group()), "an absent group is removed already");
    }

    @Test
    void namespacesAreCreatedBelowAnExistingParentAndRemovedBottomUp() throws IOException {
        BackupNamespace top = ds.createNamespace(BackupNamespace.ROOT, "edits");
        BackupNamespace sub = ds.createNamespace(top, "sub");
        assertEquals("edits/sub", sub.toString());
        assertTrue(Files.isDirectory(ds.root().resolve("ns/edits/ns/sub")));
        java.nio.file.NoSuchFileException e = assertThrows(java.nio.file.NoSuchFileException.class,
                () -> ds.createNamespace(BackupNamespace.parse("edits/nosuch"), "x"));
        assertEquals("cannot create new namespace, parent edits/nosuch doesn't already exists", e.getReason());
        BackupSnapshotRef inSub = new BackupSnapshotRef(new BackupGroupRef(sub, BackupType.HOST, "h"), T);
        try (SnapshotWriter w = ds.beginSnapshot(inSub, OWNER)) {
            w.addBlob("a.blob", DataBlob.encode(new byte[] {1}, 0, 1, false));
            w.commit(new BackupManifest(BackupType.HOST, "h", T));
        }
        ds.createNamespace(top, "empty");
        assertFalse(ds.removeNamespace(top, false), "the group keeps edits/sub and edits");
        assertFalse(Files.exists(ds.root().resolve("ns/edits/ns/empty")), "the empty one went");
        assertTrue(Files.isDirectory(ds.snapshotDir(inSub)));
        assertTrue(ds.removeNamespace(top, true));
        assertFalse(Files.exists(ds.root().resolve("ns/edits")));
        assertThrows(IllegalArgumentException.class, () -> ds.removeNamespace(BackupNamespace.ROOT, true));
    }
}
