package org.jpbs.datastore.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.SharedTestDatastore;
import org.jpbs.datastore.TestData;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.lock.DatastoreLock;
import org.jpbs.datastore.lock.LockedException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SharedTestDatastore.class)
class SnapshotWriterTest {
    static final long T = 1_700_000_000L;
    static final String OWNER = "root@pam";
    static final byte[] CONF = "boot: order=scsi0\nmemory: 2048\n".getBytes(StandardCharsets.UTF_8);

    static Datastore ds;

    @BeforeAll
    static void openDatastore() throws IOException {
        ds = Datastore.open(SharedTestDatastore.root(), SyncLevel.FILESYSTEM);
    }

    static BackupSnapshotRef snap(String group, long time) {
        return new BackupSnapshotRef(BackupGroupRef.parse(BackupNamespace.ROOT, group), time);
    }

    static FixedIndex fixedIndex(long seed) {
        int cs = 4 << 20;
        long size = 2L * cs + 12345;
        Digest[] d = new Digest[FixedIndex.chunkCount(size, cs)];
        for (int i = 0; i < d.length; i++) {
            d[i] = TestData.digest(seed + i);
        }
        return new FixedIndex(new UUID(seed, 1), T, size, cs, d);
    }

    static DynamicIndex dynamicIndex(long seed) {
        long[] ends = {1000, 5000, 7777};
        Digest[] d = {TestData.digest(seed), TestData.digest(seed + 1), TestData.digest(seed + 2)};
        return new DynamicIndex(new UUID(seed, 2), T, ends, d);
    }

    /** Writes and commits a snapshot with a blob and a fixed index; returns it. */
    static BackupSnapshotRef commitSimple(BackupSnapshotRef ref) throws IOException {
        try (SnapshotWriter w = ds.beginSnapshot(ref, OWNER)) {
            w.addBlob("qemu-server.conf.blob", DataBlob.encode(CONF, 0, CONF.length, true));
            w.addFixedIndex("drive-scsi0.img.fidx", fixedIndex(ref.time()));
            return w.commit(new BackupManifest(ref.group().type(), ref.group().id(), ref.time()));
        }
    }

