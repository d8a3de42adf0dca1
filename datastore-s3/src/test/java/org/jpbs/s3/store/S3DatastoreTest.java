package org.jpbs.s3.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.time.Instant;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.gc.GarbageCollector;
import org.jpbs.datastore.gc.GcFs;
import org.jpbs.datastore.gc.GcListener;
import org.jpbs.datastore.gc.GcResult;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.tuning.Tuning;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotWriter;
import org.jpbs.datastore.verify.SnapshotVerifyResult;
import org.jpbs.datastore.verify.Verifier;
import org.jpbs.datastore.verify.VerifyOptions;
import org.jpbs.datastore.verify.VerifyProblem;
import org.jpbs.datastore.verify.VerifyReport;
import org.jpbs.s3.client.S3Options;
import org.jpbs.s3.config.S3EndpointConfig;
import org.jpbs.s3.testing.FaultProxy;
import org.jpbs.s3.testing.TestS3Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An S3 datastore end to end on a real S3 server (s3proxy on loopback): backup, incremental
 * backup, restore, a restart with the cache deleted, a second server sharing only the bucket,
 * verify (a corrupt object is set aside, a flaky endpoint causes no false corruption), snapshot
 * removal, backups through an endpoint failing one answer in 50, and garbage collection (only
 * unreferenced chunks go; a backup and a verify racing the sweep lose nothing).
 */
class S3DatastoreTest {
    static final int CHUNK = 4096;
    static final String OWNER = "root@pam";

    @TempDir
    static Path tmp;
    static TestS3Server server;
    private static int n;

    @BeforeAll
    static void start() throws Exception {
        server = TestS3Server.start(tmp, null, "backups");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    static S3Datastore open(Path cache, String store, int port) throws IOException {
        S3EndpointConfig ep = server.endpoint("ep1", port);
        return S3Datastore.open(cache, ep, "backups", store, 64 << 10,
                S3Options.defaults().withAttempts(6, Duration.ofSeconds(10)));
    }

    static byte[] data(long seed) {
        byte[] b = new byte[CHUNK];
        new Random(seed).nextBytes(b);
        return b;
    }

    static BackupGroupRef vm(int id) {
        return new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, Integer.toString(id));
    }

    /** A backup of chunks {@code seeds} as the engine makes it: known chunks touched, new ones inserted. */
    static BackupSnapshotRef backup(S3Datastore s, BackupGroupRef g, long time, long[] seeds, List<Digest> known)
            throws IOException {
        return backup(s.datastore(), g, time, seeds, known);
    }

    static BackupSnapshotRef backup(Datastore ds, BackupGroupRef g, long time, long[] seeds, List<Digest> known)
            throws IOException {
        Digest[] digests = new Digest[seeds.length];
        for (int i = 0; i < seeds.length; i++) {
            byte[] d = data(seeds[i]);
            digests[i] = Digest.sha256(d);
            if (!(known.contains(digests[i]) && ds.chunkStore().touch(digests[i]))) {
                ds.chunkStore().insert(digests[i], DataBlob.encode(d, 0, d.length, true));
            }
        }
        BackupSnapshotRef ref = new BackupSnapshotRef(g, time);
        try (SnapshotWriter w = ds.beginSnapshot(ref, OWNER)) {
            w.addFixedIndex("drive-scsi0.img.fidx", new FixedIndex(new UUID(1, time), time,
                    (long) seeds.length * CHUNK, CHUNK, digests));
            w.commit(new BackupManifest(g.type(), g.id(), time)); // uploads the snapshot
        }
        return ref;
    }

    static void assertRestores(S3Datastore s, BackupSnapshotRef ref, long[] seeds) throws IOException {
        assertRestores(s.datastore(), ref, seeds);
    }

