package org.jpbs.core.errors;

import java.io.IOException;

/**
 * A lock could not be taken because someone else holds a conflicting one. The message is
 * {@code "<what> is locked by <holder>"}, e.g. {@code "backup group vm/100 is locked by another
 * operation (...)"}. Lock attempts in jpbs never block, so callers get this at once and decide
 * whether to retry. Server: 400 with the message (as PBS); CLI: the "locked" exit code.
 */
public class LockedException extends IOException {
    private static final long serialVersionUID = 1L;
    private final String what;
    private final String holder;

    /**
     * @param what   the locked thing, e.g. {@code "datastore /srv/ds"} or {@code "backup group vm/100"}
     * @param holder who holds it, or why it is locked, e.g. {@code "another process (garbage collection running?)"}
     */
    public LockedException(String what, String holder) {
        super(what + " is locked by " + holder);
        this.what = what;
        this.holder = holder;
    }

    /** The locked thing, e.g. {@code "datastore /srv/ds"}. */
    public String what() {
        return what;
    }

    /** Who holds the lock or why, e.g. {@code "another process (garbage collection running?)"}. */
    public String holder() {
        return holder;
    }
}
