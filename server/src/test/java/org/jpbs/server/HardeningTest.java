package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jpbs.core.blob.EncodedChunk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Review findings of the server (resource limits, strict parameters), one test per finding, over raw HTTP/1.1 and HTTP/2. */
class HardeningTest {
    private static final long T = 1_700_000_000L;
    private static final String Q = "backup-id=100&backup-time=" + T + "&backup-type=vm&benchmark=false&debug=true&store=store1";
    private static final long TIB = 1L << 40;

    @TempDir
    Path tmp;

    @Test
    void hugeFixedIndexIsSparseAndOffsetsAreRangeChecked() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); PbsTestClient c = s.backup(Q)) {
            long size = 255 * TIB + 1000; // 66,846,721 slots: was a 268 MB table per request
            int[] wids = new int[3];
            for (int i = 0; i < wids.length; i++) {
                PbsTestClient.Resp r = c.call("POST", "/fixed_index?archive-name=d" + i + ".img.fidx&size=" + size);
                assertEquals(200, r.status(), r.toString());
                wids[i] = r.data().asInt();
            }
            EncodedChunk ch = EncodedChunk.encode(Backups.random(1, 1000), 0, 1000, true);
            assertEquals(200, c.upload(Backups.chunkQuery("fixed", wids[0], ch), ch.blob().raw()).status());
            PbsTestClient.Resp r = c.json("PUT", "/fixed_index", Map.of("wid", wids[0],
                    "digest-list", List.of(ch.digest().hex()), "offset-list", List.of(255 * TIB)));
            assertEquals("{\"data\":null}", r.text(), "the last (short) chunk of a 255 TiB image");
            long nearMax = Long.MAX_VALUE - (Backups.MIB4 - 1); // aligned, offset + size overflows
            r = c.json("PUT", "/fixed_index", Map.of("wid", wids[0],
                    "digest-list", List.of(ch.digest().hex()), "offset-list", List.of(nearMax)));
            assertEquals(400, r.status());
            assertEquals("parameter verification failed - 'offset-list': fixed writer '" + wids[0] + "' - chunk at offset "
                    + nearMax + " with 1000 bytes ends after the image size " + size, r.text());
            r = c.json("PUT", "/fixed_index", Map.of("wid", wids[0],
                    "digest-list", List.of(ch.digest().hex()), "offset-list", List.of(256 * TIB)));
            assertEquals(400, r.status());
            assertTrue(r.text().startsWith("parameter verification failed - 'offset-list': "), r.text());
            r = c.json("PUT", "/fixed_index", Map.of("wid", wids[0],
                    "digest-list", List.of(ch.digest().hex()), "offset-list", List.of(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE))));
            assertEquals(400, r.status());
            assertEquals("parameter verification failed - 'offset-list': Expected integer value.", r.text(),
                    "a u64 beyond i64 (PBS checks as_i64)");
            int dwid = c.call("POST", "/dynamic_index?archive-name=x.didx").data().asInt();
            r = c.json("PUT", "/dynamic_index", Map.of("wid", dwid,
                    "digest-list", List.of(ch.digest().hex()), "offset-list", List.of(Long.MAX_VALUE)));
            assertEquals(400, r.status());
            r = c.call("POST", "/fixed_close?chunk-count=1&csum=" + ch.digest().hex() + "&size=" + size + "&wid=" + wids[0]);
            assertEquals(400, r.status());
            assertEquals("fixed writer '" + wids[0] + "' close failed - unexpected chunk count (1 != 66846721)", r.text());
            assertTrue(c.isOpen());
        }
    }

    @Test
    void sessionAnnouncesMaxConcurrentStreams() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); PbsTestClient c = s.backup(Q)) {
            assertEquals(200, c.call("GET", "/previous_backup_time").status()); // the server's SETTINGS have arrived
            var codec = c.channel().pipeline().get(io.netty.handler.codec.http2.Http2FrameCodec.class);
            assertEquals(200, codec.connection().local().maxActiveStreams(),
                    "streams the client may open = the server's SETTINGS_MAX_CONCURRENT_STREAMS");
        }
    }

    @Test
    void onlyGetUpgradesAndLongUrisAre414() throws Exception {
        Map<String, String> up = Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN, "Connection", "upgrade",
                "Upgrade", "proxmox-backup-protocol-v1");
        try (TestServer s = TestServer.start(tmp, "store1"); RawHttps h = new RawHttps(s.port())) {
            RawHttps.Response r = h.request("POST", "//api2/json/backup?" + Q, up, null);
            assertEquals(404, r.status());
            assertEquals("Path '/api2/json/backup' not found.", r.text());
            r = h.request("PUT", "/api2/json/reader?" + Q, Map.of(), null);
            assertEquals(404, r.status());
            assertEquals("Path '/api2/json/reader' not found.", r.text());
            String longQuery = "x=" + "a".repeat(3100);
            r = h.request("GET", "/api2/json/version?" + longQuery, Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN), null);
            assertEquals(414, r.status());
            assertEquals("", r.text());
            r = h.request("GET", "//api2/json/backup?" + Q + "&" + longQuery, up, null);
            assertEquals(414, r.status(), "an upgrade too");
            String ok = "/api2/json/version?x=" + "a".repeat(3072 - "/api2/json/version".length() - 2);
            r = h.request("GET", ok, Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN), null);
            assertEquals(200, r.status(), "exactly 3072 bytes of path and query pass");
        }
        try (TestServer s = TestServer.start(tmp, "store1"); RawHttps h = new RawHttps(s.port())) {
            RawHttps.Response r = h.request("GET", "/api2/json/version?x=" + "a".repeat(10_000), Map.of(), null);
            assertEquals(414, r.status(), "longer than the HTTP line limit too");
            assertEquals(0, s.server.activeSessions());
        }
        try (TestServer s = TestServer.start(tmp, "store1"); RawHttps h = new RawHttps(s.port())) {
            RawHttps.Response r = h.request("GET", "/api2/json/version", Map.of("X-Big", "b".repeat(9_000)), null);
            assertEquals(431, r.status(), "oversized header fields");
            assertEquals("request header fields too large", r.text());
        }
        try (TestServer s = TestServer.start(tmp, "store1"); RawHttps h = new RawHttps(s.port())) {
            assertEquals(200, h.request("GET", "/api2/json/version", Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN),
                    null).status(), "the server keeps serving");
        }
        assertFalse(Files.exists(tmp.resolve("ds-store1/vm")), "no group created");
    }

    @Test
    void idleConnectionsAndSessionsAreClosed() throws Exception {
        org.jpbs.server.http.ServerTimeouts t = new org.jpbs.server.http.ServerTimeouts(
                java.time.Duration.ofSeconds(1), java.time.Duration.ofSeconds(2));
        try (TestServer s = TestServer.start(tmp, t, "store1")) {
            try (RawHttps h = new RawHttps(s.port())) {
                assertTrue(h.drainUntilClosed() >= 0, "a connection that never sends a request is closed");
            }
            try (RawHttps h = new RawHttps(s.port())) {
                assertEquals(200, h.request("GET", "/api2/json/version",
                        Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN), null).status());
                assertTrue(h.drainUntilClosed() >= 0, "an idle kept-alive connection is closed");
            }
            try (PbsTestClient c = s.backup(Q)) {
                assertEquals(200, c.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=1000").status());
                c.channel().closeFuture().await(60, java.util.concurrent.TimeUnit.SECONDS);
                assertFalse(c.isOpen(), "an idle backup session is closed");
            }
            s.awaitIdle();
            assertFalse(Files.exists(s.ds("store1").groupDir(BackupProtocolTest.vm("100", T).group())),
                    "the timed-out backup left no snapshot");
        }
    }

    @Test
    void fileNamesAreSafeIds() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); PbsTestClient c = s.backup(Q)) {
            String bad = "parameter verification failed - 'file-name': value does not match the regex pattern";
            for (String name : List.of("../x.blob", "a/b.blob", ".blob", "..", "x%20y.blob")) {
                PbsTestClient.Resp r = c.upload("/blob?encoded-size=20&file-name=" + name, new byte[20]);
                assertEquals(400, r.status(), name);
                assertEquals(bad, r.text(), name);
            }
            PbsTestClient.Resp r = c.upload("/blob?encoded-size=20&file-name=x.conf", new byte[20]);
            assertEquals("wrong blob file extension: 'x.conf'", r.text());
            r = c.call("POST", "/fixed_index?archive-name=..%2Fdisk.img.fidx&size=1000");
            assertEquals("parameter verification failed - 'archive-name': value does not match the regex pattern", r.text());
            r = c.call("POST", "/dynamic_index?archive-name=root.pxar");
            assertEquals("wrong archive extension: 'root.pxar'", r.text());
            r = c.call("GET", "/previous?archive-name=a/b.fidx");
            assertEquals("parameter verification failed - 'archive-name': value does not match the regex pattern", r.text());
            assertTrue(c.isOpen());
        }
    }

    @Test
    void jsonParametersMustHaveTheirTypes() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1"); PbsTestClient c = s.backup(Q)) {
            int wid = c.call("POST", "/dynamic_index?archive-name=x.didx").data().asInt();
            EncodedChunk ch = EncodedChunk.encode(Backups.random(2, 500), 0, 500, true);
            assertEquals(200, c.upload(Backups.chunkQuery("dynamic", wid, ch), ch.blob().raw()).status());
            String d = ch.digest().hex();
            PbsTestClient.Resp r = c.json("PUT", "/dynamic_index", Map.of("wid", String.valueOf(wid),
                    "digest-list", List.of(d), "offset-list", List.of(0)));
            assertEquals(400, r.status());
            assertEquals("parameter verification failed - 'wid': Expected integer value.", r.text());
            r = c.json("PUT", "/dynamic_index", Map.of("wid", wid, "digest-list", d, "offset-list", List.of(0)));
            assertEquals("parameter verification failed - 'digest-list': Expected array - got scalar value.", r.text());
            r = c.json("PUT", "/dynamic_index", Map.of("wid", wid, "digest-list", List.of(d), "offset-list", List.of("0")));
            assertEquals("parameter verification failed - 'offset-list': Expected integer value.", r.text());
            r = c.json("PUT", "/dynamic_index", Map.of("wid", wid, "digest-list", List.of(d), "offset-list", List.of(0.5)));
            assertEquals("parameter verification failed - 'offset-list': Expected integer value.", r.text());
            r = c.json("POST", "/fixed_index", Map.of("archive-name", "d.img.fidx", "size", "1000"));
            assertEquals("parameter verification failed - 'size': Expected integer value.", r.text());
            r = c.json("POST", "/fixed_index", Map.of("archive-name", 5, "size", 1000));
            assertEquals("parameter verification failed - 'archive-name': Expected string value.", r.text());
            r = c.json("PUT", "/dynamic_index", Map.of("wid", wid, "digest-list", List.of(d), "offset-list", List.of(0)));
            assertEquals("{\"data\":null}", r.text(), "JSON with the right types");
            r = c.call("POST", "/dynamic_close?chunk-count=x&csum=" + d + "&size=500&wid=" + wid);
            assertEquals("parameter verification failed - 'chunk-count': invalid digit found in string", r.text(),
                    "query values are text that must parse");
        }
    }
}
