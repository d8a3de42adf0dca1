package org.jpbs.server.api;

import java.time.Duration;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.DatastoreTuning;
import org.jpbs.datastore.gc.GarbageCollector;
import org.jpbs.datastore.gc.GcFs;
import org.jpbs.datastore.gc.GcListener;
import org.jpbs.datastore.gc.GcResult;
import org.jpbs.datastore.task.TaskJob;
import org.jpbs.datastore.task.TaskLog;
import org.jpbs.datastore.tuning.ChunkOrder;
import org.jpbs.datastore.tuning.Tuning;

/**
 * The jobs {@code jpbs serve} runs for the admin API: garbage collection of a datastore as a
 * task (spec {@code pbs-datastore-ops.md} §1), with the tuning of its {@code datastore.cfg}
 * entry. Prune and verify through the API still answer 501 (the CLI has them: {@code jpbs prune},
 * {@code jpbs verify}).
 */
public final class LocalDatastoreJobs implements DatastoreJobs {
    /** The auth id recorded in the GC status (the API checked the caller's privileges already). */
    private final String authId;

    /** @param authId recorded as the GC's owner in {@code .gc-status}, e.g. {@code root@pam} */
    public LocalDatastoreJobs(String authId) {
        this.authId = authId;
    }

    @Override
    public TaskJob garbageCollection(DatastoreHandle ds) {
        Tuning tuning = tuning(ds.config().tuning());
        return log -> {
            GcResult r = new GarbageCollector(ds.datastore(), tuning, GcFs.local(), listener(log), false, authId).run();
            log.log("Removed garbage: " + r.status().removedBytes() + " bytes, " + r.status().removedChunks()
                    + " chunks; pending " + r.status().pendingChunks() + " chunks");
        };
    }

    /** The GC tuning from a datastore's {@code datastore.cfg} options. */
    static Tuning tuning(DatastoreTuning t) {
        Tuning out = Tuning.DEFAULT
                .withGcAtimeSafetyCheck(t.gcAtimeSafetyCheck())
                .withGcAtimeCutoff(Duration.ofMinutes(t.gcAtimeCutoffMinutes()))
                .withGcCacheCapacity((int) Math.min(Integer.MAX_VALUE, t.gcCacheCapacity()))
                .withGcChunkMetadataPrefetch(t.gcChunkMetadataPrefetch());
        return out.withChunkOrder(ChunkOrder.parse(t.chunkOrder().text()));
    }

    private static GcListener listener(TaskLog log) {
        return new GcListener() {
            @Override
            public void info(String line) {
                log.log(line);
            }

            @Override
            public void warning(String line) {
                log.warn(line);
            }
        };
    }
}
