package org.jpbs.datastore.task;

/** Thrown by {@link TaskLog#checkAbort()} once a task was asked to stop. */
public final class TaskAbortedException extends Exception {
    /** The PBS message, {@code "abort requested - aborting task"}. */
    public static final String MESSAGE = "abort requested - aborting task";

    /** With {@link #MESSAGE}. */
    public TaskAbortedException() {
        super(MESSAGE);
    }
}