    static void assertRestores(Datastore ds, BackupSnapshotRef ref, long[] seeds) throws IOException {
        IndexFile idx = ds.openSnapshot(ref).openIndex("drive-scsi0.img.fidx");
        assertEquals(seeds.length, idx.chunkCount());
        for (int i = 0; i < seeds.length; i++) {
            assertArrayEquals(data(seeds[i]), ds.chunkStore().readChunk(idx.digest(i), CHUNK, null),
                    ref + " chunk " + i);
        }
    }

    static long[] seeds(long from, int count) {
        long[] s = new long[count];
        for (int i = 0; i < count; i++) {
            s[i] = from + i;
        }
        return s;
    }

    static List<Digest> digests(long[] seeds) {
        List<Digest> out = new ArrayList<>();
        for (long s : seeds) {
            out.add(Digest.sha256(data(s)));
        }
        return out;
    }

    static VerifyReport verify(S3Datastore s) throws IOException {
        try (Verifier v = new Verifier(s.datastore(), VerifyOptions.defaults(), OWNER, new Verifier.Listener() {})) {
            return v.verifyAll();
        }
    }

    static List<String> badObjects(String store) {
        List<String> out = new ArrayList<>();
        server.blobStore().list("backups").contents().forEach(o -> {
            if (o.key().startsWith(store + "/") && o.key().endsWith(".bad")) {
                out.add(o.key());
            }
        });
        return out;
    }

    @Test
    void backupIncrementalRestoreRestartAndASecondServer() throws IOException {
        String store = "store" + (++n);
        long[] first = seeds(0, 40);
        long[] second = seeds(10, 40); // 30 chunks shared with the first backup, 10 new
        BackupSnapshotRef r1;
        BackupSnapshotRef r2;
        long requestsFirst;
        long requestsSecond;
        try (S3Datastore a = open(tmp.resolve(store + "-a"), store, server.port())) {
            long before = a.objects().requests();
            r1 = backup(a, vm(100), 1_700_000_000L, first, List.of());
            requestsFirst = a.objects().requests() - before;
            before = a.objects().requests();
            r2 = backup(a, vm(100), 1_700_086_400L, second, digests(first));
            requestsSecond = a.objects().requests() - before;
            assertRestores(a, r1, first);
            assertRestores(a, r2, second);
        }
        // 40 new chunks: one conditional upload each (+ the snapshot's files); the incremental
        // backup touches 30 chunks the cache knows (no request) and uploads 10
        assertTrue(requestsFirst >= 40 && requestsFirst <= 40 + 6, "first backup: " + requestsFirst + " requests");
        assertTrue(requestsSecond >= 10 && requestsSecond <= 10 + 6, "incremental: " + requestsSecond + " requests");

        // restart with the cache deleted
        AtomicFiles.deleteTree(tmp.resolve(store + "-a"));
        try (S3Datastore a = open(tmp.resolve(store + "-a"), store, server.port())) {
            assertEquals(2, a.refresh());
            assertEquals(2, a.datastore().listSnapshots(vm(100)).size());
            assertEquals(OWNER, a.datastore().owner(vm(100)));
            assertRestores(a, r2, second);
            assertEquals(0, a.refresh(), "nothing new");
        }

        // a second server sharing nothing but the bucket
        try (S3Datastore b = open(tmp.resolve(store + "-b"), store, server.port())) {
            assertEquals(2, b.refresh());
            assertRestores(b, r1, first);
            assertTrue(verify(b).ok());
        }
    }

