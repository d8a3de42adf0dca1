package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;

/** Client-side helpers that do what a PBS client does, for the protocol tests. */
final class Backups {
    static final int MIB4 = 4 * 1024 * 1024;

    private Backups() {}

    /** Seeded pseudo-random bytes. */
    static byte[] random(long seed, int len) {
        byte[] b = new byte[len];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** An image of {@code fullChunks} 4 MiB chunks (chunk 1 all zero) plus a {@code tail}-byte chunk. */
    static byte[] image(long seed, int fullChunks, int tail) {
        byte[] img = random(seed, fullChunks * MIB4 + tail);
        if (fullChunks > 1) {
            java.util.Arrays.fill(img, MIB4, 2 * MIB4, (byte) 0);
        }
        return img;
    }

    /** The 4 MiB-chunk split of an image, encoded (zstd when smaller). */
    static List<EncodedChunk> fixedChunks(byte[] img) {
        List<EncodedChunk> out = new ArrayList<>();
        for (int off = 0; off < img.length; off += MIB4) {
            out.add(EncodedChunk.encode(img, off, Math.min(MIB4, img.length - off), true));
        }
        return out;
    }

    /** Query of a chunk upload. */
    static String chunkQuery(String kind, int wid, EncodedChunk c) {
        return "/" + kind + "_chunk?digest=" + c.digest().hex() + "&encoded-size=" + c.blob().rawLength()
                + "&size=" + c.size() + "&wid=" + wid;
    }

    /** Fixed-index checksum: SHA-256 over the digests in order ({@code docs/protocol.md#closing-an-index}). */
    static Digest fixedCsum(List<Digest> digests) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        digests.forEach(d -> b.writeBytes(d.bytes()));
        return Digest.sha256(b.toByteArray());
    }

    /** Dynamic-index checksum: SHA-256 over (end u64 LE || digest) pairs ({@code docs/protocol.md#closing-an-index}). */
    static Digest dynamicCsum(long[] ends, List<Digest> digests) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(40 * ends.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < ends.length; i++) {
            b.putLong(ends[i]);
            b.put(digests.get(i).bytes());
        }
        return Digest.sha256(b.array());
    }

    /** Uploads all chunks with every request in flight at once; checks each answer. */
    static void uploadAll(PbsTestClient c, String kind, int wid, List<EncodedChunk> chunks) throws Exception {
        List<CompletableFuture<PbsTestClient.Resp>> fs = new ArrayList<>();
        for (EncodedChunk ch : chunks) {
            fs.add(c.request("POST", chunkQuery(kind, wid, ch), "application/octet-stream", ch.blob().raw()));
        }
        for (int i = 0; i < fs.size(); i++) {
            PbsTestClient.Resp r = fs.get(i).get(120, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(200, r.status(), r.toString());
            assertEquals(chunks.get(i).digest().hex(), r.data().asText());
        }
    }

    /** A manifest blob as the client uploads it (unprotected {}, unsigned). */
    static DataBlob manifest(BackupType type, String id, long time, List<FileEntry> files) {
        BackupManifest m = new BackupManifest(type, id, time);
        files.forEach(m::addFile);
        return m.toBlob();
    }

    /** Blob entry of the manifest. */
    static FileEntry blobEntry(String name, DataBlob blob) {
        return new FileEntry(name, CryptMode.NONE, blob.rawLength(), Digest.sha256(blob.raw()));
    }

    /**
     * A whole image backup as the real client does it: previous_backup_time, fixed_index,
     * parallel chunk uploads, one append with reversed offsets, close, a config blob, manifest,
     * finish. Returns the index csum.
     */
    static Digest imageBackup(TestServer s, String store, String id, long time, byte[] img) throws Exception {
        try (PbsTestClient c = s.backup(backupQuery(store, id, time))) {
            return imageBackup(c, id, time, img);
        }
    }

    /** The upgrade query of a vm backup. */
    static String backupQuery(String store, String id, long time) {
        return "backup-id=" + id + "&backup-time=" + time + "&backup-type=vm&benchmark=false&debug=true&store=" + store;
    }

    /** {@link #imageBackup(TestServer, String, String, long, byte[])} on a connected, upgraded client. */
    static Digest imageBackup(PbsTestClient c, String id, long time, byte[] img) throws Exception {
        {
            c.call("GET", "/previous_backup_time");
            List<EncodedChunk> chunks = fixedChunks(img);
            PbsTestClient.Resp r = c.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=" + img.length);
            assertEquals(200, r.status(), r.toString());
            int wid = r.data().asInt();
            uploadAll(c, "fixed", wid, chunks);
            List<String> digests = new ArrayList<>();
            List<Long> offsets = new ArrayList<>();
            for (int i = chunks.size() - 1; i >= 0; i--) {
                digests.add(chunks.get(i).digest().hex());
                offsets.add((long) i * MIB4);
            }
            r = c.json("PUT", "/fixed_index", Map.of("wid", wid, "digest-list", digests, "offset-list", offsets));
            assertEquals("{\"data\":null}", r.text());
            Digest csum = fixedCsum(chunks.stream().map(EncodedChunk::digest).toList());
            r = c.call("POST", "/fixed_close?chunk-count=" + chunks.size() + "&csum=" + csum.hex() + "&size="
                    + img.length + "&wid=" + wid);
            assertEquals("{\"data\":null}", r.text());
            byte[] conf = ("memory: 2048\nname: vm" + id + "\n").getBytes();
            DataBlob confBlob = DataBlob.encode(conf, 0, conf.length, true);
            r = c.upload("/blob?encoded-size=" + confBlob.rawLength() + "&file-name=qemu-server.conf.blob", confBlob.raw());
            assertEquals("{\"data\":null}", r.text());
            DataBlob m = manifest(BackupType.VM, id, time, List.of(blobEntry("qemu-server.conf.blob", confBlob),
                    new FileEntry("disk.img.fidx", CryptMode.NONE, img.length, csum)));
            r = c.upload("/blob?encoded-size=" + m.rawLength() + "&file-name=index.json.blob", m.raw());
            assertEquals("{\"data\":null}", r.text());
            r = c.call("POST", "/finish");
            assertEquals("{\"data\":null}", r.text());
            return csum;
        }
    }
}
