package org.jpbs.datastore.task;

import java.util.Set;

/**
 * The filters of the task list ({@code GET /nodes/{node}/tasks}, {@code docs/datastore-config.md#tasks}). Tasks are listed newest first; {@code start}/{@code limit} page the filtered list.
 *
 * @param start        index of the first task to return
 * @param limit        most tasks to return; 0 = all
 * @param store        only tasks of this datastore (worker id {@code store} or {@code store:...}), or null
 * @param running      only running tasks
 * @param errors       only tasks that failed
 * @param userfilter   only tasks whose auth id contains this, or null
 * @param since        only tasks started at or after this (epoch seconds), or null
 * @param until        only tasks started at or before this (epoch seconds), or null
 * @param typefilter   only tasks whose worker type contains this, or null
 * @param statusfilter only finished tasks in these categories, or empty for all
 */
public record TaskFilter(long start, long limit, String store, boolean running, boolean errors, String userfilter,
                         Long since, Long until, String typefilter, Set<TaskState.Kind> statusfilter) {
    /** Everything, first 50 (the PBS default page). */
    public static final TaskFilter DEFAULT = new TaskFilter(0, 50, null, false, false, null, null, null, null, Set.of());

    /** Copies the set. */
    public TaskFilter {
        statusfilter = Set.copyOf(statusfilter);
        if (start < 0 || limit < 0) {
            throw new IllegalArgumentException("start and limit must not be negative");
        }
    }

    /** A copy with another page size (0 = all). */
    public TaskFilter withLimit(long newLimit) {
        return new TaskFilter(start, newLimit, store, running, errors, userfilter, since, until, typefilter, statusfilter);
    }

    /** True if {@code t} passes every filter (paging aside). */
    public boolean matches(TaskInfo t) {
        var u = t.upid();
        if (store != null && !(u.workerId().equals(store) || u.workerId().startsWith(store + ":"))) {
            return false;
        }
        if (running && !t.running()) {
            return false;
        }
        if (errors && (t.running() || t.state().kind() != TaskState.Kind.ERROR)) {
            return false;
        }
        if (userfilter != null && !u.authId().contains(userfilter)) {
            return false;
        }
        if (since != null && u.startTime() < since || until != null && u.startTime() > until) {
            return false;
        }
        if (typefilter != null && !u.workerType().contains(typefilter)) {
            return false;
        }
        return statusfilter.isEmpty() || (!t.running() && statusfilter.contains(t.state().kind()));
    }
}