    static Set<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void commitMakesTheSnapshotVisibleWithAllFiles() throws IOException {
        BackupSnapshotRef ref = snap("vm/100", T);
        DataBlob conf = DataBlob.encode(CONF, 0, CONF.length, true);
        FixedIndex fidx = fixedIndex(1);
        DynamicIndex didx = dynamicIndex(2);
        Path hidden;
        try (SnapshotWriter w = ds.beginSnapshot(ref, OWNER)) {
            w.addBlob("qemu-server.conf.blob", conf);
            w.addFixedIndex("drive-scsi0.img.fidx", fidx);
            w.addDynamicIndex("root.pxar.didx", didx, CryptMode.NONE);
            w.addBlob("client.log.blob", DataBlob.encode(new byte[] {'l'}, 0, 1, false));
            hidden = w.dir();
            assertTrue(hidden.getFileName().toString().startsWith(".tmp-2023-11-14T22:13:20Z-"), hidden.toString());
            assertEquals(List.of(), ds.listSnapshots(ref.group()), "nothing visible before commit");
            assertEquals(1, DatastoreLock.sharedHolders(ds.root()), "writer holds the shared datastore lock");
            assertThrows(LockedException.class, () -> DatastoreLock.exclusive(ds.root()));
            assertEquals(3, w.files().size());
            assertEquals(ref, w.commit(new BackupManifest(BackupType.VM, "100", T)));
            assertEquals(ds.snapshotDir(ref), w.dir());
        }
        assertEquals(0, DatastoreLock.sharedHolders(ds.root()), "lock released after commit");
        assertFalse(Files.exists(hidden));
        assertEquals(Set.of("2023-11-14T22:13:20Z", "owner"), names(ds.groupDir(ref.group())));
        assertEquals("root@pam\n", Files.readString(ds.groupDir(ref.group()).resolve("owner")));
        assertEquals(OWNER, ds.owner(ref.group()));
        assertEquals(Set.of("client.log.blob", "drive-scsi0.img.fidx", "index.json.blob", "qemu-server.conf.blob",
                "root.pxar.didx"), names(ds.snapshotDir(ref)));

        List<SnapshotInfo> infos = ds.listSnapshots(ref.group());
        assertEquals(1, infos.size());
        SnapshotInfo info = infos.get(0);
        assertTrue(info.finished());
        assertFalse(info.isProtected());
        assertEquals(List.of("qemu-server.conf.blob", "drive-scsi0.img.fidx", "root.pxar.didx"),
                info.files().stream().map(FileEntry::filename).toList());
        assertEquals(conf.rawLength() + fidx.size() + didx.size(), info.totalSize());
        assertEquals(ref, ds.lastFinishedSnapshot(ref.group()).orElseThrow());

        SnapshotReader r = ds.openSnapshot(ref);
        FileEntry confEntry = r.manifest().file("qemu-server.conf.blob").orElseThrow();
        assertEquals(conf.rawLength(), confEntry.size());
        assertEquals(Digest.sha256(conf.raw()), confEntry.csum());
        assertArrayEquals(CONF, r.readBlob("qemu-server.conf.blob"));
        IndexFile f = r.openIndex("drive-scsi0.img.fidx");
        assertTrue(f instanceof FixedIndex);
        assertEquals(fidx.computeCsum(), f.computeCsum());
        assertEquals(fidx.size(), r.manifest().file("drive-scsi0.img.fidx").orElseThrow().size());
        IndexFile d = r.openIndex("root.pxar.didx");
        assertTrue(d instanceof DynamicIndex);
        assertEquals(7777, d.size());
        IOException e = assertThrows(IOException.class, () -> r.readBlob("nope.blob"));
        assertEquals("archive 'nope.blob' not found in snapshot vm/100/2023-11-14T22:13:20Z", e.getMessage());
        assertThrows(IOException.class, () -> r.readBlob("client.log.blob"), "client log is not in the manifest");
    }

    @Test
    void closeWithoutCommitLeavesNothing() throws IOException {
        BackupSnapshotRef ref = snap("ct/300", T);
        try (SnapshotWriter w = ds.beginSnapshot(ref, OWNER)) {
            w.addBlob("pct.conf.blob", DataBlob.encode(CONF, 0, CONF.length, false));
            w.addDynamicIndex("root.pxar.didx", dynamicIndex(3));
            assertTrue(Files.isDirectory(w.dir()));
            assertEquals(List.of(), ds.listSnapshots(ref.group()), "temp dir is not listed");
        }
        assertFalse(Files.exists(ds.groupDir(ref.group())), "new group removed on abort");
        assertFalse(Files.exists(ds.root().resolve("ct")), "type directory created by the writer removed too");
        assertFalse(ds.listGroups(BackupNamespace.ROOT).contains(ref.group()));
        assertEquals(0, DatastoreLock.sharedHolders(ds.root()));

        // existing group: aborting keeps the group and its snapshot, removes only the temp dir
        BackupSnapshotRef first = commitSimple(snap("vm/310", T));
        SnapshotWriter w = ds.beginSnapshot(snap("vm/310", T + 60), OWNER);
        w.addBlob("qemu-server.conf.blob", DataBlob.encode(CONF, 0, CONF.length, true));
        w.abort();
        w.close();
        assertEquals(Set.of("2023-11-14T22:13:20Z", "owner"), names(ds.groupDir(first.group())));
        assertThrows(IllegalStateException.class,
                () -> w.addBlob("x.blob", DataBlob.encode(CONF, 0, CONF.length, true)));
    }

