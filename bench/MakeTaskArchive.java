import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.jpbs.core.api.Upid;

/**
 * Bench helper: a task archive ({@code CONFIG/log/tasks/archive}, the format of
 * {@code docs/datastore-config.md#tasks}) with N finished tasks of root@pam spread over the
 * last 7 days, round-robin over STORES datastores ds0000..: one in ten a garbage collection, one in
 * ten a verification job, the rest backups of their groups host/h00000..h(GROUPS-1); one in 100
 * failed. N = 10,000 is what a server keeps for its listings. The logs themselves are
 * not written: the task list reads only the archive.
 * Usage: java -cp <jpbs jars> MakeTaskArchive.java CONFIG N STORES GROUPS
 */
public class MakeTaskArchive {
    public static void main(String[] a) throws Exception {
        Path dir = Path.of(a[0], "log", "tasks");
        int n = Integer.parseInt(a[1]);
        int stores = Integer.parseInt(a[2]);
        int groups = Integer.parseInt(a[3]);
        long now = System.currentTimeMillis() / 1000;
        long span = 7 * 86400L;
        Files.createDirectories(dir);
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("archive"), StandardCharsets.UTF_8)) {
            for (int i = 0; i < n; i++) {
                long start = now - span + span * i / n;
                String store = String.format("ds%04d", i % stores);
                String type = i % 10 == 3 ? "garbage_collection" : i % 10 == 7 ? "verificationjob" : "backup";
                String id = switch (type) {
                    case "garbage_collection" -> store;
                    case "verificationjob" -> store + ":v-" + store;
                    default -> String.format("%s:host/h%05d", store, (i / stores) % groups);
                };
                Upid u = new Upid("bench", 4242, 1000, i, start, type, id, "root@pam");
                String status = i % 100 == 99 ? "backup failed: connection reset" : "OK";
                w.write(u + " " + String.format(Locale.ROOT, "%08X", start + 30) + " " + status + "\n");
            }
        }
        System.err.printf("%d tasks in %s%n", n, dir.resolve("archive"));
    }
}
