package org.jpbs.client.remote;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jpbs.client.http.H2Session;
import org.jpbs.client.http.Response;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;

/**
 * The TLS upload speed test of {@code proxmox-backup-client benchmark}: a backup session in
 * benchmark mode on {@code host/benchmark} (the server keeps nothing of it), then 1 MiB bodies
 * posted to {@code speedtest} over HTTP/2 for a few seconds, several in flight; the speed is the
 * bytes the server acknowledged divided by the time.
 */
public final class UploadSpeedTest {
    /** Size of one upload. */
    public static final int ITEM = 1024 * 1024;
    private static final int IN_FLIGHT = 8;

    private UploadSpeedTest() {}

    /**
     * Runs the test.
     *
     * @param millis how long to upload (PBS: 5 s)
     * @return bytes per second
     */
    public static double run(PbsClient pbs, long millis) throws IOException, InterruptedException {
        BackupSnapshotRef ref = new BackupSnapshotRef(new BackupGroupRef(BackupNamespace.ROOT, BackupType.parse("host"),
                "benchmark"), System.currentTimeMillis() / 1000);
        byte[] data = new byte[ITEM];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31 + (i >> 8));
        }
        try (H2Session s = pbs.startBenchmark(ref)) {
            long start = System.nanoTime();
            long deadline = start + millis * 1_000_000L;
            long done = 0;
            Deque<CompletableFuture<Response>> pending = new ArrayDeque<>();
            while (System.nanoTime() < deadline || !pending.isEmpty()) {
                if (System.nanoTime() < deadline && pending.size() < IN_FLIGHT) {
                    pending.add(s.call("POST", "/speedtest", "", "application/octet-stream", data));
                    continue;
                }
                Response r = await(pending.poll());
                r.data("speedtest");
                done += ITEM;
            }
            double secs = (System.nanoTime() - start) / 1e9;
            return done / secs;
        }
    }

    private static Response await(CompletableFuture<Response> f) throws IOException, InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("speedtest: " + e.getCause(), e.getCause());
        }
    }
}
