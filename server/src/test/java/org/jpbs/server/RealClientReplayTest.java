package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotReader;
import org.jpbs.core.testing.SharedVectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays the sessions the real {@code proxmox-backup-client} 3.1.2 recorded
 * ({@code vectors/real-client/<case>/requests.jsonl}): the upgrade as recorded (double-slash
 * path, space-form token header), then every HTTP/2 request in order with its query or JSON
 * body and the recorded chunk and blob bodies; every status and JSON answer must equal the
 * recording. Afterwards the snapshot must exist with the uploaded manifest's files, and
 * unencrypted archives must restore to the client's input.
 */
class RealClientReplayTest {
    private static final Path VECTORS = SharedVectors.root().resolve("vectors/real-client");
    private static final long T0 = 1_700_000_000L;
    private static final long T1 = 1_700_003_600L;

    @TempDir
    Path tmp;

    @BeforeEach
    void requireVectors() {
        SharedVectors.require("vectors/real-client");
    }

    private static BackupSnapshotRef ref(BackupType type, String id, long time) {
        return new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, type, id), time);
    }

    @Test
    void imgIncremental() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            // the plain backup first (what a test of its own would check), then the incremental one on top
            int plain = replay(s, "img-plain");
            SnapshotReader first = checkSnapshot(s.ds("store1"), ref(BackupType.VM, "100", T0), "img-plain", plain);
            assertArrayEquals(RealClientInputs.image(), restore(s.ds("store1"), first, "disk.img.fidx"));
            int uploads = replay(s, "img-incremental");
            assertEquals(1, uploads, "only the changed chunk is uploaded");
            SnapshotReader r = checkSnapshot(s.ds("store1"), ref(BackupType.VM, "100", T1), "img-incremental", uploads);
            assertArrayEquals(RealClientInputs.modifiedImage(), restore(s.ds("store1"), r, "disk.img.fidx"));
            SnapshotReader base = s.ds("store1").openSnapshot(ref(BackupType.VM, "100", T0));
            assertArrayEquals(RealClientInputs.image(), restore(s.ds("store1"), base, "disk.img.fidx"));
        }
    }

    @Test
    void dirIncremental() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            int plain = replay(s, "dir-plain");
            SnapshotReader first = checkSnapshot(s.ds("store1"), ref(BackupType.HOST, "cap", T0), "dir-plain", plain);
            assertArrayEquals(Files.readAllBytes(VECTORS.resolve("pxar/tree.pxar")),
                    restore(s.ds("store1"), first, "root.pxar.didx"));
            assertTrue(restore(s.ds("store1"), first, "catalog.pcat1.didx").length > 0);
            int uploads = replay(s, "dir-incremental");
            SnapshotReader r = checkSnapshot(s.ds("store1"), ref(BackupType.HOST, "cap", T1), "dir-incremental", uploads);
            assertArrayEquals(Files.readAllBytes(VECTORS.resolve("pxar/tree.pxar")),
                    restore(s.ds("store1"), r, "root.pxar.didx"));
            long dup = r.manifest().unprotected().get("chunk_upload_stats").get("duplicates").asLong();
            assertEquals(1, dup, "the re-uploaded catalog chunk is a server-side duplicate");
        }
    }

    @Test
    void imgAndDirEncrypted() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) { // different groups: one server for both
            int uploads = replay(s, "img-encrypted");
            SnapshotReader r = checkSnapshot(s.ds("store1"), ref(BackupType.VM, "100", T0), "img-encrypted", uploads);
            assertEquals("encrypt", r.manifest().file("disk.img.fidx").orElseThrow().cryptMode().text());
            assertChunksStored(s.ds("store1"), r, "disk.img.fidx");

            uploads = replay(s, "dir-encrypted");
            r = checkSnapshot(s.ds("store1"), ref(BackupType.HOST, "cap", T0), "dir-encrypted", uploads);
            assertChunksStored(s.ds("store1"), r, "root.pxar.didx");
            assertChunksStored(s.ds("store1"), r, "catalog.pcat1.didx");
        }
    }

    /** Replays one case; returns the number of chunk uploads. */
    static int replay(TestServer s, String caseName) throws Exception {
        Path dir = VECTORS.resolve(caseName);
        List<String> lines = Files.readAllLines(dir.resolve("requests.jsonl"));
        PbsTestClient c = null;
        int uploads = 0;
        try {
            for (String line : lines) {
                JsonNode rec = PbsTestClient.JSON.readTree(line);
                String layer = rec.path("layer").asText();
                if (layer.equals("h1")) {
                    c = PbsTestClient.connect(s.port(), s.server.fingerprint(), PbsTestClient.BACKUP);
                    Map<String, String> headers = new LinkedHashMap<>();
                    rec.get("headers").properties().forEach(e -> headers.put(e.getKey(), e.getValue().get(0).asText()));
                    PbsTestClient.Resp r = c.upgrade(rec.get("request-uri").asText(), headers);
                    assertNull(r, caseName + ": upgrade refused: " + r);
                    assertEquals(101, rec.get("status").asInt());
                } else if (layer.equals("h2")) {
                    String what = caseName + " #" + rec.get("seq").asInt() + " " + rec.get("method").asText() + " "
                            + rec.get("path").asText();
                    uploads += replayRequest(c, dir, rec, what);
                } else if (layer.equals("h2-end") && c != null) {
                    c.close();
                    c = null;
                }
            }
        } finally {
            if (c != null) {
                c.close();
            }
        }
        s.awaitIdle();
        return uploads;
    }

    private static int replayRequest(PbsTestClient c, Path dir, JsonNode rec, String what) throws Exception {
        String method = rec.get("method").asText();
        String path = rec.get("path").asText();
        String rawQuery = rec.path("raw-query").asText("");
        String pq = rawQuery.isEmpty() ? path : path + "?" + rawQuery;
        String ct = rec.path("headers").path("Content-Type").path(0).asText(null);
        JsonNode q = rec.path("query");
        byte[] body = null;
        int upload = 0;
        if (rec.has("json-body")) {
            body = PbsTestClient.JSON.writeValueAsBytes(rec.get("json-body"));
        } else if (path.endsWith("_chunk")) {
            body = Files.readAllBytes(dir.resolve("chunks").resolve(q.get("digest").asText()));
            upload = 1;
        } else if (path.equals("/blob")) {
            body = Files.readAllBytes(dir.resolve("blobs").resolve(q.get("file-name").asText()));
        }
        if (body != null && !rec.has("json-body")) {
            assertEquals(rec.get("body-length").asInt(), body.length, what + ": recorded body length");
        }
        PbsTestClient.Resp r = c.call(method, pq, ct, body);
        assertEquals(rec.get("status").asInt(), r.status(), what + ": " + r);
        String expected = rec.get("response").asText();
        if (expected.startsWith("<")) {
            // a raw download of the previous snapshot: "<N bytes of NAME from LOCAL-PATH>"
            String name = q.get("archive-name").asText();
            if (!name.endsWith(".blob")) {
                assertEquals(Integer.parseInt(expected.substring(1, expected.indexOf(' '))), r.body().length, what);
            } else {
                assertTrue(BackupManifest.fromBlob(DataBlob.wrap(r.body(), name), name).files().size() > 0, what);
            }
        } else {
            assertEquals(expected, r.text(), what);
        }
        return upload;
    }

    /** The committed snapshot lists exactly the uploaded manifest's files (crypt modes, sizes, csums, signature). */
    static SnapshotReader checkSnapshot(Datastore ds, BackupSnapshotRef ref, String caseName, int uploads) throws Exception {
        assertTrue(Files.isDirectory(ds.snapshotDir(ref)), ref + " exists");
        SnapshotReader r = ds.openSnapshot(ref);
        byte[] raw = Files.readAllBytes(VECTORS.resolve(caseName).resolve("blobs/index.json.blob"));
        BackupManifest uploaded = BackupManifest.fromBlob(DataBlob.wrap(raw, "index.json.blob"), "index.json.blob");
        assertEquals(uploaded.files(), r.manifest().files());
        assertEquals(uploaded.signature(), r.manifest().signature());
        JsonNode stats = r.manifest().unprotected().get("chunk_upload_stats");
        assertEquals(uploads, stats.get("count").asInt(), "chunk_upload_stats " + stats);
        for (FileEntry f : r.manifest().files()) {
            if (f.filename().endsWith("idx")) {
                r.openIndex(f.filename()); // checks size and csum against the manifest
            }
        }
        try (var list = Files.list(ds.snapshotDir(ref).getParent())) {
            assertFalse(list.anyMatch(p -> p.getFileName().toString().startsWith(".tmp")), "no temp dirs left");
        }
        return r;
    }

    static byte[] restore(Datastore ds, SnapshotReader r, String name) throws Exception {
        IndexFile idx = r.openIndex(name);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < idx.chunkCount(); i++) {
            byte[] b = ds.chunkStore().readChunk(idx.digest(i), idx.chunkLength(i));
            assertEquals(idx.digest(i), Digest.sha256(b), name + " chunk " + i);
            out.write(b);
        }
        return out.toByteArray();
    }

    private static void assertChunksStored(Datastore ds, SnapshotReader r, String name) throws Exception {
        IndexFile idx = r.openIndex(name);
        for (int i = 0; i < idx.chunkCount(); i++) {
            DataBlob b = ds.chunkStore().read(idx.digest(i));
            assertTrue(b.isEncrypted(), name + " chunk " + i + " is stored encrypted");
            b.verifyCrc(name);
        }
    }
}
