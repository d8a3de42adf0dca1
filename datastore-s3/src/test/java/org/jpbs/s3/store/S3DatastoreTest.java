package org.jpbs.s3.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.os.AtomicFiles;
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
 * removal, and backups through an endpoint failing one answer in 50.
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
        Datastore ds = s.datastore();
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
            w.commit(new BackupManifest(g.type(), g.id(), time));
        }
        s.uploadSnapshot(ref);
        return ref;
    }

    static void assertRestores(S3Datastore s, BackupSnapshotRef ref, long[] seeds) throws IOException {
        IndexFile idx = s.datastore().openSnapshot(ref).openIndex("drive-scsi0.img.fidx");
        assertEquals(seeds.length, idx.chunkCount());
        for (int i = 0; i < seeds.length; i++) {
            assertArrayEquals(data(seeds[i]), s.datastore().chunkStore().readChunk(idx.digest(i), CHUNK, null),
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
}
