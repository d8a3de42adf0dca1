package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32;
import org.jpbs.core.FileFormats;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 3 through the server's {@code fixed_chunk} upload path: one session plants an
 * unverifiable "encrypted" 61-byte blob under the digest of plain data another group backs up
 * later; the victim's verified plain upload replaces it (and is counted as stored, not as a
 * duplicate), so its restore works without a key. The reverse direction: an encrypted upload
 * under the digest of a stored plain chunk is refused with 400 and the plain chunk is kept.
 */
class ChunkPoisoningTest {
    private static final long T = 1_700_000_000L;

    @TempDir
    Path tmp;

    /** A structurally valid encrypted+compressed blob of {@code n} bytes of random "ciphertext". */
    static byte[] fakeEncrypted(long seed, int n) {
        byte[] raw = new byte[FileFormats.ENCRYPTED_BLOB_HEADER_SIZE + n];
        FileFormats.putMagic(raw, 0, FileFormats.ENCR_COMPR_BLOB_MAGIC);
        byte[] rest = Backups.random(seed, 32 + n);
        System.arraycopy(rest, 0, raw, 12, rest.length);
        CRC32 crc = new CRC32();
        crc.update(raw, FileFormats.ENCRYPTED_BLOB_HEADER_SIZE, n);
        int c = (int) crc.getValue();
        for (int i = 0; i < 4; i++) {
            raw[8 + i] = (byte) (c >>> (8 * i));
        }
        return raw;
    }

    @Test
    void verifiedPlainUploadReplacesPlantedEncryptedBlob() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            byte[] img = Backups.image(7, 2, 5000);
            List<EncodedChunk> victimChunks = Backups.fixedChunks(img);
            EncodedChunk target = victimChunks.get(0);
            byte[] poison = fakeEncrypted(99, 61 - FileFormats.ENCRYPTED_BLOB_HEADER_SIZE);
            try (PbsTestClient attacker = s.backup(Backups.backupQuery("store1", "666", T))) {
                PbsTestClient.Resp r = attacker.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=" + img.length);
                int wid = r.data().asInt();
                r = attacker.call("POST", "/fixed_chunk?digest=" + target.digest().hex() + "&encoded-size=" + poison.length
                        + "&size=" + target.size() + "&wid=" + wid, "application/octet-stream", poison);
                assertEquals(200, r.status(), "the server cannot tell a planted encrypted chunk from a real one: " + r);
            }
            s.awaitIdle();
            Datastore ds = s.ds("store1");
            Path chunkFile = ((DirectoryChunkStore) ds.chunkStore()).chunkPath(target.digest());
            assertEquals(61, Files.size(chunkFile), "the poison is in place");

            Backups.imageBackup(s, "store1", "200", T, img);
            s.awaitIdle();
            SnapshotReader victim = ds.openSnapshot(BackupProtocolTest.vm("200", T));
            JsonNode stats = victim.manifest().unprotected().get("chunk_upload_stats");
            assertEquals(0, stats.get("duplicates").asInt(), "the mismatched copy was not reported as stored");
            assertArrayEquals(target.blob().raw(), Files.readAllBytes(chunkFile), "verified plain chunk replaced the poison");
            assertArrayEquals(img, RealClientReplayTest.restore(ds, victim, "disk.img.fidx"), "restores without a key");
            assertEquals(0, tmpFiles(chunkFile.getParent()));

            // reverse: an encrypted upload under the digest of a stored plain chunk is refused
            try (PbsTestClient attacker = s.backup(Backups.backupQuery("store1", "667", T))) {
                PbsTestClient.Resp r = attacker.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=" + img.length);
                int wid = r.data().asInt();
                r = attacker.call("POST", "/fixed_chunk?digest=" + target.digest().hex() + "&encoded-size=" + poison.length
                        + "&size=" + target.size() + "&wid=" + wid, "application/octet-stream", poison);
                assertEquals(400, r.status(), r.toString());
                assertTrue(r.text().contains("refusing to overwrite an existing unencrypted chunk with an encrypted one"), r.text());
                assertFalse(r.text().contains(tmp.toString()), "no server path in the answer: " + r.text());
            }
            s.awaitIdle();
            assertArrayEquals(target.blob().raw(), Files.readAllBytes(chunkFile), "plain chunk kept");
            assertArrayEquals(img, RealClientReplayTest.restore(ds, ds.openSnapshot(BackupProtocolTest.vm("200", T)),
                    "disk.img.fidx"));
        }
    }

    private static long tmpFiles(Path dir) throws java.io.IOException {
        try (var st = Files.list(dir)) {
            return st.filter(p -> p.getFileName().toString().contains(".tmp_")).count();
        }
    }

}
