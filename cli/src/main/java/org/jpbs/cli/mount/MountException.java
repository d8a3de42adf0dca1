package org.jpbs.cli.mount;

import java.io.IOException;

/** A mount or unmount that cannot be done, with a one-line reason naming the path or what is missing. */
public final class MountException extends IOException {
    /** True if the mount point given is wrong (a usage error), false if the system lacks something. */
    private final boolean badMountpoint;

    MountException(String message, boolean badMountpoint) {
        super(message);
        this.badMountpoint = badMountpoint;
    }

    /** True if the mount point argument is at fault (missing, not a directory, not empty, not mounted). */
    public boolean badMountpoint() {
        return badMountpoint;
    }
}
