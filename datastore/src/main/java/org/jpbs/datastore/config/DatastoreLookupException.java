package org.jpbs.datastore.config;

import java.io.IOException;

/**
 * A datastore lookup that was refused: the name is not configured, the maintenance mode does
 * not allow the operation ({@code docs/datastore-config.md#maintenance-mode}), or the config file cannot
 * be read or parsed. The message is the one line to show, e.g. {@code "datastore 'store1' is in
 * read-only maintenance mode: moving disks"} or {@code "no such datastore 'nope'"}.
 */
public final class DatastoreLookupException extends IOException {
    /** Why the lookup failed. */
    public enum Reason {
        /** No datastore of that name. */
        NOT_FOUND,
        /** The maintenance mode refuses the operation. */
        MAINTENANCE,
        /** {@code datastore.cfg} cannot be read or parsed. */
        CONFIG
    }

    private final Reason reason;

    /**
     * @param reason  why
     * @param message the one-line message
     */
    public DatastoreLookupException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    /** Why the lookup failed. */
    public Reason reason() {
        return reason;
    }
}
