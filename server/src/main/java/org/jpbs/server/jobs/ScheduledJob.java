package org.jpbs.server.jobs;

import java.io.IOException;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.task.TaskJob;

/**
 * A job the scheduler runs: its identity (state type and id, PBS's job-state file
 * {@code <stateType>-<id>.json}), the task it runs as (worker type and id), its schedule, the
 * datastore it needs and how, and the task body. Sync jobs, notification and metric jobs plug in
 * by implementing it.
 */
public interface ScheduledJob {
    /** Job-state type, e.g. {@code prunejob}, {@code verificationjob}, {@code garbage_collection}. */
    String stateType();

    /** Job id (for GC: the datastore name). */
    String id();

    /** Worker type of the task, e.g. {@code prunejob}. */
    String workerType();

    /** Worker id of the task, e.g. {@code store1:nightly}. */
    String workerId();

    /** The calendar event, or null if the job only runs on demand. */
    String schedule();

    /** The local datastore the job works on. */
    String store();

    /** How the job uses the datastore (decides whether a maintenance mode blocks it). */
    Operation operation();

    /**
     * The task body; the scheduler closes the handle when the task ends.
     *
     * @throws IOException to refuse the start (no task is created)
     */
    TaskJob task(DatastoreHandle store) throws IOException;

    /** The key of the job in the scheduler, {@code <stateType>-<id>}. */
    default String key() {
        return stateType() + "-" + id();
    }
}
