import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;

/**
 * Bench helper: GROUPS host groups hNNNNN with PER_GROUP finished snapshots each in the
 * datastore at ROOT, owner OWNER. Every snapshot directory holds its own manifest
 * (index.json.blob, listing one root.pxar.didx entry) — what a snapshot listing reads; no
 * index or chunk files, the listing never opens them.
 * With STORES, ROOT is the base of bench/MakeDatastores.java's stores and each of
 * ROOT/ds0000 .. ROOT/ds(STORES-1) gets the groups, and nine groups in ten end with a snapshot of
 * this hour (the tenth is stale: its snapshots are from 2020, as all are without STORES).
 * Usage: java -cp <jpbs jars> MakeSnapshots.java ROOT GROUPS PER_GROUP OWNER [THREADS [STORES]]
 */
public class MakeSnapshots {
    public static void main(String[] a) throws Exception {
        Path root = Path.of(a[0]);
        int groups = Integer.parseInt(a[1]);
        int per = Integer.parseInt(a[2]);
        String owner = a[3];
        int threads = a.length > 4 ? Integer.parseInt(a[4]) : 4;
        List<Path> roots = new ArrayList<>();
        if (a.length > 5) {
            for (int i = 0; i < Integer.parseInt(a[5]); i++) {
                roots.add(root.resolve(String.format("ds%04d", i)));
            }
        } else {
            roots.add(root);
        }
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> fs = new ArrayList<>();
        for (Path store : roots) {
            fs.addAll(fill(pool, store, groups, per, owner, a.length > 5));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        System.err.printf("%d snapshots (%d stores x %d groups x %d) in %s (%.1f s)%n", (long) roots.size() * groups * per,
                roots.size(), groups, per, root, (System.nanoTime() - t0) / 1e9);
    }

    private static List<Future<?>> fill(ExecutorService pool, Path root, int groups, int per, String owner, boolean fresh) {
        long hour = System.currentTimeMillis() / 1000 / 3600 * 3600;
        List<Future<?>> fs = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            int gg = g;
            fs.add(pool.submit(() -> {
                String id = String.format("h%05d", gg);
                Path group = root.resolve("host").resolve(id);
                Files.createDirectories(group);
                Files.writeString(group.resolve("owner"), owner + "\n");
                long first = fresh && gg % 10 != 0 ? hour - (per - 1) * 3600L : 1_600_000_000L;
                for (int i = 0; i < per; i++) {
                    long time = first + i * 3600L;
                    Path dir = group.resolve(BackupSnapshotRef.formatTime(time));
                    Files.createDirectory(dir);
                    BackupManifest m = new BackupManifest(BackupType.HOST, id, time);
                    m.addFile(new FileEntry("root.pxar.didx", CryptMode.NONE, 1000L + i, Digest.sha256(new byte[] {(byte) i})));
                    Files.write(dir.resolve("index.json.blob"), m.toBlob().raw());
                }
                return null;
            }));
        }
        return fs;
    }
}
