package org.jpbs.jobs.sync;

import java.io.IOException;
import java.nio.file.Path;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.jobs.JobConfigStore;
import org.jpbs.datastore.jobs.JobKind;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.task.TaskJob;

/**
 * Runs a {@code sync.cfg} job ({@code docs/sync.md#running}): looks its remote up in
 * {@code <config>/remote.cfg}, connects (certificate pinned) and runs a {@link SyncJob} between
 * the remote datastore and the local one, pull or push as {@code sync-direction} says. The
 * same body serves the scheduler, {@code jpbs sync-job run}, {@code jpbs pull} and {@code jpbs push}.
 */
public final class SyncRunner {
    /** Chunk checks in parallel. */
    static final int WORKERS = Math.max(2, Runtime.getRuntime().availableProcessors());
    /** Chunk reads and uploads in flight. */
    static final int CONCURRENCY = 16;

    private SyncRunner() {}

    /**
     * The task body of a sync job.
     *
     * @param configDir where {@code remote.cfg} is
     * @param job       the job ({@code store}, {@code remote}, {@code remote-store}, options)
     * @param store     the local datastore ({@code job.store()}), open for the task's whole run
     */
    public static TaskJob task(Path configDir, JobConfig job, Datastore store) {
        return task(configDir, job, store, g -> true);
    }

    /**
     * As {@link #task(Path, JobConfig, Datastore)}, sending only the source groups
     * {@code readable} allows (the server's scheduler: what a push job's owner may read).
     */
    public static TaskJob task(Path configDir, JobConfig job, Datastore store,
                               java.util.function.Predicate<org.jpbs.core.api.BackupGroupRef> readable) {
        return task(configDir, job, store, readable, TargetPrivileges.ALL);
    }

    /**
     * As {@link #task(Path, JobConfig, Datastore, java.util.function.Predicate)}; a push checks
     * {@code target} before removing what vanished on the remote (the server's scheduler: the
     * job owner's Remote.DatastorePrune / Remote.DatastoreModify there).
     */
    public static TaskJob task(Path configDir, JobConfig job, Datastore store,
                               java.util.function.Predicate<org.jpbs.core.api.BackupGroupRef> readable,
                               TargetPrivileges target) {
        return log -> {
            String remoteName = job.get("remote").orElseThrow(() ->
                    new IllegalArgumentException("sync job '" + job.id() + "': no 'remote' (a local sync is not supported)"));
            JobConfig remote = JobConfigStore.open(configDir, JobKind.REMOTE).read().get(remoteName).orElseThrow(() ->
                    new IllegalArgumentException("sync job '" + job.id() + "': remote '" + remoteName
                            + "' is not in remote.cfg"));
            SyncOptions o = SyncOptions.of(job);
            log.log("Starting datastore sync job '" + job.id() + "' (" + (o.push() ? "push to" : "pull from")
                    + " remote '" + remoteName + "', datastore '" + job.get("remote-store").orElseThrow() + "')");
            try (PbsClient pbs = RemoteConnection.open(remote, job.get("remote-store").orElseThrow())) {
                SyncEndpoint local = new LocalEndpoint(job.store(), store);
                SyncEndpoint far = new RemoteEndpoint(remoteName, pbs, CONCURRENCY);
                new SyncJob(o.push() ? local : far, o.push() ? far : local, o, log, WORKERS, CONCURRENCY)
                        .readableGroups(readable).targetPrivileges(target).run();
            } catch (IOException e) {
                throw RemoteConnection.explain(remote, e);
            }
            log.log("sync job '" + job.id() + "' end");
        };
    }
}
