package org.jpbs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, "a server killed mid-sync leaves no visible partial snapshot and the next run
 * completes it; the same for push" ({@code docs/sync.md#failures}), with real processes and
 * SIGKILL: a {@code jpbs serve} child process holds the source ({@code store1}) and the push
 * target ({@code store2}); a 24 MiB image (6 chunks) crosses at 4 MiB/s (the sync's rate limit;
 * for the source's answers a throttling proxy, as the pull reads ahead). Each kill happens once
 * the transfer has verifiably begun while the sync still runs (the target's chunk store grew, or
 * bytes crossed the proxy; no fixed sleep decides anything), and the test checks afterwards that
 * the transfer was indeed partial:
 * <ol>
 * <li>the pulling {@code jpbs pull} process is killed;</li>
 * <li>the source server is killed under a running pull;</li>
 * <li>the push target server is killed under a running push.</li>
 * </ol>
 * After each, the target lists no snapshot at all; the next run (server started again) copies
 * the snapshot, equal file for file (pull: byte-identical; push: indexes and blobs identical,
 * the manifest's file list equal) with every chunk of its index present.
 */
class SyncKilledProcessTest {
    static final int IMAGE_MIB = 24;
    static final String RATE = "4MiB";

    @TempDir(factory = FastTempDirs.class)
    Path tmp;

    private Process puller;

    @AfterEach
    void cleanup() throws Exception {
        if (puller != null) {
            puller.destroyForcibly();
            puller.waitFor(60, TimeUnit.SECONDS);
        }
        FastTempDirs.deleteTree(tmp);
    }

    /** The image's chunks (known from the source index: checking them is instant, unlike a walk of 65,536 directories). */
    private List<Digest> image;

    /** How many of the image's chunks are in a datastore's chunk store. */
    long chunks(Path store) {
        return image.stream().distinct().filter(d -> Files.isRegularFile(store.resolve(".chunks")
                .resolve(d.hex().substring(0, 4)).resolve(d.hex()))).count();
    }

    /** Waits until {@code store} has at least {@code atLeast} chunks, failing if the sync ends first. */
    void awaitChunks(Path store, long atLeast, BooleanSupplier running, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (chunks(store) < atLeast) {
            assertTrue(running.getAsBoolean(), what + " ended before " + atLeast + " chunks arrived (" + chunks(store) + ")");
            assertTrue(System.nanoTime() < deadline, what + ": no transfer within 180 s (" + chunks(store) + " chunks)");
            Thread.sleep(10);
        }
    }

    /** The snapshot is equal in both datastores, and every chunk of its index is in {@code to}. */
    static void assertSameSnapshot(Path from, Path to, BackupSnapshotRef ref, boolean sameManifest) throws IOException {
        Path a = Datastore.open(from).snapshotDir(ref);
        Path b = Datastore.open(to).snapshotDir(ref);
        TreeSet<String> names = names(a);
        assertEquals(names, names(b));
        for (String n : names) {
            if (n.equals("index.json.blob") && !sameManifest) {
                assertEquals(Datastore.open(from).openSnapshot(ref).manifest().files(),
                        Datastore.open(to).openSnapshot(ref).manifest().files(), "manifest file list");
            } else if (n.endsWith(".fidx")) { // the same chunks in the same order (the header's uuid/ctime may differ)
                FixedIndex x = FixedIndex.open(a.resolve(n));
                FixedIndex y = FixedIndex.open(b.resolve(n));
                assertEquals(x.size(), y.size(), n);
                assertEquals(x.chunkSize(), y.chunkSize(), n);
                assertEquals(x.computeCsum(), y.computeCsum(), n);
            } else {
                assertArrayEquals(Files.readAllBytes(a.resolve(n)), Files.readAllBytes(b.resolve(n)), n);
            }
        }
        FixedIndex idx = FixedIndex.open(b.resolve("disk.img.fidx"));
        assertEquals((long) IMAGE_MIB << 20, idx.size());
        for (int i = 0; i < idx.chunkCount(); i++) {
            String hex = idx.digest(i).hex();
            assertTrue(Files.isRegularFile(to.resolve(".chunks").resolve(hex.substring(0, 4)).resolve(hex)), hex);
            assertEquals(FixedIndex.open(a.resolve("disk.img.fidx")).digest(i), idx.digest(i), "chunk " + i);
        }
    }

    private static TreeSet<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return new TreeSet<>(s.map(p -> p.getFileName().toString()).toList());
        }
    }

    @Test
    void killedMidSyncLeavesNothingVisibleAndTheNextRunCompletes() throws Exception {
        Path store1 = tmp.resolve("s").resolve("ds1");
        Path store2 = tmp.resolve("s").resolve("ds2");
        DatastorePool.create(store1, org.jpbs.datastore.chunks.SyncLevel.NONE);
        BackupSnapshotRef ref = new BackupSnapshotRef(SyncServersTest.VM100, SyncServersTest.T1);
        SyncServersTest.backup(Datastore.open(store1), ref, 3, IMAGE_MIB, 0);
        FixedIndex source = FixedIndex.open(Datastore.open(store1).snapshotDir(ref).resolve("disk.img.fidx"));
        image = new java.util.ArrayList<>();
        for (int i = 0; i < source.chunkCount(); i++) {
            image.add(source.digest(i));
        }
        long total = chunks(store1);
        assertEquals(IMAGE_MIB / 4, total, "4 MiB chunks of random data");

        try (ServeProcess server = ServeProcess.start(tmp.resolve("s"), Map.of("store1", store1, "store2", store2))) {
            Map<String, String> env = Map.of("JPBS_CONFIG_DIR", tmp.resolve("conf").toString(), "TZ", "UTC");
            CliRunner cli = new CliRunner(tmp.resolve("home"), env);
            Path local = tmp.resolve("local");
            ok(cli, "datastore", "create", "local", local.toString());
            ok(cli, "remote", "create", "srv", "--host", "127.0.0.1", "--port", String.valueOf(server.port()),
                    "--auth-id", ServeProcess.TOKEN_ID, "--password", server.tokenSecret, "--fingerprint", server.fingerprint());
            String[] pull = {"pull", "--remote", "srv", "--remote-store", "store1", "--store", "local", "--rate-in", RATE,
                "--burst-in", RATE};

            // 1. the pulling process is killed while chunks arrive
            puller = ServeProcess.jpbs(tmp.resolve("home"), env, pull).redirectOutput(tmp.resolve("puller.log").toFile())
                    .start();
            awaitChunks(local, 2, puller::isAlive, "the pull process");
            puller.destroyForcibly();
            assertTrue(puller.waitFor(60, TimeUnit.SECONDS));
            long afterKill = chunks(local);
            assertTrue(afterKill < total, "killed mid-transfer: " + afterKill + " of " + total + " chunks");
            assertEquals(List.of(), CliRunner.snapshots(local), "no partial snapshot visible after the puller was killed");

            // 2. the source server is killed under a running pull. The pull reads up to 16 chunks ahead (all
            // of them here) while the rate limit only paces their writing, so the source's answers cross a
            // proxy at 4 MiB/s; it is killed once 6 MiB of them have crossed (of 24)
            try (ThrottlingProxy slow = new ThrottlingProxy(server.port(), Long.MAX_VALUE, 4 << 20)) {
                ok(cli, "remote", "update", "srv", "--port", String.valueOf(slow.port()));
                CompletableFuture<CliRunner.Result> running = CompletableFuture.supplyAsync(() -> cli.run(pull));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
                while (slow.downBytes() < 6 << 20) {
                    assertTrue(!running.isDone(), "the pull ended before 6 MiB crossed: " + slow.downBytes());
                    assertTrue(System.nanoTime() < deadline, "no transfer within 180 s");
                    Thread.sleep(20);
                }
                server.kill();
                CliRunner.Result failed = running.get(180, TimeUnit.SECONDS);
                assertEquals(1, failed.exit(), failed.all());
                assertTrue(slow.downBytes() < (long) IMAGE_MIB << 20, "the source died mid-transfer: " + slow.downBytes()
                        + " bytes crossed");
            }
            assertTrue(chunks(local) < total, "the source died mid-transfer: " + chunks(local) + " of " + total);
            assertEquals(List.of(), CliRunner.snapshots(local), "no partial snapshot visible after the source died");

            // the next run completes it
            server.start();
            ok(cli, "remote", "update", "srv", "--port", String.valueOf(server.port()));
            CliRunner.Result done = ok(cli, "pull", "--remote", "srv", "--remote-store", "store1", "--store", "local");
            assertEquals(1, SyncServersTest.summary(done)[0], done.all());
            assertOneFinished(local);
            assertSameSnapshot(store1, local, ref, true);
            assertEquals(List.of(), CliRunner.tempEntries(local), "the killed run's hidden directory was removed");

            // 3. the push target server is killed under a running push
            CompletableFuture<CliRunner.Result> pushing = CompletableFuture.supplyAsync(() -> cli.run("push", "--remote",
                    "srv", "--remote-store", "store2", "--store", "local", "--rate-out", RATE, "--burst-out", RATE));
            awaitChunks(store2, 2, () -> !pushing.isDone(), "the push");
            server.kill();
            CliRunner.Result pushFailed = pushing.get(180, TimeUnit.SECONDS);
            assertEquals(1, pushFailed.exit(), pushFailed.all());
            assertTrue(chunks(store2) < total, "the target died mid-transfer: " + chunks(store2) + " of " + total);
            assertEquals(List.of(), CliRunner.snapshots(store2), "no partial snapshot visible on the push target");

            server.start();
            assertEquals(List.of(), CliRunner.snapshots(store2), "nor after the target started again");
            ok(cli, "remote", "update", "srv", "--port", String.valueOf(server.port()));
            CliRunner.Result pushed = ok(cli, "push", "--remote", "srv", "--remote-store", "store2", "--store", "local");
            assertEquals(1, SyncServersTest.summary(pushed)[0], pushed.all());
            assertOneFinished(store2);
            assertSameSnapshot(local, store2, ref, false);
        }
    }

    private static void assertOneFinished(Path store) throws IOException {
        List<String> all = CliRunner.snapshots(store);
        assertEquals(1, all.size(), all.toString());
        assertTrue(all.get(0).endsWith("|true"), all.toString());
    }

    private static CliRunner.Result ok(CliRunner cli, String... args) {
        CliRunner.Result r = cli.run(args);
        assertEquals(0, r.exit(), r.all());
        return r;
    }
}
