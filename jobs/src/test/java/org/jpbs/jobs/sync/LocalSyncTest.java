package org.jpbs.jobs.sync;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jpbs.testkit.DatastorePool;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.LocalSnapshotSource;
import org.jpbs.datastore.snapshot.LocalSnapshotTarget;
import org.jpbs.testkit.ShmTempDirs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sync engine between two local datastores (the same {@link SyncJob} runs pull and push
 * over the network, see the cli module's SyncServersTest): every chunk on the first run, only new
 * chunks after an incremental backup, none on a re-sync; encrypted snapshots copied as stored
 * with byte-identical manifests; group-filter, transfer-last, remove-vanished, namespaces and
 * max-depth, encrypted-only, a locked target group. The tests that add to the shared source run
 * last, in their own namespaces.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalSyncTest {
    static final BackupNamespace ROOT = BackupNamespace.ROOT;
    static final BackupNamespace NS_A = BackupNamespace.parse("a");
    static final BackupGroupRef VM100 = new BackupGroupRef(ROOT, BackupType.VM, "100");
    static final BackupGroupRef CT200 = new BackupGroupRef(ROOT, BackupType.CT, "200");
    static final BackupGroupRef VM300 = new BackupGroupRef(NS_A, BackupType.VM, "300");
    static final long T1 = 1_700_000_000L;

    @TempDir(factory = ShmTempDirs.class)
    static Path shared;
    static Datastore src;

    @TempDir(factory = ShmTempDirs.class)
    Path tmp;
    Datastore dst;

    /** One source for all tests (a datastore is slow to create); tests that change it use their own groups. */
    @BeforeAll
    static void source() throws IOException {
        src = DatastorePool.datastore(shared.resolve("src"), SyncLevel.NONE);
        src.createNamespace(NS_A);
        SyncFixtures.backup(src, new BackupSnapshotRef(VM100, T1), SyncFixtures.image(shared, 1, 5, 0, 0), null);
        SyncFixtures.backup(src, new BackupSnapshotRef(VM100, T1 + 100), SyncFixtures.image(shared, 1, 5, 2, 1), null);
        SyncFixtures.backup(src, new BackupSnapshotRef(CT200, T1), SyncFixtures.image(shared, 3, 1, 0, 0), null);
        SyncFixtures.backup(src, new BackupSnapshotRef(VM300, T1), SyncFixtures.image(shared, 4, 2, 0, 0),
                SyncFixtures.key(7));
    }

    @BeforeEach
    void target() throws IOException {
        dst = DatastorePool.datastore(tmp.resolve("dst"), SyncLevel.NONE);
    }

    private SyncStats sync(SyncOptions o, SyncFixtures.MemLog log) throws Exception {
        try {
            return new SyncJob(new LocalEndpoint("src", src), new LocalEndpoint("dst", dst), o, log, 2, 4).run();
        } catch (IOException e) {
            throw new AssertionError(e.getMessage() + "\n" + log.text(), e);
        }
    }

    static SyncOptions opts() {
        return new SyncOptions(false, ROOT, ROOT, 7, List.of(), false, 0, "root@pam", false, false, false, null, null);
    }

    private long distinctChunks(Datastore ds) throws IOException {
        try (var s = Files.walk(ds.root().resolve(".chunks"))) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    @Test
    @Order(1)
    void firstRunCopiesEverythingIncrementalOnlyNewChunksResyncNothing() throws Exception {
        SyncFixtures.MemLog log = new SyncFixtures.MemLog();
        SyncStats first = sync(opts(), log);
        assertEquals(4, first.snapshots(), log.text());
        assertEquals(distinctChunks(src), first.chunks(), "every chunk crosses once");
        assertEquals(distinctChunks(src), distinctChunks(dst));
        for (BackupSnapshotRef r : List.of(new BackupSnapshotRef(VM100, T1), new BackupSnapshotRef(VM300, T1))) {
            try (LocalSnapshotSource a = LocalSnapshotSource.open(src, r); LocalSnapshotSource b = LocalSnapshotSource.open(dst, r)) {
                assertArrayEquals(a.manifestJson(), b.manifestJson(), "manifest of " + r);
                IndexFile idx = b.openIndex("disk.img.fidx");
                for (int i = 0; i < idx.chunkCount(); i++) {
                    Digest d = idx.digest(i);
                    assertArrayEquals(src.chunkStore().read(d).raw(), dst.chunkStore().read(d).raw(), "chunk stored as is");
                }
            }
        }
        assertTrue(dst.chunkStore().read(firstDigest(dst, new BackupSnapshotRef(VM300, T1))).isEncrypted());
        assertEquals(dst.owner(VM100), "root@pam");

        SyncStats third = sync(opts(), new SyncFixtures.MemLog());
        assertEquals(0, third.snapshots());
        assertEquals(0, third.chunks());
        assertEquals(4, third.skipped());
    }

    @Test
    @Order(10)
    void incrementalBackupTransfersOnlyItsNewChunks() throws Exception {
        BackupNamespace ns = BackupNamespace.parse("incr");
        src.createNamespace(ns);
        BackupGroupRef g = new BackupGroupRef(ns, BackupType.VM, "500");
        SyncFixtures.backup(src, new BackupSnapshotRef(g, T1), SyncFixtures.image(tmp, 5, 9, 0, 0), null);
        SyncOptions o = new SyncOptions(false, ns, ns, 0, List.of(), false, 0, "root@pam", false, false, false, null, null);
        assertEquals(3, sync(o, new SyncFixtures.MemLog()).chunks());
        SyncFixtures.backup(src, new BackupSnapshotRef(g, T1 + 200), SyncFixtures.image(tmp, 5, 9, 6, 1), null);
        SyncStats second = sync(o, new SyncFixtures.MemLog());
        assertEquals(1, second.snapshots());
        assertEquals(1, second.chunks(), "only the changed first chunk crosses");
        assertEquals(2, second.reusedChunks());
    }

    private static Digest firstDigest(Datastore ds, BackupSnapshotRef r) throws IOException {
        try (LocalSnapshotSource s = LocalSnapshotSource.open(ds, r)) {
            return s.openIndex("disk.img.fidx").digest(0);
        }
    }

    @Test
    @Order(1)
    void groupFilterIncludeExclude() throws Exception {
        SyncOptions o = new SyncOptions(false, ROOT, ROOT, 7,
                GroupFilter.parseList("type:vm,exclude:regex:^vm/[15]"), false, 0, "root@pam", false, false, false, null, null);
        SyncFixtures.MemLog log = new SyncFixtures.MemLog();
        assertEquals(1, sync(o, log).snapshots(), log.text());
        assertTrue(dst.listGroups(ROOT).isEmpty(), "vm/100 excluded, ct/200 not included");
        assertEquals(List.of(VM300), dst.listGroups(NS_A));
    }

    @Test
    @Order(1)
    void transferLastCopiesOnlyTheNewest() throws Exception {
        SyncOptions o = new SyncOptions(false, ROOT, ROOT, 0, List.of(), false, 1, "root@pam", false, false, false,
                null, null);
        sync(o, new SyncFixtures.MemLog());
        assertEquals(List.of(T1 + 100), dst.listSnapshots(VM100).stream().map(s -> s.ref().time()).toList());
        assertFalse(dst.namespaceExists(NS_A), "max-depth 0: only the top namespace");
    }

    @Test
    @Order(11)
    void removeVanishedRemovesSnapshotsGroupsAndNamespaces() throws Exception {
        BackupNamespace top = BackupNamespace.parse("rv");
        BackupNamespace sub = BackupNamespace.parse("rv/sub");
        src.createNamespace(sub);
        BackupGroupRef keep = new BackupGroupRef(top, BackupType.VM, "1");
        BackupGroupRef gone = new BackupGroupRef(top, BackupType.CT, "2");
        BackupGroupRef inSub = new BackupGroupRef(sub, BackupType.HOST, "h");
        Path img = SyncFixtures.image(tmp, 9, 1, 0, 0);
        for (BackupSnapshotRef r : List.of(new BackupSnapshotRef(keep, T1), new BackupSnapshotRef(keep, T1 + 1),
                new BackupSnapshotRef(gone, T1), new BackupSnapshotRef(inSub, T1))) {
            SyncFixtures.backup(src, r, img, null);
        }
        SyncOptions o = new SyncOptions(false, top, top, 7, List.of(), true, 0, "root@pam", false, false, false,
                null, null);
        assertEquals(4, sync(o, new SyncFixtures.MemLog()).snapshots());
        src.removeSnapshot(new BackupSnapshotRef(keep, T1));
        src.removeGroup(gone);
        src.removeNamespace(sub, true);
        SyncFixtures.MemLog log = new SyncFixtures.MemLog();
        SyncStats s = sync(o, log);
        assertEquals(List.of(T1 + 1), dst.listSnapshots(keep).stream().map(x -> x.ref().time()).toList());
        assertEquals(List.of(keep), dst.listGroups(top));
        assertFalse(dst.namespaceExists(sub), log.text());
        assertEquals(3, s.removed(), log.text());
        assertTrue(log.text().contains("delete vanished snapshot vm/1/"), log.text());
    }

    /**
     * As PBS's push: a namespace missing on the target is created only with Remote.DatastoreModify
     * of the job's owner on it; without, nothing is created nor sent there, the namespace's sync
     * fails with PBS's text, the others go on, and the run fails.
     */
    @Test
    @Order(0) // before any test adds groups to the shared source
    void aPushCreatesATargetNamespaceOnlyWithRemoteDatastoreModify() throws Exception {
        SyncOptions o = new SyncOptions(true, ROOT, BackupNamespace.parse("b"), 7, List.of(), false, 0, "root@pam",
                false, false, false, null, null);
        dst.createNamespace(BackupNamespace.parse("b"));
        List<String> asked = new java.util.ArrayList<>();
        TargetPrivileges noModifyBelowB = (ns, privilege) -> {
            asked.add(privilege + " " + ns);
            if (privilege.equals(TargetPrivileges.MODIFY) && !ns.equals(BackupNamespace.parse("b"))) {
                throw new IOException("missing permissions '" + privilege + "' on '/remote/r/dst/" + ns + "'");
            }
        };
        SyncFixtures.MemLog log = new SyncFixtures.MemLog();
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> new SyncJob(
                new LocalEndpoint("src", src), new LocalEndpoint("dst", dst), o, log, 2, 4)
                .targetPrivileges(noModifyBelowB).run());
        assertEquals("sync failed with some errors (1).", e.getMessage(), log.text());
        assertTrue(log.text().contains("sync namespace 'a' failed - Creating namespace not allowed - missing permissions "
                + "'Remote.DatastoreModify' on '/remote/r/dst/b/a'"), log.text());
        assertFalse(dst.namespaceExists(BackupNamespace.parse("b/a")), "not created");
        assertEquals(List.of("ct/200", "vm/100"), dst.listGroups(BackupNamespace.parse("b")).stream()
                .map(g -> g.type().text() + "/" + g.id()).sorted().toList(), "the root namespace was sent");
        assertTrue(asked.contains("Remote.DatastoreModify b/a"), asked.toString());
    }

    @Test
    @Order(1)
    void namespacesMapBelowTheTargetNamespace() throws Exception {
        SyncOptions o = new SyncOptions(false, NS_A, BackupNamespace.parse("b/c"), 7, List.of(), false, 0, "root@pam",
                false, false, false, null, null);
        sync(o, new SyncFixtures.MemLog());
        assertEquals(List.of(new BackupGroupRef(BackupNamespace.parse("b/c"), BackupType.VM, "300")),
                dst.listGroups(BackupNamespace.parse("b/c")));
        assertTrue(dst.listGroups(ROOT).isEmpty());
    }

    @Test
    @Order(1)
    void encryptedOnlySkipsPlainSnapshots() throws Exception {
        SyncOptions o = new SyncOptions(false, ROOT, ROOT, 7, List.of(), false, 0, "root@pam", true, false, false,
                null, null);
        SyncStats s = sync(o, new SyncFixtures.MemLog());
        assertEquals(1, s.snapshots());
        assertEquals(List.of(VM300), dst.listGroups(NS_A));
        assertTrue(dst.listGroups(ROOT).isEmpty());
    }

    @Test
    @Order(1)
    void lockedTargetGroupIsSkippedWithAWarningAndTheJobGoesOn() throws Exception {
        try (LocalSnapshotTarget holder = LocalSnapshotTarget.begin(dst, new BackupSnapshotRef(VM100, T1 - 50),
                "root@pam", true)) {
            SyncFixtures.MemLog log = new SyncFixtures.MemLog();
            SyncStats s = sync(opts(), log);
            assertEquals(2, s.snapshots(), log.text());
            assertEquals(1, log.warnings, log.text());
            assertTrue(log.text().contains("WARN: group vm/100 skipped: "), log.text());
        }
        assertEquals(2, sync(opts(), new SyncFixtures.MemLog()).snapshots(), "the next run completes it");
    }
}