    @Test
    void ownerMismatchIsRefused() throws IOException {
        BackupSnapshotRef ref = commitSimple(snap("vm/101", T));
        IOException e = assertThrows(IOException.class, () -> ds.beginSnapshot(snap("vm/101", T + 10), "other@pbs"));
        assertEquals("backup owner check failed (other@pbs != root@pam)", e.getMessage());
        assertEquals(Set.of("2023-11-14T22:13:20Z", "owner"), names(ds.groupDir(ref.group())));
        assertThrows(IllegalArgumentException.class, () -> ds.beginSnapshot(snap("vm/101", T + 10), "no-realm"));
        commitSimple(snap("vm/101", T + 10)); // same owner works; token owners are valid too
        commitSimple(snap("vm/102", T)).group();
    }

    /**
     * A group whose owner file is gone but which still holds snapshots must not be adopted by
     * the next writer (that gave any Backup user the old snapshots); PBS refuses such a backup
     * because it cannot read the owner. A group without owner and without snapshots (a killed
     * first backup) is still taken over.
     */
    @Test
    void groupWithSnapshotsButNoOwnerIsNotAdopted() throws IOException {
        BackupSnapshotRef ref = commitSimple(snap("vm/190", T));
        Files.delete(ds.groupDir(ref.group()).resolve("owner"));
        IOException e = assertThrows(IOException.class, () -> ds.beginSnapshot(snap("vm/190", T + 10), "other@pbs"));
        assertEquals("backup group vm/190 has no owner", e.getMessage());
        assertEquals(Set.of("2023-11-14T22:13:20Z"), names(ds.groupDir(ref.group())), "nothing written");

        Path empty = ds.groupDir(snap("vm/191", T).group());
        Files.createDirectories(empty);
        commitSimple(snap("vm/191", T));
        assertEquals("root@pam", ds.owner(snap("vm/191", T).group()));
    }

    @Test
    void timeMustBeNewerThanLastFinished() throws IOException {
        commitSimple(snap("vm/103", T));
        for (long t : new long[] {T, T - 1, T - 86400}) {
            IOException e = assertThrows(IOException.class, () -> ds.beginSnapshot(snap("vm/103", t), OWNER));
            assertEquals("backup timestamp is older than last backup.", e.getMessage());
        }
        assertEquals(0, DatastoreLock.sharedHolders(ds.root()), "failed begin releases the lock");
        commitSimple(snap("vm/103", T + 1));
        assertEquals(2, ds.listSnapshots(BackupGroupRef.parse(BackupNamespace.ROOT, "vm/103")).size());
    }

    @Test
    void secondConcurrentWriterOnAGroupFails() throws IOException {
        try (SnapshotWriter w = ds.beginSnapshot(snap("vm/104", T), OWNER)) {
            LockedException e = assertThrows(LockedException.class, () -> ds.beginSnapshot(snap("vm/104", T + 5), OWNER));
            assertTrue(e.getMessage().startsWith("backup group vm/104 is locked by "), e.getMessage());
            try (SnapshotWriter other = ds.beginSnapshot(snap("vm/105", T), OWNER)) {
                assertEquals(2, DatastoreLock.sharedHolders(ds.root()), "writers of different groups run together");
                other.abort();
            }
            w.addBlob("a.blob", DataBlob.encode(CONF, 0, CONF.length, true));
            w.commit(new BackupManifest(BackupType.VM, "104", T));
        }
        commitSimple(snap("vm/104", T + 5));
    }

    @Test
    void garbageCollectionLockKeepsWritersOut() throws IOException {
        try (DatastoreLock gc = DatastoreLock.exclusive(ds.root())) {
            LockedException e = assertThrows(LockedException.class, () -> ds.beginSnapshot(snap("vm/111", T), OWNER));
            assertEquals("datastore " + ds.root().toRealPath() + " is locked by garbage collection in this process",
                    e.getMessage());
            assertTrue(gc.isExclusive());
        }
        assertFalse(Files.exists(ds.groupDir(BackupGroupRef.parse(BackupNamespace.ROOT, "vm/111"))));
        commitSimple(snap("vm/111", T));
    }

