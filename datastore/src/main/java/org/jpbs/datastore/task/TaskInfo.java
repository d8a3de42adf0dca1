package org.jpbs.datastore.task;

import org.jpbs.core.api.Upid;

/**
 * A task as listed: its UPID and, once it has ended, its exit state.
 *
 * @param upid  the task id
 * @param state how it ended, or null while it runs
 */
public record TaskInfo(Upid upid, TaskState state) {
    /** True while the task runs. */
    public boolean running() {
        return state == null;
    }
}
