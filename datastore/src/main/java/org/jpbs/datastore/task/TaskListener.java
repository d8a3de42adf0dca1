package org.jpbs.datastore.task;

/**
 * Told when a task ends ({@code docs/notifications.md}, {@code docs/metrics.md}): notifications
 * and metrics hang here, so every task — an API call, a scheduled job, a backup session — is
 * seen the same way. Called on the thread that ended the task, after its last log line and its
 * archive line are written; a listener must return quickly (hand slow work to another thread)
 * and must not throw (an exception is logged and ignored).
 */
@FunctionalInterface
public interface TaskListener {
    /**
     * A task ended.
     *
     * @param task  the ended task: UPID, log file, warnings, {@link WorkerTask#figures()}
     * @param state how it ended
     */
    void taskEnded(WorkerTask task, TaskState state);
}
