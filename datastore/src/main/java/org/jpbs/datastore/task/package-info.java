/**
 * Tasks as PBS runs them ({@code docs/datastore-config.md#tasks}): every long job — a backup
 * session, garbage collection, prune, verify — runs as a task with a UPID
 * ({@link org.jpbs.core.api.Upid}), a log file of {@code <time>: <message>} lines ending in
 * {@code TASK OK}, {@code TASK WARNINGS: n} or {@code TASK ERROR: <message>}, a status and an exit
 * state. {@link org.jpbs.datastore.task.TaskManager} starts jobs ({@link
 * org.jpbs.datastore.task.TaskJob}, which write to a {@link org.jpbs.datastore.task.TaskLog}),
 * lists running and finished tasks with filters, pages through logs and stops tasks.
 */
package org.jpbs.datastore.task;
