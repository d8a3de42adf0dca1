package org.jpbs.datastore.gc;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.TestData;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.os.FileTimes;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotWriter;
import org.jpbs.datastore.tuning.Tuning;

/**
 * A datastore for GC, prune and verify tests, created once per test class and emptied between
 * tests ({@link #reset}) because creating 65,536 directories costs about a second. Chunks are
 * 4 KiB of seeded random bytes, stored uncompressed; snapshots hold one fixed index
 * {@code drive.img.fidx} with 4 KiB chunks.
 */
public final class GcFixture {
    public static final String OWNER = "root@pam";
    public static final int CHUNK = 4096;
    public static final Tuning TUNING = Tuning.DEFAULT.withThreads(2).withGcChunkMetadataPrefetch(false);

    public final Path root;
    public final Datastore ds;
    /** Chunk directories tests may have written to (reset cleans only these: scanning all 65,536 is slow). */
    private final java.util.Set<String> prefixes = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private GcFixture(Datastore ds) {
        this.ds = ds;
        this.root = ds.root();
    }

    public static GcFixture create(Path dir) throws IOException {
        return new GcFixture(Datastore.create(dir.resolve("ds"), SyncLevel.NONE));
    }

    private static volatile GcFixture shared;

    /**
     * The fixture shared by the test classes registered with {@link Shared} (one store per test
     * run), emptied by {@link #reset}.
     */
    public static GcFixture shared() {
        GcFixture f = shared;
        if (f == null) {
            throw new IllegalStateException("annotate the test class with @ExtendWith(GcFixture.Shared.class)");
        }
        return f;
    }

    /** JUnit extension creating the shared fixture once per run and deleting it at the end. */
    public static final class Shared implements org.junit.jupiter.api.extension.BeforeAllCallback {
        @Override
        public void beforeAll(org.junit.jupiter.api.extension.ExtensionContext context) {
            context.getRoot().getStore(org.junit.jupiter.api.extension.ExtensionContext.Namespace.GLOBAL)
                    .getOrComputeIfAbsent(Shared.class.getName(), k -> new Holder(), Holder.class);
        }
    }

    static final class Holder implements AutoCloseable {
        private final Path dir;

        Holder() {
            try {
                dir = Files.createTempDirectory("jpbs-gc-test-");
                shared = create(dir);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws IOException {
            shared = null;
            AtomicFiles.deleteTree(dir);
        }
    }

    public static BackupGroupRef group(String typeSlashId) {
        return BackupGroupRef.parse(BackupNamespace.ROOT, typeSlashId);
    }

    /** Removes every snapshot, group, namespace, status and chunk file. */
    public void reset() throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(root)) {
            for (Path p : s) {
                String n = p.getFileName().toString();
                if (!n.equals(".chunks") && !n.equals(".lock")) {
                    AtomicFiles.deleteTree(p);
                }
            }
        }
        for (Path f : chunkFiles()) {
            Files.delete(f);
        }
    }

    /** Every regular file in the chunk directories tests have used (see {@link #path}). */
    public List<Path> chunkFiles() throws IOException {
        prefixes.add(org.jpbs.core.blob.ZeroChunks.ZERO_4M.prefix());
        List<Path> out = new ArrayList<>();
        for (String p : prefixes) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(root.resolve(".chunks").resolve(p))) {
                for (Path f : s) {
                    if (Files.isRegularFile(f)) {
                        out.add(f);
                    }
                }
            }
        }
        return out;
    }

    /** The plaintext of chunk {@code seed}. */
    public static byte[] data(long seed) {
        return TestData.bytes(seed, CHUNK);
    }

    /** The digest of chunk {@code seed} (without storing it). */
    public static Digest digest(long seed) {
        return Digest.sha256(data(seed));
    }

    /** The blob of chunk {@code seed}. */
    public static DataBlob blob(long seed) {
        byte[] d = data(seed);
        return DataBlob.encode(d, 0, d.length, false);
    }

    /** Stores chunk {@code seed} and returns its digest. */
    public Digest chunk(long seed) throws IOException {
        Digest d = digest(seed);
        prefixes.add(d.prefix());
        ds.chunkStore().insert(d, blob(seed));
        return d;
    }

    /** Stores chunks {@code from..to-1}. */
    public List<Digest> chunks(long from, long to) throws IOException {
        List<Digest> out = new ArrayList<>();
        for (long s = from; s < to; s++) {
            out.add(chunk(s));
        }
        return out;
    }

    /** A fixed index over the digests (4 KiB chunks). */
    public static FixedIndex index(List<Digest> digests) {
        return new FixedIndex(new UUID(1, 2), 1_700_000_000L, (long) digests.size() * CHUNK, CHUNK,
                digests.toArray(new Digest[0]));
    }

    /** Commits a snapshot of {@code group} at {@code time} with one fixed index over {@code digests}. */
    public BackupSnapshotRef snapshot(BackupGroupRef group, long time, List<Digest> digests) throws IOException {
        BackupSnapshotRef ref = new BackupSnapshotRef(group, time);
        try (SnapshotWriter w = ds.beginSnapshot(ref, OWNER)) {
            w.addFixedIndex("drive.img.fidx", index(digests));
            return w.commit(new BackupManifest(group.type(), group.id(), time));
        }
    }

    /** Sets the atime of every chunk file (including .bad and temp files) to now minus {@code age}. */
    public void ageAll(Duration age) throws IOException {
        Instant t = Instant.now().minus(age);
        for (Path f : chunkFiles()) {
            FileTimes.setAtime(f, t);
        }
    }

    public Path path(Digest d) {
        prefixes.add(d.prefix());
        return ((DirectoryChunkStore) ds.chunkStore()).chunkPath(d);
    }

    public boolean exists(Digest d) {
        return Files.exists(path(d));
    }

    public GcResult gc(GcFs fs, GcListener listener) throws IOException {
        return new GarbageCollector(ds, TUNING, fs, listener, false, OWNER).run();
    }

    public GcResult gc() throws IOException {
        return gc(GcFs.local(), new GcListener() {});
    }

    public static BackupGroupRef vm(int id) {
        return new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, Integer.toString(id));
    }
}