    @Test
    void verifySetsACorruptObjectAsideAndAFlakyEndpointCausesNoFalseCorruption() throws IOException {
        String store = "store" + (++n);
        long[] seeds = seeds(1000, 30);
        Digest victim = Digest.sha256(data(1005));
        try (S3Datastore a = open(tmp.resolve(store + "-a"), store, server.port())) {
            backup(a, vm(200), 1_700_000_000L, seeds, List.of());
            assertTrue(verify(a).ok());
            byte[] raw = a.chunks().read(victim).raw().clone();
            raw[raw.length - 1] ^= 0x10;
            a.chunks().plant(victim, raw); // damaged in the bucket, not cached
        }
        try (FaultProxy proxy = new FaultProxy(server.port(), 50, 5);
             S3Datastore flaky = open(tmp.resolve(store + "-flaky"), store, proxy.port())) {
            flaky.refresh();
            VerifyReport r = verify(flaky);
            assertEquals(1, r.failed().size());
            SnapshotVerifyResult f = r.failed().getFirst();
            assertEquals(1, f.problems().size(), f.problems().toString());
            VerifyProblem p = f.problems().getFirst();
            assertEquals(victim, p.chunk());
            assertEquals(VerifyProblem.Kind.CHUNK_CORRUPT, p.kind(), p.message());
            assertTrue(p.message().contains("renamed to " + victim.hex() + ".0.bad"), p.message());
            assertEquals(List.of(store + "/.chunks/" + victim.prefix() + "/" + victim.hex() + ".0.bad"), badObjects(store),
                    "only the damaged chunk was set aside (" + proxy + ")");
            assertTrue(proxy.exchanges() > 30, proxy.toString());
        }
    }

    @Test
    void verifyWhileTheEndpointFailsReportsCouldNotReadAndSetsNothingAside() throws IOException {
        String store = "store" + (++n);
        long[] seeds = seeds(5000, 4);
        BackupSnapshotRef ref;
        try (S3Datastore a = open(tmp.resolve(store + "-a"), store, server.port())) {
            ref = backup(a, vm(500), 1_700_000_000L, seeds, List.of());
        }
        try (FaultProxy proxy = new FaultProxy(server.port(), 1, 3)) {
            proxy.enabled(false);
            try (S3Datastore b = S3Datastore.open(tmp.resolve(store + "-b"), server.endpoint("ep1", proxy.port()),
                    "backups", store, 64 << 10, S3Options.defaults().withAttempts(3, Duration.ofSeconds(5)))) {
                assertEquals(1, b.refresh());
                proxy.enabled(true); // from now on every answer is lost
                VerifyReport r = verify(b);
                assertEquals(1, r.failed().size());
                List<VerifyProblem> problems = r.failed().getFirst().problems();
                assertFalse(problems.isEmpty());
                for (VerifyProblem p : problems) {
                    assertFalse(p.kind() == VerifyProblem.Kind.CHUNK_CORRUPT || p.kind() == VerifyProblem.Kind.CHUNK_MISSING,
                            p.toString());
                    assertTrue(p.message().contains("could not read s3://backups/" + store + "/.chunks/"), p.message());
                }
            }
        }
        assertTrue(badObjects(store).isEmpty(), "nothing set aside");
        try (S3Datastore c = open(tmp.resolve(store + "-c"), store, server.port())) {
            c.refresh();
            assertRestores(c, ref, seeds);
        }
    }

    @Test
    void aBackupWhoseChunkUploadsFailInTheBackgroundIsNotFinished() throws Exception {
        String store = "store" + (++n);
        long[] seeds = seeds(5200, 6);
        BackupGroupRef g = vm(520);
        try (FaultProxy proxy = new FaultProxy(server.port(), 1, 5);
             S3Datastore a = S3Datastore.open(tmp.resolve(store + "-a"), server.endpoint("ep1", proxy.port()),
                     "backups", store, 64 << 10, S3Options.defaults().withAttempts(2, Duration.ofSeconds(5)))) {
            proxy.enabled(true); // every answer is lost: each upload fails after its retries
            for (long s : seeds) {
                byte[] d = data(s);
                // the insert returns at once; its upload runs (and fails) in the background
                assertFalse(a.chunks().insert(Digest.sha256(d), DataBlob.encode(d, 0, d.length, true)).duplicate());
            }
            IOException e = assertThrows(IOException.class, () -> backup(a, g, 1_700_000_000L, seeds, List.of()));
            assertTrue(e.getMessage().contains("is not stored: could not write s3://backups/" + store + "/.chunks/"),
                    e.getMessage());
            assertTrue(a.datastore().listSnapshots(g).isEmpty(), "no snapshot with a chunk missing from the bucket");
            proxy.enabled(false);
            // the endpoint is back: the same backup stores its chunks now and finishes
            backup(a, g, 1_700_000_100L, seeds, List.of());
        }
        assertTrue(chunkObjects(store).containsAll(hex(digests(seeds))));
        try (S3Datastore b = open(tmp.resolve(store + "-b"), store, server.port())) {
            assertEquals(1, b.refresh(), "only the finished snapshot is in the bucket");
            assertRestores(b, new BackupSnapshotRef(g, 1_700_000_100L), seeds);
            assertTrue(verify(b).ok());
        }
    }

