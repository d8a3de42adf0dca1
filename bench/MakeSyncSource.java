import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.jpbs.client.engine.BackupCrypt;
import org.jpbs.client.engine.BackupEngine;
import org.jpbs.client.progress.ProgressListener;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.LocalSnapshotTarget;

/**
 * Bench helper for bench/sync-bench.sh: real snapshots (made by the backup engine) in the
 * datastore at ROOT, namespace NS.
 * Usage: java -cp <jpbs jars> MakeSyncSource.java ROOT NS images COUNT MIB   (COUNT vm groups, one
 *          snapshot each, a MIB MiB random image)
 *        java -cp <jpbs jars> MakeSyncSource.java ROOT NS small GROUPS PER_GROUP   (host groups with
 *          PER_GROUP snapshots of a 64 KiB image and a config blob)
 */
public class MakeSyncSource {
    public static void main(String[] a) throws Exception {
        Datastore ds = Datastore.open(Path.of(a[0]));
        BackupNamespace ns = BackupNamespace.parse(a[1]);
        ds.createNamespace(ns);
        boolean images = a[2].equals("images");
        int n = Integer.parseInt(a[3]);
        int m = Integer.parseInt(a[4]);
        Path tmp = Files.createTempFile(Path.of(a[0]).getParent(), "img", ".raw");
        Random r = new Random(42);
        long t0 = 1_700_000_000L;
        for (int g = 0; g < n; g++) {
            BackupGroupRef group = new BackupGroupRef(ns, images ? BackupType.VM : BackupType.HOST,
                    (images ? "" : "h") + (1000 + g));
            for (int s = 0; s < (images ? 1 : m); s++) {
                byte[] img = new byte[images ? m << 20 : 64 << 10];
                r.nextBytes(img);
                Files.write(tmp, img);
                BackupSnapshotRef ref = new BackupSnapshotRef(group, t0 + s * 60L);
                try (LocalSnapshotTarget t = LocalSnapshotTarget.begin(ds, ref, "root@pam", false);
                     FileChannel in = FileChannel.open(tmp, StandardOpenOption.READ)) {
                    BackupEngine e = new BackupEngine(t, BackupCrypt.NONE, w -> { });
                    e.backupBlob("host.conf.blob", ("id " + ref + "\n").getBytes());
                    e.backupImage("disk.img.fidx", in, in.size(), tmp.toString(), ProgressListener.NONE);
                    e.finish();
                }
            }
        }
        Files.delete(tmp);
    }
}
