package org.jpbs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server-wide budget for held request bodies ({@code docs/design.md}, "buffered request
 * bodies"; {@code docs/network-client.md}, "Server memory"): with a budget far smaller than what
 * several sessions send at once, the flow-control credit of every connection is withheld and
 * given back, every backup still finishes (credit is never withheld while only more data could
 * free bytes), and the most bytes ever held stays near the budget.
 */
class UploadBudgetServerTest {
    /**
     * What the mechanism allows with an 8 MiB budget and 16 sessions of 8 chunk uploads at once:
     * the budget; what each connection may still send once credit is withheld (its 1 MiB window),
     * twice, since a body arriving over the budget grows its array by doubling; and the
     * unfinished bodies of the one exempt connection (8 chunks of 4 MiB and a blob header).
     */
    private static final long BOUND = (8L << 20) + 2 * 16 * (1L << 20) + 8 * ((4L << 20) + 64 * 1024);

    @TempDir(factory = ShmTempDirFactory.class)
    Path tmp;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void sixteenSessionsUploadingAtOnceStayWithinAnEightMiBBudget() throws Exception {
        int sessions = 16;
        int chunks = 8; // each session sends 8 incompressible 4 MiB chunks at once: 512 MiB in all
        TestServer server = startWithBudget("8");
        ExecutorService pool = Executors.newFixedThreadPool(sessions);
        try (TestServer s = server) {
            var channels = s.server.channels();
            assertEquals(8L << 20, channels.uploadBudgetBytes());
            assertEquals(1 << 20, channels.uploadConnectionWindow(), "an eighth of the budget, at least 1 MiB");
            backUpAtOnce(s, pool, sessions, chunks, "80");
            long peak = channels.uploadPeakBytes();
            System.out.printf("upload budget 8 MiB, %d sessions x %d chunks of 4 MiB: peak held %.1f MiB%n", sessions,
                    chunks, peak / 1048576.0);
            assertTrue(peak > 0, "uploads were counted");
            assertTrue(peak <= BOUND, "peak held " + peak + " bytes, bound " + BOUND);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void manyConcurrentSessionsFinishUnderATinyServerWideBudget() throws Exception {
        TestServer server = startWithBudget("2"); // every session sends 16 MiB of incompressible chunks at once
        int sessions = 4;
        ExecutorService pool = Executors.newFixedThreadPool(sessions);
        try (TestServer s = server) {
            backUpAtOnce(s, pool, sessions, 4, "70");
            long chunkFiles;
            try (var files = Files.walk(s.stores.get("store1").root().resolve(".chunks"))) {
                chunkFiles = files.filter(Files::isRegularFile).count();
            }
            assertEquals(sessions * 4L + 1, chunkFiles, "3 random chunks and a tail per session, and the one zero chunk");
        } finally {
            pool.shutdownNow();
        }
    }

    /** {@code sessions} image backups of {@code chunks} random 4 MiB chunks each at once (ids {@code prefix + i}); all must finish. */
    private static void backUpAtOnce(TestServer s, ExecutorService pool, int sessions, int chunks, String prefix)
            throws Exception {
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            int n = i;
            done.add(pool.submit(() -> {
                byte[] img = Backups.image(Long.parseLong(prefix) * 10 + n, chunks, 1000);
                Backups.imageBackup(s, "store1", prefix + n, 1_700_000_000L, img);
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(280, TimeUnit.SECONDS);
        }
        for (int i = 0; i < sessions; i++) {
            Path snap = s.stores.get("store1").root().resolve("vm/" + prefix + i + "/2023-11-14T22:13:20Z");
            assertTrue(Files.isRegularFile(snap.resolve("disk.img.fidx")), snap + " was not finished");
        }
    }

    /** A test server whose upload budget is {@code mib} MiB. */
    private TestServer startWithBudget(String mib) throws Exception {
        String key = "jpbs.server.uploadBufferMiB";
        String before = System.getProperty(key);
        System.setProperty(key, mib);
        try {
            return TestServer.start(tmp, "store1");
        } finally {
            if (before == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, before);
            }
        }
    }
}
