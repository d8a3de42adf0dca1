package org.jpbs.datastore.task;

/**
 * What a running job writes its progress to: the task log ({@code docs/datastore-config.md#tasks}).
 * Each call appends one line {@code <RFC 3339 local time>: <message>} (a message with line
 * breaks becomes several lines). Thread-safe.
 */
public interface TaskLog {
    /** Appends an informational line. */
    void log(String message);

    /** Appends {@code WARN: <message>} and counts a warning (the task then ends with {@code WARNINGS: n}). */
    void warn(String message);

    /**
     * The task id of the task this log belongs to, or null if the job does not run as a task
     * (e.g. a CLI command writing to the terminal). Jobs record it where PBS does (the GC status,
     * a snapshot's {@code verify_state}).
     */
    default org.jpbs.core.api.Upid upid() {
        return null;
    }

    /**
     * Adds {@code amount} to a figure of this task (e.g. {@code backup.bytes}, {@code gc.removed.chunks};
     * the names are listed in {@code docs/metrics.md}), read by the metrics when the task ends.
     * Does nothing for a job that does not run as a task.
     */
    default void record(String figure, long amount) {
        // not a task: nobody collects figures
    }

    /** True once somebody asked the task to stop. */
    boolean abortRequested();

    /**
     * Throws if the task was asked to stop; long jobs call this between steps.
     *
     * @throws TaskAbortedException {@code "abort requested - aborting task"}
     */
    default void checkAbort() throws TaskAbortedException {
        if (abortRequested()) {
            throw new TaskAbortedException();
        }
    }
}
