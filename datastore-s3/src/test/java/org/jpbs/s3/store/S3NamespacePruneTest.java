package org.jpbs.s3.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.prune.PruneOptions;
import org.jpbs.datastore.prune.Pruner;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotInfo;
import org.jpbs.datastore.verify.Verifier;
import org.jpbs.datastore.verify.VerifyOptions;
import org.jpbs.s3.client.S3Options;
import org.jpbs.s3.testing.TestS3Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Namespaces, prune and the {@code .in-use} marker of an S3 datastore on a real S3 server
 * (s3proxy on loopback, {@code docs/s3.md#object-layout}): a namespace has its
 * {@code .cnt/ns/<a>[/ns/<b>]/.namespace} object while it exists, so a fresh cache lists empty
 * namespaces too; prune runs the directory datastore's {@link Pruner} and its removals leave
 * the bucket; the marker is only read and written on request, never by opening.
 */
class S3NamespacePruneTest {
    @TempDir
    static Path tmp;
    static TestS3Server server;

    @BeforeAll
    static void start() throws Exception {
        server = TestS3Server.start(tmp, null, "backups");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    static S3Datastore open(Path cache, String store) throws IOException {
        return S3Datastore.open(cache, server.endpoint("ep1"), "backups", store, 64 << 10,
                S3Options.defaults().withAttempts(6, Duration.ofSeconds(10)));
    }

    static Set<String> keys(String store) {
        Set<String> out = new TreeSet<>();
        server.blobStore().list("backups").contents().forEach(o -> {
            if (o.key().startsWith(store + "/")) {
                out.add(o.key().substring(store.length() + 1));
            }
        });
        return out;
    }

    @Test
    void namespaceMarkersFollowCreateAndRemoveAndAFreshCacheListsEmptyNamespaces() throws IOException {
        String store = "nsstore";
        BackupNamespace a = BackupNamespace.parse("a");
        BackupNamespace ab = BackupNamespace.parse("a/b");
        BackupNamespace empty = BackupNamespace.parse("empty");
        BackupGroupRef g = new BackupGroupRef(ab, BackupType.VM, "100");
        long[] seeds = S3DatastoreTest.seeds(100, 8);
        BackupSnapshotRef ref;
        try (S3Datastore s = open(tmp.resolve("ns-a"), store)) {
            Datastore ds = s.datastore();
            ds.createNamespace(ab); // both levels
            ds.createNamespace(BackupNamespace.ROOT, "empty");
            ref = S3DatastoreTest.backup(ds, g, 1_700_000_000L, seeds, List.of());
        }
        Set<String> k = keys(store);
        assertTrue(k.containsAll(List.of(".cnt/ns/a/.namespace", ".cnt/ns/a/ns/b/.namespace", ".cnt/ns/empty/.namespace",
                ".cnt/ns/a/ns/b/vm/100/owner", ".cnt/ns/a/ns/b/vm/100/" + ref.timeString() + "/index.json.blob")),
                k.toString());
        assertFalse(k.contains(".in-use"), "opening writes no in-use marker: " + k);

        try (S3Datastore s = open(tmp.resolve("ns-b"), store)) { // a second server, empty cache
            assertEquals(1, s.refresh());
            Datastore ds = s.datastore();
            assertEquals(List.of(BackupNamespace.ROOT, a, ab, empty), ds.listNamespaces());
            assertEquals(List.of(g), ds.listGroups(ab));
            S3DatastoreTest.assertRestores(ds, ref, seeds);
            assertTrue(ds.removeNamespace(empty, false));
            assertFalse(ds.removeNamespace(a, false), "a namespace with a group stays without delete-groups");
        }
        k = keys(store);
        assertFalse(k.contains(".cnt/ns/empty/.namespace"), k.toString());
        assertTrue(k.contains(".cnt/ns/a/.namespace") && k.contains(".cnt/ns/a/ns/b/.namespace"), k.toString());

        try (S3Datastore s = open(tmp.resolve("ns-c"), store)) {
            s.refresh();
            assertEquals(List.of(BackupNamespace.ROOT, a, ab), s.datastore().listNamespaces());
            assertTrue(s.datastore().removeNamespace(a, true), "with its groups");
        }
        assertTrue(keys(store).stream().noneMatch(x -> x.startsWith(".cnt/")), keys(store).toString());
        try (S3Datastore s = open(tmp.resolve("ns-d"), store)) {
            assertEquals(0, s.refresh());
            assertEquals(List.of(BackupNamespace.ROOT), s.datastore().listNamespaces());
        }
    }

    @Test
    void pruneRunsTheDirectoryCodeAndItsRemovalsLeaveTheBucket() throws IOException {
        String store = "prunestore";
        BackupGroupRef g = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "200");
        long day = 86_400L;
        long t0 = 1_700_000_000L;
        try (S3Datastore s = open(tmp.resolve("prune-a"), store)) {
            List<org.jpbs.core.digest.Digest> known = List.of();
            for (int i = 0; i < 4; i++) {
                long[] seeds = S3DatastoreTest.seeds(200 + i, 6);
                S3DatastoreTest.backup(s.datastore(), g, t0 + i * day, seeds, known);
                known = S3DatastoreTest.digests(seeds);
            }
            s.datastore().setProtected(new BackupSnapshotRef(g, t0), true);
            Pruner.Result r = Pruner.prune(s.datastore(), g, new PruneOptions(2, null, null, null, null, null), false,
                    ZoneOffset.UTC);
            // keep-last 2 keeps the two newest; the protected oldest stays, the second goes
            assertEquals(List.of(new BackupSnapshotRef(g, t0 + day)), r.removed(), r.toString());
            assertTrue(r.warnings().isEmpty(), r.warnings().toString());
        }
        String removed = ".cnt/vm/200/" + new BackupSnapshotRef(g, t0 + day).timeString() + "/";
        assertTrue(keys(store).stream().noneMatch(x -> x.startsWith(removed)), keys(store).toString());
        try (S3Datastore s = open(tmp.resolve("prune-b"), store)) {
            assertEquals(3, s.refresh());
            List<BackupSnapshotRef> left = s.datastore().listSnapshots(g).stream().map(SnapshotInfo::ref).toList();
            assertEquals(List.of(new BackupSnapshotRef(g, t0), new BackupSnapshotRef(g, t0 + 2 * day),
                    new BackupSnapshotRef(g, t0 + 3 * day)), left);
            assertTrue(s.datastore().isProtected(new BackupSnapshotRef(g, t0)));
            S3DatastoreTest.assertRestores(s.datastore(), new BackupSnapshotRef(g, t0 + 3 * day),
                    S3DatastoreTest.seeds(203, 6));
            try (Verifier v = new Verifier(s.datastore(), VerifyOptions.defaults(), "root@pam", new Verifier.Listener() {})) {
                assertTrue(v.verifyAll().ok());
            }
        }
    }

    @Test
    void theInUseMarkerIsReadAndWrittenOnlyOnRequest() throws IOException {
        String store = "inusestore";
        try (S3Datastore s = open(tmp.resolve("inuse-a"), store)) {
            assertEquals(Optional.empty(), s.inUseBy());
            s.claim();
            assertEquals(Optional.of(S3Datastore.hostname()), s.inUseBy());
        }
        try (S3Datastore s = open(tmp.resolve("inuse-b"), store)) {
            byte[] json = s.objects().get(ObjectKeys.IN_USE).orElseThrow().data();
            assertEquals("{\"hostname\":\"" + S3Datastore.hostname() + "\"}", new String(json, StandardCharsets.UTF_8));
            s.objects().put(ObjectKeys.IN_USE, "{\"hostname\": \"pbs-east\"}".getBytes(StandardCharsets.UTF_8), false);
            assertEquals(Optional.of("pbs-east"), s.inUseBy(), "PBS's marker, written by another host");
            s.objects().put(ObjectKeys.IN_USE, "{}".getBytes(StandardCharsets.UTF_8), false);
            assertEquals(Optional.of(""), s.inUseBy(), "a marker naming no host");
        }
    }
}