    @Test
    void namespacesAreRequiredAndListedRecursively() throws IOException {
        BackupNamespace ns = BackupNamespace.parse("prod/sub");
        IOException e = assertThrows(IOException.class,
                () -> ds.beginSnapshot(new BackupSnapshotRef(new BackupGroupRef(ns, BackupType.HOST, "web"), T), OWNER));
        assertEquals("namespace not found", e.getMessage());
        ds.createNamespace(ns);
        BackupSnapshotRef ref = new BackupSnapshotRef(new BackupGroupRef(ns, BackupType.HOST, "web"), T);
        try (SnapshotWriter w = ds.beginSnapshot(ref, "bench@pbs!t1")) {
            w.addDynamicIndex("root.pxar.didx", dynamicIndex(9));
            w.commit(new BackupManifest(BackupType.HOST, "web", T));
        }
        assertTrue(Files.isDirectory(ds.root().resolve("ns/prod/ns/sub/host/web/2023-11-14T22:13:20Z")));
        List<BackupNamespace> all = ds.listNamespaces();
        assertEquals(BackupNamespace.ROOT, all.get(0));
        assertTrue(all.containsAll(List.of(BackupNamespace.parse("prod"), ns)), all.toString());
        assertEquals(List.of(ref.group()), ds.listGroups(ns));
        assertEquals(List.of(), ds.listGroups(BackupNamespace.parse("prod")));
        assertEquals("bench@pbs!t1", ds.owner(ref.group()));
    }

    @Test
    void protectedSnapshotsAndRemoval() throws IOException {
        BackupSnapshotRef a = commitSimple(snap("vm/106", T));
        BackupSnapshotRef b = commitSimple(snap("vm/106", T + 3600));
        ds.setProtected(a, true);
        assertTrue(ds.isProtected(a));
        assertTrue(ds.listSnapshots(a.group()).get(0).isProtected());
        IOException e = assertThrows(IOException.class, () -> ds.removeSnapshot(a));
        assertEquals("cannot remove protected snapshot vm/106/2023-11-14T22:13:20Z", e.getMessage());
        ds.setProtected(a, false);
        ds.removeSnapshot(a);
        assertEquals(List.of(b), ds.listSnapshots(b.group()).stream().map(SnapshotInfo::ref).toList());
        assertEquals(Set.of("2023-11-14T23:13:20Z", "owner"), names(ds.groupDir(b.group())));
        Files.writeString(ds.groupDir(b.group()).resolve("notes"), "group notes");
        ds.removeSnapshot(b);
        assertFalse(Files.exists(ds.groupDir(b.group())), "group removed with its last snapshot");
        assertThrows(java.nio.file.NoSuchFileException.class, () -> ds.removeSnapshot(b));
    }

