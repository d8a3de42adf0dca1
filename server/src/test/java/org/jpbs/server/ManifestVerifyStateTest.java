package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.tuning.ChunkOrder;
import org.jpbs.datastore.verify.SnapshotVerifyResult;
import org.jpbs.datastore.verify.Verifier;
import org.jpbs.datastore.verify.VerifyOptions;
import org.jpbs.datastore.verify.VerifyReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 7: {@code unprotected.verify_state} belongs to the server. A client that
 * uploads a manifest claiming {@code "state": "ok"} through the backup protocol does not get it
 * stored, so {@code verify --ignore-verified} (the {@link Verifier} with {@code ignoreVerified})
 * still verifies the snapshot and finds its missing chunk; the client's other unprotected keys
 * (notes) are kept.
 */
class ManifestVerifyStateTest {
    private static final long T = 1_700_000_000L;
    private static final String FORGED_UPID = "UPID:pbs:00000001:00000001:00000000:6553F100:verify:store1:root@pam:";

    @TempDir
    Path tmp;

    @Test
    void uploadedVerifyStateIsDroppedAndIgnoreVerifiedStillVerifies() throws Exception {
        BackupSnapshotRef ref = new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "300"), T);
        List<EncodedChunk> chunks;
        try (TestServer s = TestServer.start(tmp, "store1")) {
            byte[] img = Backups.image(7, 2, 1000);
            chunks = Backups.fixedChunks(img);
            try (PbsTestClient c = s.backup(Backups.backupQuery("store1", "300", T))) {
                PbsTestClient.Resp r = c.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=" + img.length);
                assertEquals(200, r.status(), r.toString());
                int wid = r.data().asInt();
                Backups.uploadAll(c, "fixed", wid, chunks);
                List<String> digests = new ArrayList<>();
                List<Long> offsets = new ArrayList<>();
                for (int i = 0; i < chunks.size(); i++) {
                    digests.add(chunks.get(i).digest().hex());
                    offsets.add((long) i * 4 * 1024 * 1024);
                }
                r = c.json("PUT", "/fixed_index", Map.of("wid", wid, "digest-list", digests, "offset-list", offsets));
                assertEquals("{\"data\":null}", r.text());
                Digest csum = Backups.fixedCsum(chunks.stream().map(EncodedChunk::digest).toList());
                r = c.call("POST", "/fixed_close?chunk-count=" + chunks.size() + "&csum=" + csum.hex() + "&size="
                        + img.length + "&wid=" + wid);
                assertEquals("{\"data\":null}", r.text());

                BackupManifest m = new BackupManifest(BackupType.VM, "300", T);
                m.addFile(new FileEntry("disk.img.fidx", CryptMode.NONE, img.length, csum));
                ObjectNode forged = m.unprotected().putObject("verify_state");
                forged.put("state", "ok");
                forged.put("upid", FORGED_UPID);
                m.unprotected().put("notes", "client notes stay");
                DataBlob mb = m.toBlob();
                r = c.upload("/blob?encoded-size=" + mb.rawLength() + "&file-name=index.json.blob", mb.raw());
                assertEquals("{\"data\":null}", r.text());
                r = c.call("POST", "/finish");
                assertEquals("{\"data\":null}", r.text(), "a real client's upload is not refused");
            }
            s.awaitIdle();
        }

        Datastore ds = Datastore.open(tmp.resolve("ds-store1"));
        ObjectNode stored = ds.openSnapshot(ref).manifest().unprotected();
        assertFalse(stored.has("verify_state"), "stored manifest: " + stored);
        assertEquals("client notes stay", stored.path("notes").asText());
        assertTrue(stored.has("chunk_upload_stats"));
        String raw = new String(Files.readAllBytes(ds.snapshotDir(ref).resolve("index.json.blob")),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertFalse(raw.contains(FORGED_UPID), "the forged UPID is nowhere in the stored manifest");

        // damage the snapshot: verify --ignore-verified must look at it and find the missing chunk
        Files.delete(((DirectoryChunkStore) ds.chunkStore()).chunkPath(chunks.get(0).digest()));
        VerifyOptions opts = new VerifyOptions(true, null, 1, ChunkOrder.NONE, Instant.now());
        VerifyReport report;
        try (Verifier v = new Verifier(ds, opts, "root@pam", new Verifier.Listener() {})) {
            report = v.verify(List.of(ref));
        }
        assertEquals(1, report.results().size());
        SnapshotVerifyResult result = report.results().get(0);
        assertEquals(SnapshotVerifyResult.State.FAILED, result.state(), "verified, not skipped: " + result);
        assertEquals("failed", ds.openSnapshot(ref).manifest().unprotected().path("verify_state").path("state").asText());
    }
}
