package org.jpbs.datastore.config;

/**
 * What an operation does to a datastore, for the maintenance-mode check ({@code docs/datastore-config.md#maintenance-mode}): {@link #LOOKUP} only looks at in-memory state,
 * {@link #READ} reads (restore, listings, status), {@link #WRITE} changes data (backup, GC,
 * prune, forget).
 */
public enum Operation {
    /** Purely in-memory checks; allowed in every mode but {@code delete}. */
    LOOKUP,
    /** Restore, listing, status, download. */
    READ,
    /** Backup, garbage collection, prune, forget, verify (renames bad chunks). */
    WRITE
}
