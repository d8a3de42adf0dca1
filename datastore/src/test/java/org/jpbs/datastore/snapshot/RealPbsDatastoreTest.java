package org.jpbs.datastore.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.EncryptedDataException;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.chunks.ChunkStore;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.lock.DatastoreLock;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the datastore written by a real PBS 3.1.2 ({@code vectors/real-pbs/datastore.tar.gz},
 * see its README) and checks listing, manifests, indexes, blobs and chunk contents.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealPbsDatastoreTest {
    static final String OWNER = "bench@pbs!t1";
    static final long T1 = 1_700_000_000L;
    static final long T2 = 1_700_003_600L;
    static final BackupNamespace PROD = BackupNamespace.parse("prod");
    static final BackupGroupRef VM100 = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "100");
    static final BackupGroupRef VM200 = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "200");
    static final BackupGroupRef WEB = new BackupGroupRef(PROD, BackupType.HOST, "web");

    @TempDir
    static Path tmp;
    static Datastore ds;

    @BeforeAll
    static void untar() throws Exception {
        Path tar = SharedVectors.require("vectors/real-pbs/datastore.tar.gz");
        Process p = new ProcessBuilder("tar", "-xzf", tar.toString(), "-C", tmp.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "tar failed: " + out);
        ds = Datastore.open(tmp.resolve("golden-ds"), SyncLevel.NONE);
    }

    static BackupSnapshotRef snap(BackupGroupRef g, long t) {
        return new BackupSnapshotRef(g, t);
    }

    /** The decoded bytes an index describes, read chunk by chunk from the store. */
    static byte[] restore(IndexFile idx) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < idx.chunkCount(); i++) {
            out.write(ds.chunkStore().readChunk(idx.digest(i), idx.chunkLength(i)));
        }
        return out.toByteArray();
    }

    @Test
    @Order(1)
    void listsNamespacesGroupsAndOwners() throws IOException {
        assertEquals(List.of(BackupNamespace.ROOT, PROD), ds.listNamespaces());
        assertEquals(List.of(VM100, VM200), ds.listGroups(BackupNamespace.ROOT));
        assertEquals(List.of(WEB), ds.listGroups(PROD));
        for (BackupGroupRef g : List.of(VM100, VM200, WEB)) {
            assertEquals(OWNER, ds.owner(g), g.toString());
        }
    }

    @Test
    @Order(2)
    void listsSnapshotsWithProtectionAndSizes() throws IOException {
        List<SnapshotInfo> vm100 = ds.listSnapshots(VM100);
        assertEquals(List.of(snap(VM100, T1), snap(VM100, T2)), vm100.stream().map(SnapshotInfo::ref).toList());
        assertTrue(vm100.get(0).isProtected(), "vm/100/2023-11-14T22:13:20Z is protected");
        assertFalse(vm100.get(1).isProtected());
        assertTrue(ds.isProtected(snap(VM100, T1)));
        for (SnapshotInfo s : vm100) {
            assertTrue(s.finished());
            assertEquals(List.of("qemu-server.conf.blob", "drive-scsi0.img.fidx"),
                    s.files().stream().map(FileEntry::filename).toList());
            assertEquals(91 + 9_449_529L, s.totalSize());
        }
        List<SnapshotInfo> vm200 = ds.listSnapshots(VM200);
        assertEquals(1, vm200.size());
        assertEquals(CryptMode.ENCRYPT, vm200.get(0).files().get(0).cryptMode());
        List<SnapshotInfo> web = ds.listSnapshots(WEB);
        assertEquals(List.of(snap(WEB, T1)), web.stream().map(SnapshotInfo::ref).toList());
        assertEquals(310_323L + 189L, web.get(0).totalSize());
        assertEquals(snap(VM100, T2), ds.lastFinishedSnapshot(VM100).orElseThrow());
    }

    @Test
    @Order(3)
    void everyManifestIndexAndBlobChecksOut() throws IOException {
        int indexes = 0;
        for (BackupNamespace ns : ds.listNamespaces()) {
            for (BackupGroupRef g : ds.listGroups(ns)) {
                for (SnapshotInfo s : ds.listSnapshots(g)) {
                    SnapshotReader r = ds.openSnapshot(s.ref());
                    BackupManifest m = r.manifest();
                    assertEquals(g.type(), m.backupType());
                    assertEquals(g.id(), m.backupId());
                    for (FileEntry f : m.files()) {
                        if (f.filename().endsWith(".blob")) {
                            assertNotNull(r.readBlob(f.filename()));
                            continue;
                        }
                        IndexFile idx = r.openIndex(f.filename());
                        assertTrue(f.filename().endsWith(".fidx") ? idx instanceof FixedIndex : idx instanceof DynamicIndex);
                        assertEquals(f.size(), idx.size());
                        assertEquals(f.csum(), idx.computeCsum());
                        for (int i = 0; i < idx.chunkCount(); i++) {
                            assertTrue(ds.chunkStore().exists(idx.digest(i)), "chunk " + idx.digest(i) + " of " + f);
                        }
                        indexes++;
                    }
                }
            }
        }
        assertEquals(5, indexes, "index-file-count of .gc-status");
    }

    @Test
    @Order(4)
    void vmConfigImageAndNotes() throws Exception {
        SnapshotReader first = ds.openSnapshot(snap(VM100, T1));
        String conf = new String(first.readBlob("qemu-server.conf.blob"), StandardCharsets.UTF_8);
        assertEquals(List.of("boot: order=scsi0", "memory: 2048", "scsi0: local:100/vm-100-disk-0.raw,size=9449529"),
                conf.lines().toList());

        byte[] image = restore(first.openIndex("drive-scsi0.img.fidx"));
        assertEquals(9_449_529, image.length);
        assertEquals("b6b0ecf32d75d98ac9e9784c8aa635262b9a4d7874f29d26bee69ef17f8386ed",
                Digest.of(MessageDigest.getInstance("SHA-256").digest(image)).hex(), "INPUT/image restored");

        SnapshotReader second = ds.openSnapshot(snap(VM100, T2));
        assertEquals("second snapshot, CHANGED at 4 MiB", second.manifest().unprotected().get("notes").asText());
        byte[] changed = restore(second.openIndex("drive-scsi0.img.fidx"));
        assertEquals("CHANGED\n", new String(changed, 4 << 20, 8, StandardCharsets.US_ASCII));
        assertArrayEquals(Arrays.copyOf(image, 4 << 20), Arrays.copyOf(changed, 4 << 20));
    }

    @Test
    @Order(5)
    void pxarArchiveMatchesTheCapture() throws IOException {
        SnapshotReader r = ds.openSnapshot(snap(WEB, T1));
        byte[] pxar = restore(r.openIndex("root.pxar.didx"));
        Path captured = SharedVectors.require("vectors/real-client/pxar/tree.pxar");
        assertArrayEquals(Files.readAllBytes(captured), pxar);
        assertEquals(189, restore(r.openIndex("catalog.pcat1.didx")).length);
    }

    @Test
    @Order(6)
    void encryptedSnapshotNeedsAKey() throws IOException {
        SnapshotReader r = ds.openSnapshot(snap(VM200, T1));
        assertNotNull(r.manifest().signature(), "encrypted manifest is signed");
        assertTrue(r.manifest().unprotected().has("key-fingerprint"));
        IndexFile idx = r.openIndex("drive-scsi0.img.fidx");
        DataBlob chunk = ds.chunkStore().read(idx.digest(0));
        assertTrue(chunk.isEncrypted());
        EncryptedDataException e = assertThrows(EncryptedDataException.class,
                () -> ds.chunkStore().readChunk(idx.digest(0), idx.chunkLength(0)));
        assertTrue(e.getMessage().endsWith(": encrypted, key needed"), e.getMessage());
    }

    @Test
    @Order(100)
    void jpbsWritesIntoThePbsDatastore() throws IOException {
        IOException e = assertThrows(IOException.class, () -> ds.beginSnapshot(snap(VM100, T2), OWNER));
        assertEquals("backup timestamp is older than last backup.", e.getMessage());
        e = assertThrows(IOException.class, () -> ds.beginSnapshot(snap(VM100, T2 + 3600), "root@pam"));
        assertEquals("backup owner check failed (root@pam != bench@pbs!t1)", e.getMessage());

        // an incremental snapshot re-using the chunks of the last one
        SnapshotReader last = ds.openSnapshot(snap(VM100, T2));
        FixedIndex idx = (FixedIndex) last.openIndex("drive-scsi0.img.fidx");
        ChunkStore cs = ds.chunkStore();
        for (int i = 0; i < idx.chunkCount(); i++) {
            ChunkStore.InsertResult res = cs.insert(idx.digest(i), cs.read(idx.digest(i)));
            assertTrue(res.duplicate());
        }
        BackupSnapshotRef ref = snap(VM100, T2 + 3600);
        try (SnapshotWriter w = ds.beginSnapshot(ref, OWNER)) {
            w.addBlob("qemu-server.conf.blob", last.openBlob("qemu-server.conf.blob"));
            w.addFixedIndex("drive-scsi0.img.fidx", idx);
            w.commit(new BackupManifest(BackupType.VM, "100", ref.time()));
        }
        assertEquals(3, ds.listSnapshots(VM100).size());
        SnapshotReader r = ds.openSnapshot(ref);
        assertEquals(last.manifest().files(), r.manifest().files(), "same files, sizes and checksums");
        assertEquals(0, DatastoreLock.sharedHolders(ds.root()));
    }
}
