package org.jpbs.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.jpbs.datastore.config.DatastoreCache;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.task.TaskManager;
import org.jpbs.server.api.DatastoreJobs;
import org.jpbs.server.metrics.DatastoreUsage;
import org.jpbs.server.metrics.ServerMetrics;
import org.jpbs.server.notify.Notifier;
import org.jpbs.server.notify.TaskNotifications;

/**
 * The state a running server shares between its REST API and its backup/reader sessions: the
 * datastore cache over {@code <config>/datastore.cfg} plus the {@code --datastore} overlay
 * ({@link DatastoreCache}), the tasks with their logs under {@code <config>/log}
 * ({@link TaskManager}), the hook that starts GC, prune and verify ({@link DatastoreJobs}), and
 * what watches every task's end: notifications ({@link Notifier}, {@code docs/notifications.md})
 * and metrics ({@link ServerMetrics}, {@code docs/metrics.md}).
 *
 * @param datastores the datastore cache
 * @param tasks      the task manager
 * @param jobs       how the admin API starts maintenance jobs
 * @param scheduler  the job scheduler ({@code docs/jobs.md}; started by {@code jpbs serve})
 * @param notifier   sends notifications per {@code <config>/notifications.cfg}
 * @param metrics    the Prometheus metrics
 */
public record ServerServices(DatastoreCache datastores, TaskManager tasks, DatastoreJobs jobs,
                             org.jpbs.server.jobs.JobScheduler scheduler, Notifier notifier, ServerMetrics metrics) {
    /** Directory of task logs below the config directory. */
    public static final String LOG_DIR = "log";

    /** Checks for nulls. */
    public ServerServices {
        Objects.requireNonNull(datastores, "datastores");
        Objects.requireNonNull(tasks, "tasks");
        Objects.requireNonNull(jobs, "jobs");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(notifier, "notifier");
        Objects.requireNonNull(metrics, "metrics");
    }

    /**
     * The services of a server config: the datastores of {@code <configDir>/datastore.cfg} and
     * {@code config.datastores()} (each of those must be a datastore already), tasks under
     * {@code <configDir>/log}, and {@link DatastoreJobs#NOT_IMPLEMENTED}.
     *
     * @throws IOException              if a command-line datastore cannot be opened or the log
     *                                  directory cannot be created
     * @throws IllegalArgumentException for an invalid datastore name
     */
    public static ServerServices open(ServerConfig config) throws IOException {
        for (Map.Entry<String, Path> e : config.datastores().entrySet()) {
            Datastore.open(e.getValue()); // fail at start, not at the first request
            org.jpbs.server.http.HiddenPaths.addRoot(e.getValue(), org.jpbs.server.http.HiddenPaths.DATASTORE);
        }
        org.jpbs.server.http.HiddenPaths.addRoot(config.configDir(), org.jpbs.server.http.HiddenPaths.CONFIG);
        DatastoreCache cache = new DatastoreCache(DatastoreConfigStore.open(config.configDir()), config.datastores(),
                System::nanoTime);
        TaskManager tasks = TaskManager.open(config.configDir().resolve(LOG_DIR));
        Notifier notifier = new Notifier(config.configDir(), tasks.node());
        ServerMetrics metrics = new ServerMetrics(() -> DatastoreUsage.of(cache));
        tasks.addListener(metrics);
        tasks.addListener(new TaskNotifications(notifier));
        return new ServerServices(cache, tasks, DatastoreJobs.NOT_IMPLEMENTED, new org.jpbs.server.jobs.JobScheduler(
                config.configDir(), cache, tasks, java.time.Clock.systemUTC(), java.time.ZoneId.systemDefault()),
                notifier, metrics);
    }

    /** A copy with another job starter (where GC, prune and verify plug in). */
    public ServerServices withJobs(DatastoreJobs newJobs) {
        return new ServerServices(datastores, tasks, newJobs, scheduler, notifier, metrics);
    }
}