    @Test
    void staleTempDirsAreCleanedUp() throws IOException {
        BackupSnapshotRef ref = commitSimple(snap("vm/107", T));
        Path gdir = ds.groupDir(ref.group());
        Path stale = Files.createDirectory(gdir.resolve(".tmp-2023-11-14T23:00:00Z-crashed1"));
        Files.writeString(stale.resolve("drive-scsi0.img.fidx"), "partial");
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minusSeconds(48 * 3600)));
        Path fresh = Files.createDirectory(gdir.resolve(".tmp-2023-11-14T23:30:00Z-running1"));
        assertEquals(1, ds.listSnapshots(ref.group()).size(), "temp dirs are not snapshots");
        assertEquals(1, ds.cleanupStaleTempDirs());
        assertFalse(Files.exists(stale));
        assertTrue(Files.exists(fresh));
        Files.delete(fresh);
    }

    @Test
    void manifestWithFilesMustMatchAndEmptyBackupsAreRefused() throws IOException {
        BackupSnapshotRef ref = snap("vm/108", T);
        try (SnapshotWriter w = ds.beginSnapshot(ref, OWNER)) {
            IOException e = assertThrows(IOException.class, () -> w.commit(new BackupManifest(BackupType.VM, "108", T)));
            assertEquals("backup does not contain valid files (file count == 0)", e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> w.commit(new BackupManifest(BackupType.VM, "108", T + 1)));
            assertThrows(IllegalArgumentException.class, () -> w.addBlob("x.fidx", DataBlob.encode(CONF, 0, 3, false)));
            assertThrows(IllegalArgumentException.class, () -> w.addBlob("index.json.blob", DataBlob.encode(CONF, 0, 3, false)));
            assertThrows(IllegalArgumentException.class, () -> w.addBlob("../x.blob", DataBlob.encode(CONF, 0, 3, false)));
            FixedIndex fidx = fixedIndex(20);
            w.addFixedIndex("drive-scsi0.img.fidx", fidx);
            assertThrows(IllegalArgumentException.class, () -> w.addFixedIndex("drive-scsi0.img.fidx", fidx));

            BackupManifest wrong = new BackupManifest(BackupType.VM, "108", T);
            wrong.addFile(new FileEntry("drive-scsi0.img.fidx", CryptMode.ENCRYPT, fidx.size() + 1, fidx.computeCsum()));
            e = assertThrows(IOException.class, () -> w.commit(wrong));
            assertTrue(e.getMessage().contains("does not match"), e.getMessage());

            BackupManifest right = new BackupManifest(BackupType.VM, "108", T);
            right.addFile(new FileEntry("drive-scsi0.img.fidx", CryptMode.ENCRYPT, fidx.size(), fidx.computeCsum()));
            right.unprotected().put("key-fingerprint", "aa:bb");
            w.commit(right);
        }
        SnapshotReader r = ds.openSnapshot(ref);
        assertEquals(CryptMode.ENCRYPT, r.manifest().files().get(0).cryptMode(), "caller's crypt mode kept");
        assertEquals("aa:bb", r.manifest().unprotected().get("key-fingerprint").asText());
    }

    @Test
    void readerDetectsFilesThatDoNotMatchTheManifest() throws IOException {
        BackupSnapshotRef ref = commitSimple(snap("vm/109", T));
        Path fidx = ds.snapshotDir(ref).resolve("drive-scsi0.img.fidx");
        byte[] b = Files.readAllBytes(fidx);
        b[4096 + 5] ^= 0x40; // flip a bit in the first digest
        Files.write(fidx, b);
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> ds.openSnapshot(ref).openIndex("drive-scsi0.img.fidx"));
        assertTrue(e.getMessage().contains("drive-scsi0.img.fidx") && e.getMessage().contains("csum"), e.getMessage());

        Path blob = ds.snapshotDir(ref).resolve("qemu-server.conf.blob");
        byte[] raw = Files.readAllBytes(blob);
        raw[raw.length - 1] ^= 1;
        Files.write(blob, raw);
        e = assertThrows(CorruptDataException.class, () -> ds.openSnapshot(ref).readBlob("qemu-server.conf.blob"));
        assertTrue(e.getMessage().contains("qemu-server.conf.blob"), e.getMessage());

        IOException io = assertThrows(IOException.class, () -> ds.openSnapshot(ref).openIndex("qemu-server.conf.blob"));
        assertTrue(io.getMessage().contains("not an index"), io.getMessage());
        Files.delete(ds.snapshotDir(ref).resolve("index.json.blob"));
        assertFalse(ds.listSnapshots(ref.group()).get(0).finished());
        assertTrue(ds.lastFinishedSnapshot(ref.group()).isEmpty());
        io = assertThrows(IOException.class, () -> ds.openSnapshot(ref));
        assertTrue(io.getMessage().contains("not finished"), io.getMessage());
    }
}
