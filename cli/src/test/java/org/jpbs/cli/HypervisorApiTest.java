package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jpbs.client.hypervisor.BackupSession;
import org.jpbs.client.hypervisor.RestoreSession;
import org.jpbs.client.restore.RestoreStats;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.manifest.BackupManifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/** The hypervisor library against a real jpbs server: parallel writes, dirty bitmaps, abort, random reads. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HypervisorApiTest {
    static final int CHUNK = BackupSession.CHUNK_SIZE;
    static final BackupGroupRef VM = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "200");
    static final long T1 = 1_710_000_000L;
    static final long T2 = T1 + 600;

    @TempDir(factory = FastTempDirs.class)
    static Path shared;

    static NetTestServer server;
    /** Two disks: 9 chunks + 1000 bytes with zero chunks, and a small 3-chunk one. */
    static byte[] disk0;
    static byte[] disk1;
    static byte[] disk0v2;

    @BeforeAll
    static void start() throws IOException {
        server = NetTestServer.startWithToken(shared.resolve("server"));
        Random r = new Random(77);
        disk0 = new byte[9 * CHUNK + 1000];
        for (int c = 0; c < 10; c++) {
            if (c != 2 && c != 5) { // chunks 2 and 5 stay zero
                byte[] t = new byte[Math.min(CHUNK, disk0.length - c * CHUNK)];
                r.nextBytes(t);
                System.arraycopy(t, 0, disk0, c * CHUNK, t.length);
            }
        }
        disk1 = new byte[3 * CHUNK];
        r.nextBytes(disk1);
        disk0v2 = disk0.clone();
        disk0v2[3 * CHUNK + 5] ^= 1;
        disk0v2[disk0.length - 1] ^= 1;
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        FastTempDirs.deleteTree(shared.resolve("server/ds"));
    }

    private static BackupSession open(long time) throws IOException {
        return BackupSession.open(server.repository(), server.credentials(), new BackupSnapshotRef(VM, time),
                new BackupSession.Options(4, true));
    }

    private static byte[] chunkOf(byte[] img, int c) {
        return Arrays.copyOfRange(img, c * CHUNK, Math.min(img.length, (c + 1) * CHUNK));
    }

    @Test
    @Order(1)
    void sixteenThreadsWriteTwoImagesInParallel() throws Exception {
        BackupSnapshotRef ref;
        try (BackupSession s = open(T1)) {
            int d0 = s.registerImage("drive-scsi0.img", disk0.length);
            int d1 = s.registerImage("drive-scsi1.img", disk1.length);
            List<int[]> work = new ArrayList<>(); // {image, chunk}, shuffled
            for (int c = 0; c < 10; c++) {
                work.add(new int[] {d0, c});
            }
            for (int c = 0; c < 3; c++) {
                work.add(new int[] {d1, c});
            }
            java.util.Collections.shuffle(work, new Random(5));
            ExecutorService pool = Executors.newFixedThreadPool(16);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> fs = new ArrayList<>();
            for (int[] w : work) {
                fs.add(pool.submit(() -> {
                    go.await();
                    byte[] img = w[0] == d0 ? disk0 : disk1;
                    boolean zero = w[0] == d0 && (w[1] == 2 || w[1] == 5);
                    s.writeData(w[0], (long) w[1] * CHUNK, zero && w[1] == 5 ? null : chunkOf(img, w[1]));
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : fs) {
                f.get();
            }
            pool.shutdown();
            IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                    () -> s.writeData(d1, 0, chunkOf(disk1, 0)));
            assertTrue(twice.getMessage().contains("already written"), twice.getMessage());
            assertThrows(IllegalArgumentException.class, () -> s.writeData(d0, 17, new byte[CHUNK]));
            assertThrows(IllegalArgumentException.class, () -> s.writeData(d0, 9L * CHUNK, new byte[CHUNK]));
            s.closeImage(d0);
            s.closeImage(d1);
            assertEquals(10, s.imageStats(d0).writtenChunks());
            assertEquals(8 + 1 + 3, s.imageStats(d0).uploadedChunks() + s.imageStats(d1).uploadedChunks(),
                    "8 data chunks and one zero chunk of disk 0, 3 chunks of disk 1, each uploaded once");
            s.addConfig("qemu-server.conf", "cores: 2\n".getBytes());
            ref = s.finish();
        }
        BackupManifest m = server.manifest(ref);
        assertEquals(3, m.files().size());
        assertEquals(8 + 1 + 3, server.uploadedChunks(ref));
        try (RestoreSession r = RestoreSession.open(server.repository(), server.credentials(), ref)) {
            assertEquals(disk0.length, r.openImage("drive-scsi0.img"));
            byte[] back = new byte[disk0.length];
            AtomicInteger nulls = new AtomicInteger();
            RestoreStats st = r.restoreImage("drive-scsi0.img", (off, data, len) -> {
                if (data == null) {
                    nulls.incrementAndGet();
                } else {
                    System.arraycopy(data, 0, back, (int) off, len);
                }
            });
            assertArrayEquals(disk0, back);
            assertEquals(2, nulls.get());
            assertEquals(8, st.fetchedChunks());
            assertEquals("cores: 2\n", new String(r.readConfig("qemu-server.conf")));
        }
    }

    @Test
    @Order(2)
    void dirtyBitmapBackupWritesOnlyDirtyChunks() throws Exception {
        BitSet dirty = new BitSet();
        dirty.set(3);
        dirty.set(9);
        BackupSnapshotRef ref;
        try (BackupSession s = open(T2)) {
            int d0 = s.registerImage("drive-scsi0.img", disk0v2.length, dirty);
            // dirty chunks only, from two threads
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    s.writeData(d0, 9L * CHUNK, chunkOf(disk0v2, 9));
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            s.writeData(d0, 3L * CHUNK, chunkOf(disk0v2, 3));
            t.join();
            s.closeImage(d0);
            // an image without a previous index cannot be incremental
            IOException e = assertThrows(IOException.class, () -> s.registerImage("drive-virtio9.img", CHUNK, new BitSet()));
            assertTrue(e.getMessage().contains("previous snapshot has no 'drive-virtio9.img.fidx'"), e.getMessage());
            // a size change cannot be incremental either
            e = assertThrows(IOException.class, () -> s.registerImage("drive-scsi1.img", disk1.length + 1, new BitSet()));
            assertTrue(e.getMessage().contains("size changed"), e.getMessage());
            ref = s.finish();
        }
        assertEquals(2, server.uploadedChunks(ref));
        BackupManifest m = server.manifest(ref);
        assertEquals(List.of("drive-scsi0.img.fidx"), m.files().stream().map(f -> f.filename()).toList());
        try (RestoreSession r = RestoreSession.open(server.repository(), server.credentials(), ref,
                new RestoreSession.Options(16, 4, 4))) {
            byte[] back = new byte[disk0v2.length];
            r.restoreImage("drive-scsi0.img.fidx", (off, data, len) -> {
                if (data != null) {
                    System.arraycopy(data, 0, back, (int) off, len);
                }
            });
            assertArrayEquals(disk0v2, back);
        }

        // a group without any previous snapshot
        try (BackupSession s = BackupSession.open(server.repository(), server.credentials(),
                new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "201"), T1))) {
            IOException e = assertThrows(IOException.class, () -> s.registerImage("drive-scsi0.img", CHUNK, new BitSet()));
            assertTrue(e.getMessage().contains("group vm/201 has no previous snapshot"), e.getMessage());
        }
        // an incremental image whose dirty chunk was not written cannot be closed
        try (BackupSession s = open(T2 + 60)) {
            int d0 = s.registerImage("drive-scsi0.img", disk0v2.length, dirty);
            s.writeData(d0, 3L * CHUNK, chunkOf(disk0v2, 3));
            IOException e = assertThrows(IOException.class, () -> s.closeImage(d0));
            assertTrue(e.getMessage().contains("dirty chunk #9"), e.getMessage());
        }
        server.awaitIdle();
    }

    @Test
    @Order(3)
    void abortFailsPendingAndLaterWritesAndLeavesNoSnapshot() throws Exception {
        int before = server.datastore().listSnapshots(VM).size();
        BackupSession s = open(T2 + 120);
        int d0 = s.registerImage("drive-scsi0.img", disk0.length);
        s.writeData(d0, 0, chunkOf(disk0, 0));
        // writers racing with the abort: each either finished before it or fails with the abort
        ExecutorService pool = Executors.newFixedThreadPool(4);
        ConcurrentHashMap<Integer, String> outcome = new ConcurrentHashMap<>();
        List<Future<?>> fs = new ArrayList<>();
        for (int c = 1; c < 9; c++) {
            int chunk = c;
            fs.add(pool.submit(() -> {
                try {
                    s.writeData(d0, (long) chunk * CHUNK, chunkOf(disk0, chunk));
                    outcome.put(chunk, "ok");
                } catch (IOException e) {
                    outcome.put(chunk, e.getMessage());
                }
            }));
        }
        s.abort("VM shut down");
        for (Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        for (String o : outcome.values()) {
            assertTrue(o.equals("ok") || o.contains("aborted: VM shut down"), o);
        }
        IOException later = assertThrows(IOException.class, () -> s.writeData(d0, 9L * CHUNK, chunkOf(disk0, 9)));
        assertEquals("backup of vm/200/" + BackupSnapshotRef.formatTime(T2 + 120) + " aborted: VM shut down",
                later.getMessage());
        assertThrows(IOException.class, () -> s.closeImage(d0));
        assertThrows(IOException.class, s::finish);
        s.close();
        server.awaitIdle();
        assertEquals(before, server.datastore().listSnapshots(VM).size(), "the aborted snapshot was removed");
    }

    @Test
    @Order(4)
    void readAtCrossesChunkBordersAndStopsAtTheEnd() throws Exception {
        BackupSnapshotRef ref = new BackupSnapshotRef(VM, T1);
        try (RestoreSession r = RestoreSession.open(server.repository(), server.credentials(), ref)) {
            long size = r.openImage("drive-scsi0.img");
            Random rnd = new Random(9);
            long[][] reads = {
                {0, 100}, {CHUNK - 10, 20}, {2L * CHUNK - 7, CHUNK + 14}, {CHUNK - 1, 3 * CHUNK + 2},
                {5L * CHUNK + 3, 65536}, {size - 1000, 1000}, {size - 10, 100}, {size, 10}, {0, 0},
            };
            for (long[] rd : reads) {
                byte[] got = r.readAt("drive-scsi0.img", rd[0], (int) rd[1]);
                int n = (int) Math.max(0, Math.min(rd[1], size - rd[0]));
                assertArrayEquals(Arrays.copyOfRange(disk0, (int) rd[0], (int) rd[0] + n), got,
                        "read " + rd[1] + " at " + rd[0]);
            }
            for (int i = 0; i < 50; i++) {
                long off = (long) (rnd.nextDouble() * size);
                int len = rnd.nextInt(3 * CHUNK);
                byte[] got = r.readAt("drive-scsi0.img", off, len);
                int n = (int) Math.min(len, size - off);
                assertArrayEquals(Arrays.copyOfRange(disk0, (int) off, (int) off + n), got);
            }
            assertThrows(IllegalArgumentException.class, () -> r.readAt("drive-scsi0.img", size + 1, 1));
            assertThrows(IllegalArgumentException.class, () -> r.readAt("nothing.img", 0, 1));
        }
    }

    @Test
    @Order(5)
    void encryptedSnapshotWithAKey() throws Exception {
        org.jpbs.core.crypto.CryptConfig key = org.jpbs.core.crypto.CryptConfig.of(new byte[32]);
        org.jpbs.core.crypto.CryptConfig other = org.jpbs.core.crypto.CryptConfig.of(new byte[] {
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32});
        BackupGroupRef g = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "210");
        BackupSnapshotRef ref = new BackupSnapshotRef(g, T1);
        try (BackupSession s = BackupSession.open(server.repository(), server.credentials(), ref,
                new BackupSession.Options(4, true).withCrypt(key))) {
            int d = s.registerImage("drive-scsi0.img", disk0.length);
            for (int c = 0; c < 10; c++) {
                s.writeData(d, (long) c * CHUNK, c == 2 ? null : chunkOf(disk0, c));
            }
            s.closeImage(d);
            s.addConfig("qemu-server.conf", "memory: 1024\n".getBytes());
            s.finish();
        }
        BackupManifest m = server.manifest(ref);
        assertEquals(key.fingerprint(), m.keyFingerprint().orElseThrow());
        m.files().forEach(f -> assertEquals(org.jpbs.core.manifest.CryptMode.ENCRYPT, f.cryptMode(), f.filename()));
        try (RestoreSession r = RestoreSession.open(server.repository(), server.credentials(), ref,
                RestoreSession.Options.defaults(), key)) {
            byte[] out = new byte[disk0.length];
            r.restoreImage("drive-scsi0.img", (off, data, len) -> {
                if (data != null) {
                    System.arraycopy(data, 0, out, (int) off, len);
                }
            });
            assertArrayEquals(disk0, out);
            assertArrayEquals(chunkOf(disk0, 3), r.readAt("drive-scsi0.img", 3L * CHUNK, CHUNK));
            assertArrayEquals(new byte[100], r.readAt("drive-scsi0.img", 2L * CHUNK + 5, 100));
            assertEquals("memory: 1024\n", new String(r.readConfig("qemu-server.conf")));
        }
        var e = assertThrows(org.jpbs.core.errors.CryptoException.class, () -> RestoreSession.open(server.repository(),
                server.credentials(), ref, RestoreSession.Options.defaults(), other));
        assertTrue(e.getMessage().contains("wrong key - manifest's key " + key.fingerprint() + " does not match provided key "
                + other.fingerprint()), e.getMessage());
        try (RestoreSession r = RestoreSession.open(server.repository(), server.credentials(), ref)) {
            assertThrows(org.jpbs.core.errors.EncryptedDataException.class, () -> r.readConfig("qemu-server.conf"));
        }
    }

    /**
     * Session 8 suspicion (docs/network-client.md): with slow writers the uploaded-chunk counter
     * reported too few chunks. 16 writers that sleep before and after each write and contend for
     * one lock while "reading", 2 upload slots, duplicate chunk contents written at the same time
     * and zero chunks: the image's counters must equal what the server counted and stored. A second
     * backup of the same group (not incremental) uploads nothing: the previous index makes every
     * chunk known, and both counters say 0.
     */
    @Test
    @Order(6)
    void slowContendedWritersCountWhatTheServerStored() throws Exception {
        BackupGroupRef g = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "220");
        int chunks = 24;
        java.util.function.IntFunction<byte[]> content = c -> {
            if (c % 7 == 3) {
                return null; // zero chunk
            }
            byte[] b = new byte[CHUNK];
            new Random(9000 + (c % 11 == 5 ? 5 : c)).nextBytes(b); // chunks 5 and 16 are equal
            return b;
        };
        java.util.Set<String> distinct = new java.util.HashSet<>();
        for (int c = 0; c < chunks; c++) {
            byte[] b = content.apply(c);
            if (b != null) {
                distinct.add(org.jpbs.core.blob.EncodedChunk.digest(b, 0, b.length, null).hex());
            }
        }
        assertEquals(chunks - 3 - 1, distinct.size()); // 3 zero chunks, 16 repeats 5
        Path zeroFile = chunkFile(org.jpbs.core.blob.ZeroChunks.digest(CHUNK).hex());
        boolean zeroStored = java.nio.file.Files.exists(zeroFile);
        long filesBefore = chunkFiles();
        for (long time : new long[] {T1, T2}) {
            BackupSnapshotRef ref = new BackupSnapshotRef(g, time);
            BackupSession.ImageStats st;
            try (BackupSession s = BackupSession.open(server.repository(), server.credentials(), ref,
                    new BackupSession.Options(2, true))) {
                int d = s.registerImage("drive-scsi0.img", (long) chunks * CHUNK);
                Object disk = new Object();
                AtomicInteger next = new AtomicInteger();
                ExecutorService pool = Executors.newFixedThreadPool(16);
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < 16; t++) {
                    Random r = new Random(t);
                    fs.add(pool.submit(() -> {
                        for (int c = next.getAndIncrement(); c < chunks; c = next.getAndIncrement()) {
                            byte[] b;
                            synchronized (disk) { // one disk for all writers
                                Thread.sleep(r.nextInt(15));
                                b = content.apply(c);
                            }
                            Thread.sleep(r.nextInt(30));
                            s.writeData(d, (long) c * CHUNK, b);
                            Thread.sleep(r.nextInt(10));
                        }
                        return null;
                    }));
                }
                for (Future<?> f : fs) {
                    f.get();
                }
                pool.shutdown();
                s.closeImage(d);
                st = s.imageStats(d);
                s.finish();
            }
            assertEquals(chunks, st.writtenChunks());
            long expected = time == T1 ? distinct.size() + 1 : 0;
            assertEquals(expected, st.uploadedChunks(), "distinct data chunks and the zero chunk, each uploaded once");
            assertEquals(expected, server.uploadedChunks(ref), "the server's count of uploads");
        }
        assertEquals(distinct.size() + (zeroStored ? 0 : 1), chunkFiles() - filesBefore, "chunk files the server stored");
    }

    private static Path chunkFile(String hex) {
        return server.storePath.resolve(".chunks").resolve(hex.substring(0, 4)).resolve(hex);
    }

    private static long chunkFiles() throws IOException {
        try (var s = java.nio.file.Files.walk(server.storePath.resolve(".chunks"))) {
            return s.filter(java.nio.file.Files::isRegularFile).count();
        }
    }
}
