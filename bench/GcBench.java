import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.gc.GarbageCollector;
import org.jpbs.datastore.gc.GcFs;
import org.jpbs.datastore.gc.GcListener;
import org.jpbs.datastore.gc.GcResult;
import org.jpbs.datastore.os.FileTimes;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.tuning.ChunkOrder;
import org.jpbs.datastore.tuning.Tuning;

/**
 * Garbage-collection benchmark helper (run by bench/gc-bench.sh with the jpbs jars on the class
 * path, through the single-file source launcher).
 *
 * <pre>
 * build DIR GROUPS SNAPS BASE CHANGE GARBAGE CHUNK_BYTES THREADS
 *     a datastore at DIR: GROUPS groups vm/0.. with SNAPS snapshots each; the first snapshot of a
 *     group references BASE chunks (one fixed index, 4 MiB chunks), each later one replaces
 *     CHANGE more of them with new chunks; plus GARBAGE unreferenced chunks with an atime two
 *     days old. Chunk files hold CHUNK_BYTES bytes (GC never reads them). Files are written by
 *     THREADS threads.
 * run DIR LABEL RUNS DROP THREADS PREFETCH ORDER CACHE
 *     RUNS dry-run garbage collections (nothing removed, so every run sees the same store),
 *     dropping the page/dentry/inode caches before each if DROP=1; prints one result line with
 *     the medians.
 * baseline DIR THREADS
 *     touches every referenced chunk once with a bare utimensat loop (1 and THREADS threads):
 *     the kernel's rate, an upper bound for phase 1's touches.
 * sweep DIR THREADS
 *     one real garbage collection (removes the garbage); prints its line.
 * </pre>
 */
public class GcBench {
    public static void main(String[] a) throws Exception {
        switch (a[0]) {
            case "build" -> build(Path.of(a[1]), Integer.parseInt(a[2]), Integer.parseInt(a[3]), Integer.parseInt(a[4]),
                    Integer.parseInt(a[5]), Integer.parseInt(a[6]), Integer.parseInt(a[7]), Integer.parseInt(a[8]));
            case "run" -> run(Path.of(a[1]), a[2], Integer.parseInt(a[3]), a[4].equals("1"), Integer.parseInt(a[5]),
                    a[6].equals("1"), ChunkOrder.parse(a[7]), Integer.parseInt(a[8]), true);
            case "baseline" -> baseline(Path.of(a[1]), Integer.parseInt(a[2]));
            case "sweep" -> run(Path.of(a[1]), "real GC (removes the garbage)", 1, false, Integer.parseInt(a[2]), false,
                    ChunkOrder.INODE, Tuning.DEFAULT_CACHE_CAPACITY, false);
            default -> throw new IllegalArgumentException("unknown mode " + a[0]);
        }
    }

