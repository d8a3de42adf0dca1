package org.jpbs.core.errors;

import java.io.IOException;

/**
 * The caller is not the owner of the backup group it acts on. The message is PBS's text
 * {@code "backup owner check failed (<caller> != <owner>)"}. Server: 400 with that text (as
 * PBS); CLI: the "permission denied" exit code.
 */
public class OwnerMismatchException extends IOException {
    private static final long serialVersionUID = 1L;
    private final String caller;
    private final String owner;

    /**
     * @param caller who acts (an Authid)
     * @param owner  the group's owner (an Authid)
     */
    public OwnerMismatchException(String caller, String owner) {
        super("backup owner check failed (" + caller + " != " + owner + ")");
        this.caller = caller;
        this.owner = owner;
    }

    /** Who acts. */
    public String caller() {
        return caller;
    }

    /** The group's owner. */
    public String owner() {
        return owner;
    }
}
