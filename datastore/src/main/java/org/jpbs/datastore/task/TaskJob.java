package org.jpbs.datastore.task;

/**
 * A job that can run as a task ({@link TaskManager#spawn}): it writes to the task log, checks
 * {@link TaskLog#checkAbort()} now and then, and reports failure by throwing (the exception's
 * message becomes the task's exit state, {@code TASK ERROR: <message>}).
 */
@FunctionalInterface
public interface TaskJob {
    /**
     * Runs the job.
     *
     * @throws Exception any failure; the task ends in error with its message
     */
    void run(TaskLog log) throws Exception;
}