    @Test
    void aRemovedSnapshotLeavesTheBucketAndDoesNotComeBack() throws IOException {
        String store = "store" + (++n);
        BackupSnapshotRef r1;
        BackupSnapshotRef r2;
        try (S3Datastore a = open(tmp.resolve(store + "-a"), store, server.port())) {
            r1 = backup(a, vm(300), 1_700_000_000L, seeds(2000, 5), List.of());
            r2 = backup(a, vm(300), 1_700_000_100L, seeds(2000, 6), digests(seeds(2000, 5)));
            a.setProtected(r2, true);
            a.removeSnapshot(r1);
        }
        try (S3Datastore b = open(tmp.resolve(store + "-b"), store, server.port())) {
            assertEquals(1, b.refresh());
            assertEquals(List.of(r2), b.datastore().listSnapshots(vm(300)).stream().map(i -> i.ref()).toList());
            assertTrue(b.datastore().isProtected(r2), "the protection marker is an object too");
        }
    }

    @Test
    void backupsThroughAnEndpointFailingOneAnswerInFiftyCompleteOrFailCleanly() throws IOException {
        String store = "store" + (++n);
        List<BackupSnapshotRef> done = new ArrayList<>();
        List<long[]> contents = new ArrayList<>();
        try (FaultProxy proxy = new FaultProxy(server.port(), 50, 77);
             S3Datastore a = open(tmp.resolve(store + "-a"), store, proxy.port())) {
            List<Digest> known = List.of();
            for (int b = 0; b < 4; b++) {
                long[] s = seeds(3000 + b * 10L, 30);
                try {
                    done.add(backup(a, vm(400), 1_700_000_000L + b, s, known));
                    contents.add(s);
                    known = digests(s);
                } catch (IOException e) {
                    assertFalse(e.getMessage().isBlank()); // failed cleanly, with a message
                }
            }
            assertTrue(proxy.faults() > 0, proxy.toString());
        }
        assertFalse(done.isEmpty());
        // nothing referenced is missing: a fresh server restores and verifies every finished backup
        try (S3Datastore b = open(tmp.resolve(store + "-b"), store, server.port())) {
            b.refresh();
            for (int i = 0; i < done.size(); i++) {
                assertRestores(b, done.get(i), contents.get(i));
            }
            assertTrue(verify(b).ok());
        }
    }

    static final Tuning GC_NOW = Tuning.DEFAULT.withThreads(2).withGcAtimeCutoff(Duration.ZERO);

    static GcResult gc(S3Datastore s, GcListener listener) throws IOException {
        return new GarbageCollector(s.datastore(), GC_NOW, GcFs.local(), listener, false, OWNER).run();
    }

    /** The digests of the chunk objects of {@code store} in the bucket. */
    static Set<String> chunkObjects(String store) {
        Set<String> out = new TreeSet<>();
        server.blobStore().list("backups").contents().forEach(o -> {
            if (o.key().startsWith(store + "/.chunks/")) {
                out.add(o.key().substring(o.key().lastIndexOf('/') + 1));
            }
        });
        return out;
    }

    static Set<String> hex(List<Digest> digests) {
        Set<String> out = new TreeSet<>();
        digests.forEach(d -> out.add(d.hex()));
        return out;
    }

