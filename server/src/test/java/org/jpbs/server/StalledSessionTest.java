package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.datastore.lock.DirLock;
import org.jpbs.datastore.lock.LockedException;
import org.jpbs.server.http.ServerTimeouts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 4: a client that stops in the middle of a backup must not hold the group lock,
 * the datastore's shared lock and its base snapshot's lock beyond the server's limits. Real
 * server on loopback (TLS, PBS upgrade, HTTP/2); the client really stops sending bytes (its
 * socket writes are held back by a {@link TrickleHandler}) or sends only headers or PINGs;
 * a garbage collection is tried from a second JVM.
 */
class StalledSessionTest {
    private static final long T0 = 1_700_000_000L;
    private static final long T1 = T0 + 100;
    private static final long T2 = T0 + 200;
    /** The stall or idle limit of the tests (long enough for the checks while the session lives). */
    private static final int LIMIT_S = 4;
    private static final Duration LIMIT = Duration.ofSeconds(LIMIT_S);
    /** Bound of every wait: the limits of the test plus a wide margin for a loaded machine. */
    private static final Duration MARGIN = Duration.ofSeconds(20);

    @TempDir
    Path tmp;

    private static ServerTimeouts timeouts(int idleSeconds, int stallSeconds) {
        return new ServerTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(idleSeconds), Duration.ofSeconds(stallSeconds),
                ServerTimeouts.DEFAULT_TCP_KEEPALIVE);
    }

    /**
     * The stalled session holds all its locks: checks them (quickly: well within the limit),
     * then waits until it is gone and checks that they are free.
     */
    private long assertLockedThenReleased(TestServer s, LockProbe probe, PbsTestClient stalled, Duration limit)
            throws Exception {
        long t0 = System.nanoTime();
        // while the session lives: group, datastore and base snapshot are locked
        PbsTestClient.Resp refused;
        try (PbsTestClient other = PbsTestClient.connect(s.port(), s.server.fingerprint(), PbsTestClient.BACKUP)) {
            refused = other.upgrade("/api2/json/backup?" + Backups.backupQuery("store1", "100", T2),
                    java.util.Map.of("Authorization", "PBSAPIToken " + TestServer.TOKEN));
        }
        assertEquals(400, refused.status());
        assertEquals("unable to acquire lock on backup group vm/100 - another backup is already running", refused.text());
        assertTrue(probe.tryLock("exclusive").startsWith("REFUSED"), "the backup holds the datastore lock shared");
        assertTrue(baseLocked(s), "the base snapshot is share-locked");
        assertEquals(1, tmpDirs(s).size(), "the writer's hidden directory");

        long deadline = System.nanoTime() + limit.plus(MARGIN).toNanos();
        while (s.server.activeSessions() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertEquals(0, s.server.activeSessions(), "the stalled session still holds its locks after " + elapsedMs + " ms");
        assertTrue(stalled.channel().closeFuture().await(10, TimeUnit.SECONDS), "the server closed the connection");
        System.out.println("stalled session released after " + elapsedMs + " ms (limit " + limit.toMillis() + " ms)");

        assertEquals("LOCKED", probe.tryLock("gc"), "a GC of another process may run");
        assertFalse(baseLocked(s), "the base snapshot is free (may be pruned)");
        assertEquals(List.of(), tmpDirs(s), "the hidden snapshot directory was removed");
        Backups.imageBackup(s, "store1", "100", T2, Backups.random(9, 70_000));
        assertTrue(Files.isDirectory(s.ds("store1").snapshotDir(BackupProtocolTest.vm("100", T2))),
                "the next backup of the group succeeds");
        return elapsedMs;
    }

    private static boolean baseLocked(TestServer s) throws IOException {
        Path base = s.ds("store1").snapshotDir(BackupProtocolTest.vm("100", T0));
        try (DirLock l = DirLock.exclusive(base, "snapshot", "test")) {
            return false;
        } catch (LockedException e) {
            return true;
        }
    }

    private static List<Path> tmpDirs(TestServer s) throws IOException {
        Path group = s.ds("store1").groupDir(BackupProtocolTest.vm("100", T0).group());
        try (Stream<Path> l = Files.list(group)) {
            return l.filter(p -> p.getFileName().toString().startsWith(".tmp")).toList();
        }
    }

    /** A second JVM that tries datastore locks on request ({@link GcLockProbeMain}). */
    private static final class LockProbe implements AutoCloseable {
        private final Process p;
        private final java.io.BufferedReader out;

        LockProbe(Path root) throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    GcLockProbeMain.class.getName(), root.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("READY", out.readLine());
        }

        /** {@code "gc"} or {@code "exclusive"}: "LOCKED" or "REFUSED: ...". */
        String tryLock(String kind) throws IOException {
            p.getOutputStream().write((kind + "\n").getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().flush();
            return out.readLine();
        }

        @Override
        public void close() throws Exception {
            p.getOutputStream().close();
            p.waitFor(30, TimeUnit.SECONDS);
            p.destroyForcibly();
        }
    }

    /** A finished base snapshot at T0, then a session at T1 that uses it. */
    private static PbsTestClient sessionWithBase(TestServer s) throws Exception {
        Backups.imageBackup(s, "store1", "100", T0, Backups.random(1, 70_000));
        PbsTestClient c = s.backup(Backups.backupQuery("store1", "100", T1));
        assertEquals(200, c.call("GET", "/previous_backup_time").status());
        return c;
    }

    private static int fixedIndex(PbsTestClient c, long size) throws Exception {
        PbsTestClient.Resp r = c.call("POST", "/fixed_index?archive-name=disk.img.fidx&size=" + size);
        assertEquals(200, r.status(), r.toString());
        return r.data().asInt();
    }

    @Test
    void clientFrozenInTheMiddleOfAChunkUploadLosesItsLocksAfterTheStallLimit() throws Exception {
        try (TestServer s = TestServer.start(tmp, timeouts(3600, LIMIT_S), "store1"); LockProbe probe = new LockProbe(s.dir.resolve("ds-store1"));
             PbsTestClient c = sessionWithBase(s)) {
            EncodedChunk ch = EncodedChunk.encode(Backups.random(2, 1 << 20), 0, 1 << 20, true);
            int wid = fixedIndex(c, 1 << 20);
            // from now on the client's socket gets 256 KiB more, then nothing: frozen inside one DATA frame
            c.channel().pipeline().addFirst("freeze", new TrickleHandler(64 * 1024, 10, 256 * 1024));
            CompletableFuture<PbsTestClient.Resp> upload = c.request("POST", Backups.chunkQuery("fixed", wid, ch),
                    "application/octet-stream", ch.blob().raw());
            assertLockedThenReleased(s, probe, c, LIMIT);
            assertTrue(upload.isCompletedExceptionally() || upload.isDone(), "the stalled upload was not answered");
        }
    }

    @Test
    void streamOpenedWithoutAnyBodyLosesItsLocksAfterTheStallLimit() throws Exception {
        try (TestServer s = TestServer.start(tmp, timeouts(3600, LIMIT_S), "store1"); LockProbe probe = new LockProbe(s.dir.resolve("ds-store1"));
             PbsTestClient c = sessionWithBase(s)) {
            EncodedChunk ch = EncodedChunk.encode(Backups.random(3, 5000), 0, 5000, true);
            int wid = fixedIndex(c, 5000);
            Http2StreamChannel st = new Http2StreamChannelBootstrap(c.channel()).handler(new ChannelInboundHandlerAdapter())
                    .open().sync().getNow();
            DefaultHttp2Headers h = new DefaultHttp2Headers();
            h.method("POST").path(Backups.chunkQuery("fixed", wid, ch)).scheme("https").authority("localhost:8007");
            h.set("content-type", "application/octet-stream");
            st.writeAndFlush(new DefaultHttp2HeadersFrame(h, false)).sync(); // headers, then no byte of the body
            assertLockedThenReleased(s, probe, c, LIMIT);
        }
    }

    @Test
    void sessionKeptBusyOnlyWithPingsIsClosedAfterTheIdleLimit() throws Exception {
        try (TestServer s = TestServer.start(tmp, timeouts(LIMIT_S, 3600), "store1"); LockProbe probe = new LockProbe(s.dir.resolve("ds-store1"));
             PbsTestClient c = sessionWithBase(s)) {
            fixedIndex(c, 5000);
            // the client stays connected and sends HTTP/2 PINGs, but makes no request
            var pings = c.channel().eventLoop().scheduleAtFixedRate(
                    () -> c.channel().writeAndFlush(new DefaultHttp2PingFrame(System.nanoTime())), 0, 200,
                    TimeUnit.MILLISECONDS);
            try {
                assertLockedThenReleased(s, probe, c, LIMIT);
            } finally {
                pings.cancel(false);
            }
        }
    }

    @Test
    void clientThatSentGoAwayButKeepsTheSocketOpenIsClosedAfterTheIdleLimit() throws Exception {
        try (TestServer s = TestServer.start(tmp, timeouts(LIMIT_S, 3600), "store1"); LockProbe probe = new LockProbe(s.dir.resolve("ds-store1"));
             PbsTestClient c = sessionWithBase(s)) {
            fixedIndex(c, 5000);
            Http2StreamChannel st = new Http2StreamChannelBootstrap(c.channel()).handler(new ChannelInboundHandlerAdapter())
                    .open().sync().getNow();
            DefaultHttp2Headers h = new DefaultHttp2Headers();
            h.method("POST").path("/fixed_close?wid=1").scheme("https").authority("localhost:8007");
            st.writeAndFlush(new DefaultHttp2HeadersFrame(h, false)).sync(); // a request left open
            c.channel().writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR)).sync();
            assertLockedThenReleased(s, probe, c, LIMIT);
        }
    }

    @Test
    void readerThatStopsReadingLosesItsSnapshotLockAfterTheStallLimit() throws Exception {
        try (TestServer s = TestServer.start(tmp, timeouts(3600, LIMIT_S), "store1")) {
            Backups.imageBackup(s, "store1", "100", T0, Backups.random(1, 70_000));
            s.awaitIdle();
            try (PbsTestClient c = s.reader(Backups.backupQuery("store1", "100", T0).replace("&benchmark=false", ""))) {
                assertEquals(200, c.call("GET", "/download?file-name=index.json.blob").status());
                c.channel().config().setAutoRead(false); // the client stops reading from its socket
                List<CompletableFuture<PbsTestClient.Resp>> downloads = new java.util.ArrayList<>();
                for (int i = 0; i < 32; i++) { // 32 MiB of answers: more than the socket buffers hold
                    downloads.add(c.request("GET", "/speedtest", null, null));
                }
                long t0 = System.nanoTime();
                Path snap = s.ds("store1").snapshotDir(BackupProtocolTest.vm("100", T0));
                org.junit.jupiter.api.Assertions.assertThrows(LockedException.class,
                        () -> DirLock.exclusive(snap, "snapshot", "test").close(), "the reader holds the snapshot");
                long deadline = System.nanoTime() + LIMIT.plus(MARGIN).toNanos();
                while (s.server.activeSessions() > 0 && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertEquals(0, s.server.activeSessions(), "the stuck reader still holds its snapshot after " + ms + " ms");
                System.out.println("stuck reader released after " + ms + " ms (limit " + LIMIT.toMillis() + " ms)");
                DirLock.exclusive(snap, "snapshot", "test").close(); // free: could be pruned now
                assertFalse(downloads.stream().allMatch(CompletableFuture::isDone), "not every answer could be sent");
            }
        }
    }

    @Test
    void slowButProgressingUploadIsNotCut() throws Exception {
        try (TestServer s = TestServer.start(tmp, timeouts(1, 1), "store1")) {
            Backups.imageBackup(s, "store1", "100", T0, Backups.random(1, 70_000));
            try (PbsTestClient c = s.backup(Backups.backupQuery("store1", "100", T1))) {
                int size = 48 * 1024;
                EncodedChunk ch = EncodedChunk.encode(Backups.random(4, size), 0, size, true);
                int wid = fixedIndex(c, size);
                // ~10 KiB/s: the body (one DATA frame) takes ~5 s, longer than the 1 s stall and idle limits
                c.channel().pipeline().addFirst("slow", new TrickleHandler(1024, 100, Long.MAX_VALUE));
                long t0 = System.nanoTime();
                PbsTestClient.Resp r = c.request("POST", Backups.chunkQuery("fixed", wid, ch), "application/octet-stream",
                        ch.blob().raw()).get(120, TimeUnit.SECONDS);
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                System.out.println("slow upload of " + ch.blob().rawLength() + " bytes took " + ms + " ms");
                assertEquals(200, r.status(), r.toString());
                assertEquals(ch.digest().hex(), r.data().asText());
                assertTrue(ms > 3000, "the upload really was slower than the limits (" + ms + " ms)");
                assertTrue(c.isOpen());
                c.channel().pipeline().remove("slow");
            }
        }
    }

    @Test
    void acceptedConnectionsHaveTcpKeepalive() throws Exception {
        Path procTcp = Path.of("/proc/net/tcp");
        Path procTcp6 = Path.of("/proc/net/tcp6"); // Java's sockets are IPv6 ones where the system has IPv6
        assumeTrue(Files.isReadable(procTcp), "Linux /proc/net/tcp");
        try (TestServer s = TestServer.start(tmp, timeouts(3600, 3600), "store1");
             PbsTestClient c = s.backup(Backups.backupQuery("store1", "100", T0))) {
            assertEquals(200, c.call("GET", "/previous_backup_time").status());
            String port = String.format("%04X", s.port());
            String line = null;
            for (int i = 0; i < 50 && line == null; i++) { // the keepalive timer is armed once the socket is quiet
                line = Stream.concat(Files.readAllLines(procTcp).stream(), Files.isReadable(procTcp6)
                                ? Files.readAllLines(procTcp6).stream() : Stream.<String>empty()).map(String::trim)
                        .filter(l -> l.split("\\s+")[1].endsWith(":" + port) && l.split("\\s+")[3].equals("01"))
                        .filter(l -> l.split("\\s+")[5].startsWith("02:")).findFirst().orElse(null);
                Thread.sleep(100);
            }
            assertTrue(line != null, "the server side of the connection runs a keepalive timer (tr 02)");
            long ticks = Long.parseLong(line.split("\\s+")[5].substring(3), 16); // USER_HZ = 100
            assertTrue(ticks <= ServerTimeouts.DEFAULT_TCP_KEEPALIVE.toSeconds() * 100,
                    "first probe within TCP_KEEPIDLE = 120 s, not the kernel's 2 h: " + line);
        }
    }
}
