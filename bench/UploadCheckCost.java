import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.jpbs.core.blob.DataBlob;

/**
 * The CPU seconds a server spends checking the uploads of one backup: for every chunk file of a
 * datastore, what `jpbs serve` does with an unencrypted upload before storing it (PBS does the
 * same) — CRC, zstd decompression and SHA-256 of the plaintext (`DataBlob.plainDigest`, called by
 * the server's `ChunkUpload.verify`). The chunk files are read into memory first (not timed); then
 * the whole set is checked WARMUP times (JIT warm-up, as in a long-running server) and RUNS times
 * measured, with this thread's CPU time. Prints one line: `check-cpu-seconds MEDIAN chunks N`.
 * Run: java -cp JPBS_CLASSPATH bench/UploadCheckCost.java DATASTORE_DIR [RUNS] [WARMUP]
 * (bench/net-backup-restore.sh runs it on the local datastore of its backups).
 */
public class UploadCheckCost {
    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: UploadCheckCost DATASTORE_DIR [RUNS] [WARMUP]");
            System.exit(2);
        }
        Path chunks = Path.of(args[0], ".chunks");
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        List<DataBlob> blobs = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(chunks)) {
            for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                DataBlob b = DataBlob.wrap(Files.readAllBytes(p), p.getFileName().toString());
                if (b.isEncrypted()) {
                    continue; // the server cannot decode these; it checks framing and CRC only
                }
                blobs.add(b);
                sizes.add(b.decode(p.getFileName().toString(), -1).length);
            }
        }
        if (blobs.isEmpty()) {
            System.err.println(chunks + ": no unencrypted chunk files");
            System.exit(1);
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double[] secs = new double[runs];
        for (int r = -warmup; r < runs; r++) {
            long t0 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < blobs.size(); i++) {
                blobs.get(i).plainDigest("chunk", sizes.get(i));
            }
            if (r >= 0) {
                secs[r] = (mx.getCurrentThreadCpuTime() - t0) / 1e9;
            }
        }
        Arrays.sort(secs);
        System.out.printf("check-cpu-seconds %.3f chunks %d%n", secs[runs / 2], blobs.size());
    }
}
