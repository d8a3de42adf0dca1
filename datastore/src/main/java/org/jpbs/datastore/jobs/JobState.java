package org.jpbs.datastore.jobs;

import java.util.Optional;
import org.jpbs.datastore.task.TaskState;

/**
 * The state of a scheduled job, as PBS keeps it in {@code jobstates/<type>-<id>.json}: created
 * (never run; {@code time} counts as its last run), started (running task), or finished (the
 * task's end state; {@code updated} is set when the schedule changed after the run).
 */
public sealed interface JobState {
    /** Never ran since it was created at {@code time} (seconds). */
    record Created(long time) implements JobState {}

    /** Started as task {@code upid}. */
    record Started(String upid) implements JobState {}

    /**
     * Finished.
     *
     * @param upid    the task
     * @param state   its end state
     * @param updated seconds, if the schedule was changed since (counts as the last run), else null
     */
    record Finished(String upid, TaskState state, Long updated) implements JobState {}

    /** The UPID of the last run, if any. */
    default Optional<String> lastUpid() {
        return switch (this) {
            case Created c -> Optional.empty();
            case Started s -> Optional.of(s.upid());
            case Finished f -> Optional.of(f.upid());
        };
    }
}
