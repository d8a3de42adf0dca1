package org.jpbs.datastore.lock;

/**
 * A datastore lock (snapshot, group, manifest, datastore, GC) could not be taken because
 * someone else holds a conflicting one: the datastore's kind of the shared typed error
 * {@link org.jpbs.core.errors.LockedException} (catch that one; the server maps it to 400 and the
 * CLI to its "locked" exit code). The message is {@code "<what> is locked by <holder>"}, e.g.
 * {@code "datastore /srv/ds is locked by another process (garbage collection running?)"}.
 */
public class LockedException extends org.jpbs.core.errors.LockedException {
    private static final long serialVersionUID = 1L;

    /**
     * @param what   the locked thing, e.g. {@code "datastore /srv/ds"} or {@code "backup group vm/100"}
     * @param holder who holds it, or why it is locked, e.g. {@code "another process (garbage collection running?)"}
     */
    public LockedException(String what, String holder) {
        super(what, holder);
    }
}
