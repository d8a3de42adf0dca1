package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reader protocol ({@code docs/protocol.md#reader-session}) against a snapshot written through the backup protocol. */
class ReaderProtocolTest {
    private static final long T = 1_700_000_000L;

    @TempDir
    Path tmp;

    private static String q(String id, long time) {
        return "backup-id=" + id + "&backup-time=" + time + "&backup-type=vm&debug=true&store=store1";
    }

    @Test
    void restoreThroughTheReader() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            byte[] img = Backups.image(7, 2, 3000);
            Backups.imageBackup(s, "store1", "100", T, img);
            s.awaitIdle();
            try (PbsTestClient c = s.reader(q("100", T))) {
                FixedIndex first = FixedIndex.read(java.nio.ByteBuffer.wrap(
                        Files.readAllBytes(s.ds("store1").snapshotDir(BackupProtocolTest.vm("100", T)).resolve("disk.img.fidx"))), "x");
                Digest d0 = first.digest(0);
                PbsTestClient.Resp r = c.call("GET", "/chunk?digest=" + d0.hex());
                assertEquals(401, r.status());
                assertEquals("download chunk " + d0.hex() + " not allowed", r.text());

                r = c.call("GET", "/download?file-name=index.json.blob");
                assertEquals(200, r.status());
                BackupManifest m = BackupManifest.fromBlob(DataBlob.wrap(r.body(), "m"), "m");
                assertEquals(2, m.files().size());
                r = c.call("GET", "/download?file-name=qemu-server.conf.blob");
                assertEquals("memory: 2048\nname: vm100\n", new String(DataBlob.wrap(r.body(), "c").decode("c", -1)));
                r = c.call("GET", "/download?file-name=disk.img.fidx");
                assertEquals(200, r.status());
                FixedIndex idx = FixedIndex.read(java.nio.ByteBuffer.wrap(r.body()), "idx");
                assertEquals(m.file("disk.img.fidx").orElseThrow().csum(), idx.computeCsum());
                List<byte[]> parts = new ArrayList<>();
                for (int i = 0; i < idx.chunkCount(); i++) {
                    r = c.call("GET", "/chunk?digest=" + idx.digest(i).hex());
                    assertEquals(200, r.status());
                    assertArrayEquals(Files.readAllBytes(((DirectoryChunkStore) s.ds("store1").chunkStore()).chunkPath(idx.digest(i))), r.body());
                    parts.add(DataBlob.wrap(r.body(), "chunk").decode("chunk", idx.chunkLength(i)));
                }
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                parts.forEach(out::writeBytes);
                assertArrayEquals(img, out.toByteArray());

                r = c.call("GET", "/speedtest");
                byte[] a = new byte[1024 * 1024];
                Arrays.fill(a, (byte) 'A');
                assertArrayEquals(a, r.body());
                r = c.call("GET", "/download?file-name=missing.blob");
                assertEquals(404, r.status());
                r = c.call("GET", "/download?file-name=missing.didx");
                assertEquals(400, r.status());
                r = c.call("GET", "/download?file-name=owner");
                assertEquals(400, r.status());
                r = c.call("GET", "/download?file-name=..%2Fowner.blob");
                assertEquals(400, r.status(), "no path traversal: " + r);
                r = c.call("GET", "/");
                assertEquals("{\"data\":[{\"subdir\":\"chunk\"},{\"subdir\":\"download\"},{\"subdir\":\"speedtest\"}]}", r.text());
            }
        }
    }

    @Test
    void readerRefusals() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            PbsTestClient c = PbsTestClient.connect(s.port(), s.server.fingerprint(), PbsTestClient.READER);
            PbsTestClient.Resp r = c.upgrade("//api2/json/reader?" + q("100", T),
                    Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN));
            c.close();
            assertEquals(400, r.status());
            assertEquals("snapshot vm/100/2023-11-14T22:13:20Z does not exist.", r.text());
            c = PbsTestClient.connect(s.port(), s.server.fingerprint(), PbsTestClient.READER);
            r = c.upgrade("//api2/json/reader?" + q("100", T).replace("store1", "nostore"),
                    Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN));
            c.close();
            assertEquals(400, r.status());
            assertEquals("no such datastore 'nostore'", r.text()); // a token with privileges (without: UnknownDatastoreUpgradeTest)
            c = PbsTestClient.connect(s.port(), s.server.fingerprint(), PbsTestClient.READER);
            r = c.upgrade("//api2/json/backup?" + q("100", T), Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN));
            c.close();
            assertEquals(400, r.status());
            assertEquals("invalid protocol name", r.text());
            assertTrue(s.server.activeSessions() == 0);
        }
    }
}
