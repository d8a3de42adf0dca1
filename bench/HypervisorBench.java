import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jpbs.client.hypervisor.BackupSession;
import org.jpbs.client.remote.Credentials;
import org.jpbs.client.remote.Repository;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;

/**
 * A QEMU-like driver of the hypervisor API ({@code docs/network-client.md}, "Hypervisor
 * library"): registers one image of SIZE_MIB MiB and writes every 4 MiB chunk with
 * {@code writeData} from THREADS writer threads, each taking the next chunk number, as QEMU's
 * backup job hands clusters to its workers. The data comes from SOURCE (read with positional
 * reads, wrapping around); all-zero chunks are passed as null (as QEMU does for zero clusters),
 * every other chunk gets its chunk number stamped into its first 8 bytes, so chunks repeated
 * from the wrapped-around source are still new. Single-file program, run with the client's
 * class path:
 * {@code java -cp 'cli/target/jpbs-cli.jar:cli/target/lib/*' bench/HypervisorBench.java REPO SOURCE SIZE_MIB THREADS GROUP}
 * (password and fingerprint from {@code PBS_PASSWORD}, {@code PBS_FINGERPRINT}).
 *
 * <p>Prints one line: {@code threads N seconds S cpu-percent C peak-rss-mib R chunks K uploaded U}
 * — wall-clock seconds and CPU of this process (user + system) from opening the session to
 * finishing it, and the process's peak resident set (VmHWM).
 */
public final class HypervisorBench {
    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: HypervisorBench REPO SOURCE SIZE_MIB THREADS GROUP");
            System.exit(2);
        }
        Repository repo = Repository.parse(args[0]);
        Path source = Path.of(args[1]);
        long size = Long.parseLong(args[2]) << 20;
        int threads = Integer.parseInt(args[3]);
        BackupGroupRef group = BackupGroupRef.parse(BackupNamespace.ROOT, args[4]);
        int chunk = BackupSession.CHUNK_SIZE;
        int chunks = (int) ((size + chunk - 1) / chunk);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

        try (FileChannel src = FileChannel.open(source, StandardOpenOption.READ)) {
            long srcChunks = src.size() / chunk;
            if (srcChunks < 1) {
                throw new IOException(source + ": smaller than one chunk");
            }
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            AtomicInteger next = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            BackupSnapshotRef snap = new BackupSnapshotRef(group, Instant.now().getEpochSecond());
            try (BackupSession s = BackupSession.open(repo, Credentials.fromEnv(System.getenv(), null), snap)) {
                int disk = s.registerImage("drive-scsi0.img", size);
                List<Thread> writers = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    writers.add(Thread.ofPlatform().name("writer-" + t).start(() -> {
                        byte[] buf = new byte[chunk];
                        try {
                            for (int i = next.getAndIncrement(); i < chunks && failure.get() == null;
                                    i = next.getAndIncrement()) {
                                long off = (long) i * chunk;
                                int len = (int) Math.min(chunk, size - off);
                                byte[] data = len == chunk ? buf : new byte[len];
                                ByteBuffer bb = ByteBuffer.wrap(data, 0, len);
                                long from = (i % srcChunks) * chunk;
                                while (bb.hasRemaining()) {
                                    if (src.read(bb, from + bb.position()) < 0) {
                                        throw new IOException(source + ": short read");
                                    }
                                }
                                s.writeData(disk, off, zero(data, len) ? null : stamp(data, i));
                            }
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    }));
                }
                for (Thread w : writers) {
                    w.join();
                }
                if (failure.get() != null) {
                    throw new IOException("writer failed: " + failure.get(), failure.get());
                }
                s.closeImage(disk);
                s.addConfig("qemu-server.conf", "memory: 1024\n".getBytes());
                s.finish();
                double secs = (System.nanoTime() - t0) / 1e9;
                double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
                BackupSession.ImageStats st = s.imageStats(disk);
                System.out.printf("threads %d seconds %.3f cpu-percent %.0f peak-rss-mib %d chunks %d uploaded %d%n",
                        threads, secs, 100 * cpu / secs, peakRssMib(), st.chunks(), st.uploadedChunks());
            }
        }
    }

    private static boolean zero(byte[] b, int len) {
        for (int i = 0; i < len; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] stamp(byte[] b, long n) {
        for (int k = 0; k < 8; k++) {
            b[k] = (byte) (n >>> (8 * k));
        }
        return b;
    }

    private static long peakRssMib() throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("VmHWM:")) {
                return Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        return -1;
    }
}
