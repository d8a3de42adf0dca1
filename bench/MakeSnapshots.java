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
 * Usage: java -cp <jpbs jars> MakeSnapshots.java ROOT GROUPS PER_GROUP OWNER [THREADS]
 */
public class MakeSnapshots {
    public static void main(String[] a) throws Exception {
        Path root = Path.of(a[0]);
        int groups = Integer.parseInt(a[1]);
        int per = Integer.parseInt(a[2]);
        String owner = a[3];
        int threads = a.length > 4 ? Integer.parseInt(a[4]) : 4;
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> fs = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            int gg = g;
            fs.add(pool.submit(() -> {
                String id = String.format("h%05d", gg);
                Path group = root.resolve("host").resolve(id);
                Files.createDirectories(group);
                Files.writeString(group.resolve("owner"), owner + "\n");
                for (int i = 0; i < per; i++) {
                    long time = 1_600_000_000L + i * 3600L;
                    Path dir = group.resolve(BackupSnapshotRef.formatTime(time));
                    Files.createDirectory(dir);
                    BackupManifest m = new BackupManifest(BackupType.HOST, id, time);
                    m.addFile(new FileEntry("root.pxar.didx", CryptMode.NONE, 1000L + i, Digest.sha256(new byte[] {(byte) i})));
                    Files.write(dir.resolve("index.json.blob"), m.toBlob().raw());
                }
                return null;
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        System.err.printf("%d snapshots (%d groups x %d) in %s (%.1f s)%n", (long) groups * per, groups, per, root,
                (System.nanoTime() - t0) / 1e9);
    }
}