    /** Marks every chunk last used a day ago (as if the backups were old). */
    static void age(S3Datastore s, List<Digest> digests) throws IOException {
        for (Digest d : digests) {
            s.chunks().setLastUsed(d, Instant.now().minus(Duration.ofDays(1)));
        }
    }

    @Test
    void gcRemovesUnreferencedChunksOnly() throws IOException {
        String store = "store" + (++n);
        long[] first = seeds(5000, 40);
        long[] second = seeds(5010, 40); // 30 shared, 10 only in the first
        try (S3Datastore a = open(tmp.resolve(store + "-a"), store, server.port())) {
            BackupSnapshotRef r1 = backup(a, vm(500), 1_700_000_000L, first, List.of());
            BackupSnapshotRef r2 = backup(a, vm(500), 1_700_086_400L, second, digests(first));
            List<Digest> all = new ArrayList<>(digests(first));
            all.addAll(digests(second).subList(30, 40));
            age(a, all);
            a.removeSnapshot(r1); // a prune: the first 10 chunks are unreferenced now
            assertEquals(50, chunkObjects(store).size());

            GcResult r = gc(a, new GcListener() {});
            assertEquals(10, r.status().removedChunks(), r.toString());
            assertEquals(40, r.status().diskChunks(), r.toString());
            assertEquals(hex(digests(second)), chunkObjects(store), "exactly the referenced chunks remain");
            assertEquals(0, gc(a, new GcListener() {}).status().removedChunks(), "a second GC removes nothing");
            assertRestores(a, r2, second);
        }
        // a fresh cache (a chunk's last use is then its object's time) restores and verifies
        AtomicFiles.deleteTree(tmp.resolve(store + "-a"));
        try (S3Datastore b = open(tmp.resolve(store + "-a"), store, server.port())) {
            b.refresh();
            BackupSnapshotRef r2 = new BackupSnapshotRef(vm(500), 1_700_086_400L);
            assertEquals(0, gc(b, new GcListener() {}).status().removedChunks());
            assertRestores(b, r2, second);
            assertTrue(verify(b).ok());
        }
    }

