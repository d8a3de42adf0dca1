package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.JpbsServer;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.jobs.ScheduledJob;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A malformed job file while {@code jpbs serve} runs ({@code docs/jobs.md#the-scheduler}): its
 * error is logged once per change of the file, not at every tick; the other files' jobs stay
 * scheduled; once it parses again that is logged once and its jobs come back.
 */
class ScheduledJobsBrokenFileTest {
    @TempDir
    Path tmp;

    @Test
    void aBrokenPruneCfgIsLoggedOncePerChangeAndTheOtherJobsStay() throws Exception {
        Path config = tmp.resolve("config");
        Path root = tmp.resolve("ds");
        DatastorePool.create(root, SyncLevel.NONE);
        Files.createDirectories(config);
        Files.writeString(config.resolve("datastore.cfg"), "datastore: store1\n\tpath " + root + "\n");
        Files.writeString(config.resolve("verification.cfg"), "verification: verify1\n\tschedule daily\n\tstore store1\n");
        Path prune = config.resolve("prune.cfg");
        Files.writeString(prune, "prune: prune1\n\tkeep-last 1\n\tschedule daily\n\tstore store1\nkeep-lst 2\n");

        Logger logger = Logger.getLogger(ScheduledJobs.class.getName());
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler h = new Handler() {
            @Override
            public void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(h);
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of(), "127.0.0.1", 0);
        try (JpbsServer server = JpbsServer.start(sc, auth, JpbsRestHandler.create(sc, auth))) {
            ScheduledJobs jobs = new ScheduledJobs(server.services(), config);
            for (int tick = 0; tick < 5; tick++) {
                assertEquals(List.of("verify1"), jobs.all().stream().map(ScheduledJob::id).toList(), "the verify job stays");
            }
            assertEquals(1, errors(records).size(), records.stream().map(LogRecord::getMessage).toList().toString());
            assertTrue(errors(records).getFirst().contains("prune.cfg line 5: "),
                    errors(records).getFirst());

            // changed but still broken: logged once more
            Files.writeString(prune, "prune: prune1\n\tkeep-last 1\n\tschedule daily\n\tstore store1\nkeep-lst 3\n");
            Files.setLastModifiedTime(prune, FileTime.fromMillis(System.currentTimeMillis() + 2000));
            jobs.all();
            jobs.all();
            assertEquals(2, errors(records).size(), errors(records).toString());

            // valid again: one line saying so, and its job is back
            Files.writeString(prune, "prune: prune1\n\tkeep-last 1\n\tschedule daily\n\tstore store1\n");
            assertEquals(List.of("prune1", "verify1"), jobs.all().stream().map(ScheduledJob::id).sorted().toList());
            jobs.all();
            assertEquals(2, errors(records).size(), errors(records).toString());
            List<String> info = records.stream().filter(r -> r.getLevel() == Level.INFO).map(LogRecord::getMessage)
                    .filter(m -> m.contains("prune.cfg")).toList();
            assertEquals(List.of("scheduler: prune.cfg is valid again; its jobs are scheduled"), info);
        } finally {
            logger.removeHandler(h);
        }
    }

    private static List<String> errors(List<LogRecord> records) {
        return records.stream().filter(r -> r.getLevel() == Level.SEVERE).map(LogRecord::getMessage).toList();
    }
}
