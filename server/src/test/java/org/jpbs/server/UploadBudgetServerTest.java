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
 * bodies"): with a budget far smaller than what several sessions send at once, reading pauses
 * and resumes on every connection, and every backup still finishes (a connection is never left
 * paused while only its unfinished bodies are held, which only more reading can finish).
 */
class UploadBudgetServerTest {
    @TempDir(factory = ShmTempDirFactory.class)
    Path tmp;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void manyConcurrentSessionsFinishUnderATinyServerWideBudget() throws Exception {
        String key = "jpbs.server.uploadBufferMiB";
        String before = System.getProperty(key);
        TestServer server;
        System.setProperty(key, "2"); // every session sends 16 MiB of incompressible chunks at once
        try {
            server = TestServer.start(tmp, "store1");
        } finally {
            if (before == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, before);
            }
        }
        int sessions = 4;
        ExecutorService pool = Executors.newFixedThreadPool(sessions);
        try (TestServer s = server) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                int n = i;
                done.add(pool.submit(() -> {
                    byte[] img = Backups.image(100 + n, 4, 1000);
                    Backups.imageBackup(s, "store1", "70" + n, 1_700_000_000L, img);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(240, TimeUnit.SECONDS);
            }
            for (int i = 0; i < sessions; i++) {
                Path snap = s.stores.get("store1").root().resolve("vm/70" + i + "/2023-11-14T22:13:20Z");
                assertTrue(Files.isRegularFile(snap.resolve("disk.img.fidx")), snap + " was not finished");
            }
            long chunkFiles;
            try (var files = Files.walk(s.stores.get("store1").root().resolve(".chunks"))) {
                chunkFiles = files.filter(Files::isRegularFile).count();
            }
            assertEquals(sessions * 4L + 1, chunkFiles, "3 random chunks and a tail per session, and the one zero chunk");
        } finally {
            pool.shutdownNow();
        }
    }
}
