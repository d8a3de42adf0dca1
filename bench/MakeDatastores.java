import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreConfigFile;
import org.jpbs.datastore.config.DatastoreConfigStore;

/**
 * Bench helper: N datastores ds0000..ds(N-1) under BASE, registered in CONFIG/datastore.cfg in one
 * locked write (through jpbs's own config code). Layout: the light one (.chunks/0000,
 * .chunks/ffff and .lock, all a datastore lookup checks) — a full store has 65,536 chunk
 * directories, about 62 MB of kernel inodes and dentries on tmpfs each (1,000 stores: ~62 GB,
 * more than the machine has), and GET .../status never looks inside .chunks.
 * Usage: java -cp <jpbs jars> MakeDatastores.java CONFIG BASE N
 */
public class MakeDatastores {
    public static void main(String[] args) throws Exception {
        Path config = Path.of(args[0]);
        Path base = Path.of(args[1]);
        int n = Integer.parseInt(args[2]);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            Path p = base.resolve(String.format("ds%04d", i));
            Files.createDirectories(p.resolve(".chunks/0000"));
            Files.createDirectories(p.resolve(".chunks/ffff"));
            if (!Files.exists(p.resolve(".lock"))) {
                Files.createFile(p.resolve(".lock"));
            }
        }
        DatastoreConfigStore store = DatastoreConfigStore.open(config);
        store.update(f -> {
            DatastoreConfigFile g = f;
            for (int i = 0; i < n; i++) {
                String name = String.format("ds%04d", i);
                if (g.datastore(name).isEmpty()) {
                    g = g.withDatastore(new DatastoreConfig(name, Map.of("path", base.resolve(name).toString(),
                            "comment", "bench store " + i, "tuning", "sync-level=none")));
                }
            }
            return g;
        });
        System.err.printf("%d datastores in %s (%.1f s), config %s (%d bytes)%n", n, base, (System.nanoTime() - t0) / 1e9,
                store.file(), Files.size(store.file()));
    }
}
