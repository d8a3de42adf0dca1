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
}
