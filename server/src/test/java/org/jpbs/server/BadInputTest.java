package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input, one case per test: each must be refused with the right status and text, and leave nothing behind. */
class BadInputTest {
    private static final long T = 1_700_000_000L;
    private static final String Q = "backup-id=100&backup-time=" + T + "&backup-type=vm&benchmark=false&debug=true&store=store1";

    @TempDir
    Path tmp;

    private static EncodedChunk chunk(long seed, int len) {
        return EncodedChunk.encode(Backups.random(seed, len), 0, len, true);
    }

    private static int fixedIndex(PbsTestClient c, long size) throws Exception {
        PbsTestClient.Resp r = c.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=" + size);
        assertEquals(200, r.status(), r.toString());
        return r.data().asInt();
    }

    private static void assertNoSnapshot(TestServer s) throws Exception {
        s.awaitIdle();
        assertFalse(Files.exists(s.ds("store1").groupDir(BackupProtocolTest.vm("100", T).group())),
                "no group or snapshot left behind");
    }

    @Test
    void wrongDigestForTheData() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); PbsTestClient c = s.backup(Q)) {
            int wid = fixedIndex(c, 1000);
            EncodedChunk ch = chunk(1, 1000);
            Digest wrong = Digest.sha256(new byte[] {1});
            PbsTestClient.Resp r = c.upload("/fixed_chunk?digest=" + wrong.hex() + "&encoded-size=" + ch.blob().rawLength()
                    + "&size=1000&wid=" + wid, ch.blob().raw());
            assertEquals(400, r.status());
            assertTrue(r.text().startsWith("detected chunk with wrong digest"), r.text());
            assertFalse(Files.exists(((DirectoryChunkStore) s.ds("store1").chunkStore()).chunkPath(wrong)));
            assertFalse(Files.exists(((DirectoryChunkStore) s.ds("store1").chunkStore()).chunkPath(ch.digest())));
        }
    }

    @Test
    void encryptedChunksAreCheckedByCrcAndSizeOnly() throws Exception {
        org.jpbs.core.crypto.CryptConfig key = org.jpbs.core.crypto.CryptConfig.of(Backups.random(9, 32));
        try (TestServer s = TestServer.start(tmp, "store1"); PbsTestClient c = s.backup(Q)) {
            int wid = fixedIndex(c, 3000);
            EncodedChunk ch = EncodedChunk.encode(Backups.random(4, 1000), 0, 1000, true, key);
            byte[] raw = ch.blob().raw();
            String base = "/fixed_chunk?digest=" + ch.digest().hex() + "&encoded-size=" + raw.length + "&wid=" + wid;
            PbsTestClient.Resp r = c.upload(base + "&size=999", raw);
            assertEquals(400, r.status());
            assertTrue(r.text().contains("does not fit its size 999"), r.text());
            byte[] badCrc = raw.clone();
            badCrc[raw.length - 1] ^= 1;
            r = c.upload(base + "&size=1000", badCrc);
            assertEquals(400, r.status());
            assertTrue(r.text().contains("CRC mismatch"), r.text());
            // any digest is accepted for an encrypted chunk: the server cannot recompute it
            r = c.upload(base + "&size=1000", raw);
            assertEquals(200, r.status(), r.toString());
            assertTrue(Files.exists(((DirectoryChunkStore) s.ds("store1").chunkStore()).chunkPath(ch.digest())));
        }
    }

    @Test
    void chunkOver16MiB() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); PbsTestClient c = s.backup(Q)) {
            int wid = c.call("POST", "/dynamic_index?archive-name=big.didx").data().asInt();
            int len = 16 * 1024 * 1024 + 100;
            EncodedChunk ch = EncodedChunk.encode(new byte[len], 0, len, false);
            PbsTestClient.Resp r = c.upload("/dynamic_chunk?digest=" + ch.digest().hex() + "&encoded-size="
                    + ch.blob().rawLength() + "&size=" + len + "&wid=" + wid, ch.blob().raw());
            assertEquals(400, r.status());
            assertEquals("parameter verification failed - 'size': value must have a maximum value of 16777216", r.text());
            r = c.upload("/dynamic_chunk?digest=" + ch.digest().hex() + "&encoded-size=" + ch.blob().rawLength()
                    + "&size=1000&wid=" + wid, ch.blob().raw());
            assertEquals("parameter verification failed - 'encoded-size': value must have a maximum value of 16777260", r.text());
            assertTrue(c.isOpen(), "the session survives refused uploads");
            assertEquals(200, c.call("GET", "/previous_backup_time").status());
        }
    }

    @Test
    void fixedChunkLargerThan4MiB() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); PbsTestClient c = s.backup(Q)) {
            int wid = fixedIndex(c, 20_000_000);
            EncodedChunk ch = chunk(2, Backups.MIB4 + 1);
            PbsTestClient.Resp r = c.upload(Backups.chunkQuery("fixed", wid, ch), ch.blob().raw());
            assertEquals(400, r.status());
            assertEquals("fixed writer '" + wid + "' - got large chunk (4194305 > 4194304)", r.text());
        }
    }

    @Test
    void encodedSizeMismatch() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); PbsTestClient c = s.backup(Q)) {
            int wid = fixedIndex(c, 1000);
            EncodedChunk ch = chunk(3, 1000);
            int n = ch.blob().rawLength();
            String base = "/fixed_chunk?digest=" + ch.digest().hex() + "&size=1000&wid=" + wid;
            PbsTestClient.Resp r = c.upload(base + "&encoded-size=" + (n - 1), ch.blob().raw());
            assertEquals(400, r.status());
            assertEquals("uploaded chunk is larger than announced", r.text());
            r = c.upload(base + "&encoded-size=" + (n + 1), ch.blob().raw());
            assertEquals(400, r.status());
            assertEquals("uploaded chunk has unexpected size", r.text());
            r = c.upload(base + "&encoded-size=" + n, Arrays.copyOf(ch.blob().raw(), n));
            assertEquals(200, r.status(), "the exact size is accepted: " + r);
        }
    }

    @Test
    void unknownWid() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); PbsTestClient c = s.backup(Q)) {
            EncodedChunk ch = chunk(4, 1000);
            PbsTestClient.Resp r = c.upload(Backups.chunkQuery("fixed", 7, ch), ch.blob().raw());
            assertEquals(400, r.status());
            assertEquals("fixed writer '7' not registered", r.text());
            int wid = c.call("POST", "/dynamic_index?archive-name=a.didx").data().asInt();
            r = c.upload(Backups.chunkQuery("fixed", wid, ch), ch.blob().raw());
            assertEquals("fixed writer '" + wid + "' not registered", r.text(), "a dynamic wid is no fixed writer");
            r = c.call("POST", "/dynamic_close?chunk-count=1&csum=" + ch.digest().hex() + "&size=1&wid=9");
            assertEquals("dynamic writer '9' not registered", r.text());
            r = c.json("PUT", "/fixed_index", Map.of("wid", 300, "digest-list", List.of(), "offset-list", List.of()));
            assertEquals("parameter verification failed - 'wid': value must have a maximum value of 256", r.text());
        }
    }

    @Test
    void appendOfAnUnknownDigest() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); PbsTestClient c = s.backup(Q)) {
            int wid = fixedIndex(c, 1000);
            EncodedChunk ch = chunk(5, 1000);
            PbsTestClient.Resp r = c.json("PUT", "/fixed_index", Map.of("wid", wid,
                    "digest-list", List.of(ch.digest().hex()), "offset-list", List.of(0)));
            assertEquals(400, r.status());
            assertEquals("no such chunk " + ch.digest().hex(), r.text());
            r = c.json("PUT", "/fixed_index", Map.of("wid", wid,
                    "digest-list", List.of(ch.digest().hex()), "offset-list", List.of(0, 1)));
            assertEquals("offset list has wrong length (2 != 1)", r.text());
        }
    }

    @Test
    void closeWithWrongChecksumOrCount() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); PbsTestClient c = s.backup(Q)) {
            byte[] img = Backups.random(6, Backups.MIB4 + 10);
            List<EncodedChunk> chunks = Backups.fixedChunks(img);
            int wid = fixedIndex(c, img.length);
            Backups.uploadAll(c, "fixed", wid, chunks);
            c.json("PUT", "/fixed_index", Map.of("wid", wid, "digest-list",
                    List.of(chunks.get(1).digest().hex(), chunks.get(0).digest().hex()), "offset-list", List.of(Backups.MIB4, 0)));
            Digest good = Backups.fixedCsum(List.of(chunks.get(0).digest(), chunks.get(1).digest()));
            Digest bad = Backups.fixedCsum(List.of(chunks.get(1).digest(), chunks.get(0).digest()));
            PbsTestClient.Resp r = c.call("POST", "/fixed_close?chunk-count=2&csum=" + bad.hex() + "&size=" + img.length + "&wid=" + wid);
            assertEquals(400, r.status());
            assertTrue(r.text().startsWith("fixed writer '" + wid + "' close failed - got unexpected checksum"), r.text());
            r = c.call("POST", "/fixed_close?chunk-count=3&csum=" + good.hex() + "&size=" + img.length + "&wid=" + wid);
            assertEquals("fixed writer '" + wid + "' close failed - received wrong number of chunks (3 != 2)", r.text());
            r = c.call("POST", "/fixed_close?chunk-count=2&csum=" + good.hex() + "&size=" + img.length + "&wid=" + wid);
            assertEquals("{\"data\":null}", r.text(), "the right parameters still close it");
        }
    }

    @Test
    void backupTimeNotNewerThanTheLast() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            Backups.imageBackup(s, "store1", "100", T, Backups.image(8, 1, 10));
            s.awaitIdle();
            HttpLayerTest.assertRefused(s, Q, Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN), 400,
                    "backup timestamp is older than last backup.");
            HttpLayerTest.assertRefused(s, Q.replace("time=" + T, "time=" + (T - 1)),
                    Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN), 400,
                    "backup timestamp is older than last backup.");
        }
    }

    @Test
    void secondBackupOfTheSameGroupWhileOneRuns() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            PbsTestClient first = s.backup(Q);
            try (PbsTestClient c = PbsTestClient.connect(s.port(), s.server.fingerprint(), PbsTestClient.BACKUP)) {
                PbsTestClient.Resp r = c.upgrade("//api2/json/backup?" + Q.replace("time=" + T, "time=" + (T + 5)),
                        Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN));
                assertNotEquals(null, r, "second session refused");
                assertEquals(400, r.status());
                assertTrue(r.text().endsWith("another backup is already running"), r.text());
            }
            first.close();
            s.awaitIdle();
            Backups.imageBackup(s, "store1", "100", T + 5, Backups.image(9, 1, 10));
        }
    }

    @Test
    void garbageInsteadOfHttp2AfterThe101() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            try (RawHttps h = new RawHttps(s.port())) {
                RawHttps.Response r = h.request("GET", "//api2/json/backup?" + Q, Map.of("Authorization",
                        "PBSAPIToken " + TestServer.TOKEN, "Connection", "upgrade", "Upgrade", "proxmox-backup-protocol-v1"), null);
                assertEquals(101, r.status());
                h.write("GET / HTTP/1.1\r\nthis is not an HTTP/2 connection preface at all\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertNotEquals(-1, h.drainUntilClosed(), "the server closes the connection");
            }
            assertNoSnapshot(s);
            Backups.imageBackup(s, "store1", "100", T, Backups.image(10, 1, 10));
        }
    }

    @Test
    void clientDisconnectsMidUpload() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            PbsTestClient c = s.backup(Q);
            byte[] img = Backups.random(11, 2 * Backups.MIB4);
            List<EncodedChunk> chunks = Backups.fixedChunks(img);
            int wid = fixedIndex(c, img.length);
            Backups.uploadAll(c, "fixed", wid, chunks.subList(0, 1));
            byte[] second = chunks.get(1).blob().raw();
            c.sendPartial("POST", Backups.chunkQuery("fixed", wid, chunks.get(1)), "application/octet-stream",
                    Arrays.copyOf(second, second.length / 2));
            c.close();
            assertNoSnapshot(s);
            try (var tmpDirs = Files.list(s.ds("store1").root())) {
                assertFalse(tmpDirs.anyMatch(p -> p.getFileName().toString().equals("vm")));
            }
            Backups.imageBackup(s, "store1", "100", T, Backups.image(12, 1, 10));
            assertTrue(Files.isDirectory(s.ds("store1").snapshotDir(BackupProtocolTest.vm("100", T))));
        }
    }

    @Test
    void wrongToken() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            HttpLayerTest.assertRefused(s, Q, Map.of("Authorization", "PBSAPIToken root@pam!capture:wrong"), 401,
                    "authentication failed - invalid credentials");
            HttpLayerTest.assertRefused(s, Q, Map.of("Authorization", "PBSAPIToken=nobody@pam!x:secret"), 401,
                    "authentication failed - invalid credentials");
            assertNoSnapshot(s);
        }
    }
}