    @Test
    void aBackupRacingGcAndVerifyOnTheSameChunksLosesNothing() throws Exception {
        String store = "store" + (++n);
        long[] old = seeds(6000, 40);
        long[] next = seeds(6000, 60); // re-uses all 40 chunks of the pruned snapshot, 20 new
        try (S3Datastore a = open(tmp.resolve(store + "-a"), store, server.port())) {
            BackupSnapshotRef r1 = backup(a, vm(600), 1_700_000_000L, old, List.of());
            BackupSnapshotRef keep = backup(a, vm(601), 1_700_000_000L, seeds(7000, 10), List.of());
            age(a, digests(old));
            age(a, digests(seeds(7000, 10)));
            a.removeSnapshot(r1); // its 40 chunks are garbage, until the new backup re-uses them
            AtomicReference<BackupSnapshotRef> racing = new AtomicReference<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicReference<VerifyReport> verified = new AtomicReference<>();
            GcListener race = new GcListener() {
                private boolean started;

                @Override
                public void progress(Phase phase, long done, long total) {
                    if (phase != Phase.SWEEP || started) {
                        return;
                    }
                    started = true; // the sweep removed its first chunk: a backup and a verify now
                    Thread v = Thread.ofPlatform().start(() -> {
                        try {
                            verified.set(verify(a));
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    });
                    try {
                        racing.set(backup(a, vm(600), 1_700_086_400L, next, digests(old)));
                        v.join();
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }
            };
            GcResult r = gc(a, race);
            if (failure.get() != null) {
                throw new AssertionError("backup or verify failed during the sweep", failure.get());
            }
            assertTrue(r.status().removedChunks() >= 1, r.toString());
            assertTrue(r.status().removedChunks() < 40, "the re-used chunks were kept: " + r);
            assertTrue(verified.get().ok(), "no chunk of a live snapshot went missing during the sweep");
            // the bucket holds every chunk of the racing backup; a GC after it removes nothing of it
            assertTrue(chunkObjects(store).containsAll(hex(digests(next))));
            gc(a, new GcListener() {});
            assertTrue(chunkObjects(store).containsAll(hex(digests(next))));
            assertRestores(a, racing.get(), next);
            assertRestores(a, keep, seeds(7000, 10));
        }
        // and from a fresh cache
        AtomicFiles.deleteTree(tmp.resolve(store + "-a"));
        try (S3Datastore b = open(tmp.resolve(store + "-a"), store, server.port())) {
            b.refresh();
            assertRestores(b, new BackupSnapshotRef(vm(600), 1_700_086_400L), next);
            assertTrue(verify(b).ok());
        }
    }

    /** A datastore.cfg naming an S3 datastore whose cache is {@code cache}, and s3.cfg with the endpoint. */
    static Path configDir(String store, Path cache) throws IOException {
        Path dir = tmp.resolve(store + "-config");
        java.nio.file.Files.createDirectories(dir);
        org.jpbs.s3.config.S3ConfigStore.open(dir).create(server.endpoint("ep1"));
        java.nio.file.Files.writeString(dir.resolve(org.jpbs.datastore.config.DatastoreConfigStore.FILE),
                "datastore: " + store + "\n\tbackend bucket=backups,client=ep1,type=s3\n\tpath " + cache + "\n");
        return dir;
    }

    static org.jpbs.datastore.config.DatastoreCache cache(Path configDir) {
        return new org.jpbs.datastore.config.DatastoreCache(
                org.jpbs.datastore.config.DatastoreConfigStore.open(configDir), java.util.Map.of(), System::nanoTime,
                new S3DatastoreOpener(configDir, S3Options.defaults().withAttempts(6, Duration.ofSeconds(10))));
    }

    @Test
    void theDatastoreCacheOpensAnS3DatastoreFromDatastoreCfgAndEveryChangeReachesTheBucket() throws IOException {
        String store = "store" + (++n);
        Path cacheDir = tmp.resolve(store + "-cache");
        Path config = configDir(store, cacheDir);
        long[] seeds = seeds(8000, 20);
        BackupSnapshotRef r1;
        BackupSnapshotRef r2;
        try (var h = cache(config).lookup(store, org.jpbs.datastore.config.Operation.WRITE)) {
            Datastore ds = h.datastore();
            assertTrue(ds.chunkStore() instanceof S3ChunkStore, ds.chunkStore().toString());
            r1 = backup(ds, vm(800), 1_700_000_000L, seeds, List.of());
            r2 = backup(ds, vm(800), 1_700_000_100L, seeds, digests(seeds));
            ds.setProtected(r1, true);
            ds.setGroupNotes(vm(800), "offsite copy");
            ds.removeSnapshot(r2);
        }
        Set<String> keys = new TreeSet<>();
        server.blobStore().list("backups").contents().forEach(o -> keys.add(o.key()));
        String g = store + "/.cnt/" + vm(800).relativePath() + "/";
        assertTrue(keys.contains(g + "owner") && keys.contains(g + "notes"), keys.toString());
        assertTrue(keys.contains(g + r1.timeString() + "/index.json.blob"), keys.toString());
        assertTrue(keys.contains(g + r1.timeString() + "/.protected"), keys.toString());
        assertFalse(keys.stream().anyMatch(k -> k.startsWith(g + r2.timeString())), "removed snapshot left objects");

        // a fresh server: the cache directory is gone, the opener fills it from the bucket
        AtomicFiles.deleteTree(cacheDir);
        try (var h = cache(config).lookup(store, org.jpbs.datastore.config.Operation.READ)) {
            Datastore ds = h.datastore();
            assertEquals(1, ds.listSnapshots(vm(800)).size());
            assertTrue(ds.isProtected(r1));
            assertEquals("offsite copy", ds.groupNotes(vm(800)));
            assertRestores(ds, r1, seeds);
        }
    }
}
