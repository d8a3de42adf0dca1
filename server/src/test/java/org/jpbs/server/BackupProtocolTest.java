package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backup protocol endpoints of {@code docs/protocol.md#backup-session} driven as a PBS client
 * drives them, with status codes, answers and the files on disk checked.
 */
class BackupProtocolTest {
    private static final long T = 1_700_000_000L;

    @TempDir
    Path tmp;

    static BackupSnapshotRef vm(String id, long time) {
        return new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, id), time);
    }

    static String q(String type, String id, long time) {
        return "backup-id=" + id + "&backup-time=" + time + "&backup-type=" + type + "&benchmark=false&debug=true&store=store1";
    }

    @Test
    void fixedImageBackupLandsOnDiskAndRestores() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            byte[] img = Backups.image(1, 3, 1000);
            Digest csum = Backups.imageBackup(s, "store1", "200", T, img);
            s.awaitIdle();
            Datastore ds = s.ds("store1");
            Path dir = ds.snapshotDir(vm("200", T));
            assertTrue(Files.isRegularFile(dir.resolve("disk.img.fidx")));
            assertTrue(Files.isRegularFile(dir.resolve("qemu-server.conf.blob")));
            assertTrue(Files.isRegularFile(dir.resolve("index.json.blob")));
            assertEquals(TestServer.TOKEN_ID + "\n", Files.readString(dir.getParent().resolve("owner")));
            SnapshotReader r = ds.openSnapshot(vm("200", T));
            assertEquals(csum, r.manifest().file("disk.img.fidx").orElseThrow().csum());
            JsonNode stats = r.manifest().unprotected().get("chunk_upload_stats");
            assertEquals(4, stats.get("count").asInt());
            assertEquals(0, stats.get("duplicates").asInt());
            long chunkBytes = Backups.fixedChunks(img).stream().mapToLong(c -> c.blob().rawLength()).sum();
            assertEquals(chunkBytes, stats.get("compressed_size").asLong());
            assertTrue(stats.get("size").asLong() > img.length, "size counts plain chunk bytes plus blobs");
            assertArrayEquals(img, RealClientReplayTest.restore(ds, r, "disk.img.fidx"));
            assertEquals("memory: 2048\nname: vm200\n", new String(r.readBlob("qemu-server.conf.blob")));
        }
    }

    @Test
    void sessionBasicsAndSubdirs() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1");
             PbsTestClient c = s.backup(q("vm", "201", T))) {
            assertEquals("{\"data\":null}", c.call("GET", "/previous_backup_time").text());
            var codec = c.channel().pipeline().get(io.netty.handler.codec.http2.Http2FrameCodec.class);
            var conn = codec.connection();
            assertEquals(32 * 1024 * 1024, conn.remote().flowController().initialWindowSize(),
                    "server SETTINGS: initial window 32 MiB (docs/protocol.md#backup-upgrade, the PBS server's)");
            assertTrue(conn.remote().flowController().windowSize(conn.connectionStream()) >= 32 * 1024 * 1024 - 1024,
                    "server WINDOW_UPDATE opens the connection window to 32 MiB");
            assertEquals(4 * 1024 * 1024, codec.encoder().configuration().frameSizePolicy().maxFrameSize(),
                    "server SETTINGS: max frame 4 MiB");
            PbsTestClient.Resp r = c.call("GET", "/");
            assertEquals(200, r.status());
            assertEquals("application/json;charset=UTF-8", r.contentType());
            List<String> names = new ArrayList<>();
            r.data().forEach(n -> names.add(n.get("subdir").asText()));
            assertEquals(List.of("blob", "dynamic_chunk", "dynamic_close", "dynamic_index", "finish", "fixed_chunk",
                    "fixed_close", "fixed_index", "previous", "previous_backup_time", "speedtest"), names);
            r = c.call("GET", "/nope");
            assertEquals(404, r.status());
            assertEquals("Path '/nope' not found.", r.text());
            r = c.call("GET", "/blob");
            assertEquals(404, r.status());
            assertEquals("Path '/blob' not found.", r.text());
            r = c.call("POST", "/speedtest", "application/x-www-form-urlencoded", Backups.random(2, Backups.MIB4));
            assertEquals("{\"data\":null}", r.text());
            r = c.call("POST", "/previous?archive-name=x.blob");
            assertEquals(404, r.status());
            r = c.call("GET", "/previous?archive-name=index.json.blob");
            assertEquals(400, r.status());
            assertEquals("no valid previous backup", r.text());
            r = c.call("POST", "/fixed_index?archive-name=disk.img&size=10");
            assertEquals(400, r.status());
            assertEquals("wrong archive extension: 'disk.img'", r.text());
            r = c.call("POST", "/fixed_index?archive-name=disk.img.fidx");
            assertEquals("parameter verification failed - 'size': parameter is missing and it is not optional.", r.text());
            r = c.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=10", "text/plain", null);
            assertEquals("unsupported content type", r.text());
            r = c.json("POST", "/dynamic_index", Map.of("archive-name", "a.pxar.didx"));
            assertEquals("{\"data\":1}", r.text(), "parameters from a JSON body");
            r = c.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=10");
            assertEquals("{\"data\":2}", r.text(), "one wid counter for fixed and dynamic writers");
            r = c.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=10");
            assertEquals(400, r.status(), "same archive twice: " + r);
        }
    }

    @Test
    void dynamicIndexAppendsInStreamOrder() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            byte[] data = Backups.random(3, 700_000);
            int[] cuts = {0, 100_000, 350_000, 351_000, 700_000};
            List<EncodedChunk> chunks = new ArrayList<>();
            for (int i = 0; i + 1 < cuts.length; i++) {
                chunks.add(EncodedChunk.encode(data, cuts[i], cuts[i + 1] - cuts[i], true));
            }
            long[] ends = {100_000, 350_000, 351_000, 700_000};
            List<Digest> digests = chunks.stream().map(EncodedChunk::digest).toList();
            Digest csum = Backups.dynamicCsum(ends, digests);
            try (PbsTestClient c = s.backup(q("host", "dyn", T))) {
                int wid = c.call("POST", "/dynamic_index?archive-name=root.pxar.didx").data().asInt();
                Backups.uploadAll(c, "dynamic", wid, chunks);
                PbsTestClient.Resp r = c.json("PUT", "/dynamic_index", Map.of("wid", wid,
                        "digest-list", List.of(digests.get(1).hex()), "offset-list", List.of(100_000)));
                assertEquals(400, r.status());
                assertEquals("dynamic writer '" + wid + "' append chunk failed - got strange chunk offset (100000 != 0)", r.text());
                r = c.json("PUT", "/dynamic_index", Map.of("wid", wid,
                        "digest-list", List.of(digests.get(0).hex(), digests.get(1).hex()), "offset-list", List.of(0, 100_000)));
                assertEquals("{\"data\":null}", r.text());
                r = c.json("PUT", "/dynamic_index", Map.of("wid", wid,
                        "digest-list", List.of(digests.get(2).hex(), digests.get(3).hex()), "offset-list", List.of(350_000, 351_000)));
                assertEquals("{\"data\":null}", r.text());
                r = c.call("POST", "/dynamic_close?chunk-count=4&csum=" + csum.hex() + "&size=600000&wid=" + wid);
                assertEquals("dynamic writer '" + wid + "' close failed - received wrong size (600000 != 700000)", r.text());
                r = c.call("POST", "/dynamic_close?chunk-count=4&csum=" + csum.hex() + "&size=700000&wid=" + wid);
                assertEquals("{\"data\":null}", r.text());
                DataBlob m = Backups.manifest(BackupType.HOST, "dyn", T,
                        List.of(new FileEntry("root.pxar.didx", CryptMode.NONE, 700_000, csum)));
                assertEquals(200, c.upload("/blob?encoded-size=" + m.rawLength() + "&file-name=index.json.blob", m.raw()).status());
                assertEquals("{\"data\":null}", c.call("POST", "/finish").text());
                r = c.call("POST", "/dynamic_index?archive-name=late.didx");
                assertEquals(400, r.status());
                assertEquals("backup already marked as finished.", r.text());
            }
            s.awaitIdle();
            Datastore ds = s.ds("store1");
            SnapshotReader r = ds.openSnapshot(new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.HOST, "dyn"), T));
            assertArrayEquals(data, RealClientReplayTest.restore(ds, r, "root.pxar.didx"));
        }
    }

    @Test
    void incrementalWithPreviousAndReuseCsum() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            byte[] img = Backups.image(4, 2, 5000);
            Digest oldCsum = Backups.imageBackup(s, "store1", "300", T, img);
            s.awaitIdle();
            byte[] img2 = img.clone();
            img2[Backups.MIB4 + 17] = 42; // only chunk 1 changes
            List<EncodedChunk> chunks2 = Backups.fixedChunks(img2);
            Digest newCsum = Backups.fixedCsum(chunks2.stream().map(EncodedChunk::digest).toList());
            try (PbsTestClient c = s.backup(q("vm", "300", T + 3600))) {
                assertEquals("{\"data\":" + T + "}", c.call("GET", "/previous_backup_time").text());
                PbsTestClient.Resp r = c.call("GET", "/previous?archive-name=index.json.blob");
                assertEquals(200, r.status());
                assertEquals("application/octet-stream", r.contentType());
                BackupManifest prev = BackupManifest.fromBlob(DataBlob.wrap(r.body(), "prev"), "prev");
                assertEquals(oldCsum, prev.file("disk.img.fidx").orElseThrow().csum());
                assertTrue(prev.unprotected().has("chunk_upload_stats"));
                r = c.call("GET", "/previous?archive-name=missing.blob");
                assertEquals(404, r.status());
                r = c.call("GET", "/previous?archive-name=missing.fidx");
                assertEquals(400, r.status());
                r = c.call("GET", "/previous?archive-name=notes.txt");
                assertEquals("unknown archive type", r.text());
                r = c.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=" + img2.length + "&reuse-csum=" + newCsum.hex());
                assertEquals(400, r.status());
                assertTrue(r.text().startsWith("expected csum (" + newCsum.hex() + ") doesn't match last backup's"), r.text());
                // the old index registers its chunks as known
                r = c.call("GET", "/previous?archive-name=disk.img.fidx");
                assertEquals(4096 + 3 * 32, r.body().length);
                int wid = c.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=" + img2.length
                        + "&reuse-csum=" + oldCsum.hex()).data().asInt();
                Backups.uploadAll(c, "fixed", wid, List.of(chunks2.get(1)));
                r = c.json("PUT", "/fixed_index", Map.of("wid", wid, "digest-list",
                        List.of(chunks2.get(1).digest().hex(), chunks2.get(2).digest().hex()),
                        "offset-list", List.of(Backups.MIB4, 2 * Backups.MIB4)));
                assertEquals("{\"data\":null}", r.text());
                r = c.call("POST", "/fixed_close?chunk-count=2&csum=" + newCsum.hex() + "&size=" + img2.length + "&wid=" + wid);
                assertEquals("{\"data\":null}", r.text());
                DataBlob m = Backups.manifest(BackupType.VM, "300", T + 3600,
                        List.of(new FileEntry("disk.img.fidx", CryptMode.NONE, img2.length, newCsum)));
                c.upload("/blob?encoded-size=" + m.rawLength() + "&file-name=index.json.blob", m.raw());
                assertEquals("{\"data\":null}", c.call("POST", "/finish").text());
            }
            s.awaitIdle();
            Datastore ds = s.ds("store1");
            SnapshotReader r = ds.openSnapshot(vm("300", T + 3600));
            assertArrayEquals(img2, RealClientReplayTest.restore(ds, r, "disk.img.fidx"));
            assertEquals(1, r.manifest().unprotected().get("chunk_upload_stats").get("count").asInt());
        }
    }

    @Test
    void finishChecks() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            try (PbsTestClient c = s.backup(q("vm", "400", T))) {
                PbsTestClient.Resp r = c.call("POST", "/finish");
                assertEquals(400, r.status());
                assertEquals("backup does not contain valid files (file count == 0)", r.text());
                int wid = c.call("POST", "/fixed_index?archive-name=d.img.fidx&size=100").data().asInt();
                r = c.call("POST", "/finish");
                assertEquals("found open index writer - unable to finish backup", r.text());
                EncodedChunk ch = EncodedChunk.encode(Backups.random(5, 100), 0, 100, true);
                Backups.uploadAll(c, "fixed", wid, List.of(ch));
                c.json("PUT", "/fixed_index", Map.of("wid", wid, "digest-list", List.of(ch.digest().hex()), "offset-list", List.of(0)));
                r = c.call("POST", "/fixed_close?chunk-count=1&csum=" + Backups.fixedCsum(List.of(ch.digest())).hex()
                        + "&size=100&wid=" + wid);
                assertEquals("{\"data\":null}", r.text());
                r = c.call("POST", "/finish");
                assertEquals(400, r.status());
                assertTrue(r.text().startsWith("unable to update manifest blob - "), r.text());
            }
            s.awaitIdle();
            assertFalse(Files.exists(s.ds("store1").groupDir(vm("400", T).group())), "unfinished backup removed");
            // as PBS, each refused call is written into the backup's task log, before the final error
            String log = taskLogOf(s, "vm/400");
            assertTrue(log.contains(": POST /finish: 400 Bad Request: backup does not contain valid files (file count == 0)\n"),
                    log);
            assertTrue(log.contains(": POST /finish: 400 Bad Request: found open index writer - unable to finish backup\n"), log);
            assertTrue(log.contains(": POST /finish: 400 Bad Request: unable to update manifest blob - "), log);
            assertTrue(log.endsWith(": TASK ERROR: backup ended but finished flag is not set.\n"), log);
        }
    }

    /** The text of the one backup task log of {@code group} under the server's config directory. */
    static String taskLogOf(TestServer s, String group) throws Exception {
        List<String> found = new java.util.ArrayList<>();
        try (var files = Files.walk(s.dir.resolve("config"))) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                String text = new String(Files.readAllBytes(p), java.nio.charset.StandardCharsets.UTF_8);
                if (text.contains("starting new backup") && text.contains(group)) {
                    found.add(text);
                }
            }
        }
        assertEquals(1, found.size(), "one task log of " + group);
        return found.getFirst();
    }

    @Test
    void benchmarkSessionKeepsNothing() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            try (PbsTestClient c = s.backup("backup-id=benchmark&backup-time=" + T + "&backup-type=host&benchmark=true&debug=false&store=store1")) {
                for (int i = 0; i < 3; i++) {
                    assertEquals("{\"data\":null}", c.call("POST", "/speedtest", "application/x-www-form-urlencoded",
                            Backups.random(i, Backups.MIB4)).text());
                }
            }
            s.awaitIdle();
            assertFalse(Files.exists(s.ds("store1").root().resolve("host")));
        }
    }

    @Test
    void parallelSessionsOfDifferentGroups() throws Exception {
        try (TestServer s = TestServer.start(tmp, "store1")) {
            List<Thread> threads = new ArrayList<>();
            List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int i = 0; i < 3; i++) {
                int n = i;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        Backups.imageBackup(s, "store1", "50" + n, T, Backups.image(10 + n, 2, 100));
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(List.of(), errors);
            s.awaitIdle();
            for (int i = 0; i < 3; i++) {
                Datastore ds = s.ds("store1");
                assertArrayEquals(Backups.image(10 + i, 2, 100),
                        RealClientReplayTest.restore(ds, ds.openSnapshot(vm("50" + i, T)), "disk.img.fidx"));
            }
        }
    }
}