    static Digest digest(long id) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(ByteBuffer.allocate(8).putLong(id).array());
        return Digest.of(md.digest());
    }

    static void build(Path dir, int groups, int snaps, int base, int change, int garbage, int chunkBytes, int threads)
            throws Exception {
        long t0 = System.nanoTime();
        Datastore ds = Datastore.create(dir, SyncLevel.NONE);
        long perGroup = base + (long) (snaps - 1) * change;
        long referenced = groups * perGroup;
        long total = referenced + garbage;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicLong written = new AtomicLong();
        byte[] payload = new byte[chunkBytes];
        List<Future<?>> fs = new ArrayList<>();
        long slice = (total + threads * 16L - 1) / (threads * 16L);
        for (long from = 0; from < total; from += slice) {
            long f = from, to = Math.min(total, from + slice);
            fs.add(pool.submit(() -> {
                for (long id = f; id < to; id++) {
                    Path p = ((DirectoryChunkStore) ds.chunkStore()).chunkPath(digest(id));
                    try (FileChannel ch = FileChannel.open(p, EnumSet.of(StandardOpenOption.CREATE_NEW,
                            StandardOpenOption.WRITE))) {
                        if (payload.length > 0) {
                            ch.write(ByteBuffer.wrap(payload));
                        }
                    }
                    if (id >= referenced) {
                        FileTimes.setAtime(p, Instant.now().minus(Duration.ofDays(2)));
                    }
                    written.incrementAndGet();
                }
                return null;
            }));
        }
        long snapshotsWritten = 0;
        for (int g = 0; g < groups; g++) {
            long gbase = g * perGroup;
            Digest[] d = new Digest[base];
            for (int j = 0; j < base; j++) {
                d[j] = digest(gbase + j);
            }
            for (int s = 0; s < snaps; s++) {
                if (s > 0) {
                    for (int r = 0; r < change; r++) {
                        int pos = ((s - 1) * change + r) % base;
                        d[pos] = digest(gbase + base + (long) (s - 1) * change + r);
                    }
                }
                long time = 1_700_000_000L + s * 86_400L;
                Path sd = dir.resolve("vm").resolve(Integer.toString(g)).resolve(BackupSnapshotRef.formatTime(time));
                Files.createDirectories(sd);
                FixedIndex idx = new FixedIndex(new UUID(g, s), time, (long) base << 22, 1 << 22, d);
                Files.write(sd.resolve("drive-scsi0.img.fidx"), idx.encode());
                snapshotsWritten++;
            }
        }
        for (Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        System.out.printf(Locale.ROOT, "built %s: %,d chunk files (%,d referenced, %,d old garbage, %d bytes each), "
                        + "%,d snapshots in %d groups, %,d index entries, in %.1f s%n", dir, written.get(), referenced,
                garbage, chunkBytes, snapshotsWritten, groups, (long) groups * snaps * base, (System.nanoTime() - t0) / 1e9);
    }

    static void baseline(Path dir, int threads) throws Exception {
        java.util.Set<Digest> set = new java.util.HashSet<>();
        try (var w = Files.walk(dir.resolve("vm"))) {
            for (Path p : (Iterable<Path>) w.filter(p -> p.toString().endsWith(".fidx"))::iterator) {
                FixedIndex f = FixedIndex.read(ByteBuffer.wrap(Files.readAllBytes(p)), p.toString());
                for (int i = 0; i < f.chunkCount(); i++) {
                    set.add(f.digest(i));
                }
            }
        }
        List<Digest> all = new ArrayList<>(set);
        java.util.Collections.sort(all);
        for (int t : threads == 1 ? new int[] {1} : new int[] {1, threads}) {
            double[] secs = new double[3];
            for (int r = 0; r < secs.length; r++) {
                long t0 = System.nanoTime();
                ExecutorService ex = Executors.newFixedThreadPool(t);
                List<Future<?>> fs = new ArrayList<>();
                for (int k = 0; k < t; k++) {
                    int from = (int) ((long) all.size() * k / t), to = (int) ((long) all.size() * (k + 1) / t);
                    fs.add(ex.submit(() -> {
                        try (var ct = org.jpbs.datastore.os.ChunkToucher.open(dir.resolve(".chunks"))) {
                            for (Digest d : all.subList(from, to)) {
                                ct.touch(d);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : fs) {
                    f.get();
                }
                ex.shutdown();
                secs[r] = (System.nanoTime() - t0) / 1e9;
            }
            System.out.printf(Locale.ROOT, "utimensat on %,d distinct chunk files, %d thread(s): %.0f/s (median of 3)%n",
                    all.size(), t, all.size() / median(secs));
        }
    }

    static boolean dropCaches() {
        try {
            Process p = new ProcessBuilder("sh", "-c", "sync && echo 3 > /proc/sys/vm/drop_caches")
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static void run(Path dir, String label, int runs, boolean drop, int threads, boolean prefetch, ChunkOrder order,
                    int cache, boolean dryRun) throws Exception {
        Datastore ds = Datastore.open(dir, SyncLevel.NONE);
        Tuning t = Tuning.DEFAULT.withThreads(threads).withGcChunkMetadataPrefetch(prefetch).withChunkOrder(order)
                .withGcCacheCapacity(cache);
        double[] p1 = new double[runs];
        double[] p2 = new double[runs];
        GcResult last = null;
        for (int i = 0; i < runs; i++) {
            if (drop && !dropCaches()) {
                System.out.println(label + ": cannot drop caches (needs root); not measured");
                return;
            }
            last = new GarbageCollector(ds, t, GcFs.local(), new GcListener() {}, dryRun, "root@pam").run();
            p1[i] = last.markNanos() / 1e9;
            p2[i] = last.sweepNanos() / 1e9;
        }
        double m1 = median(p1);
        double m2 = median(p2);
        System.out.printf(Locale.ROOT, "%-44s %7.2f %11.0f %10.0f %10d %7.2f %10.0f %9d%n", label, m1,
                last.indexEntries() / m1, last.touches() / m1, last.touches(), m2, last.sweptEntries() / m2,
                last.status().removedChunks());
    }
}
