package org.jpbs.client.mount;

import java.io.IOException;

/**
 * A request on an {@link ArchiveTree} that fails for a reason the caller reports as an errno:
 * the path does not exist, is not a directory, is a directory, or has no such xattr. Reading
 * the archive failing (a missing or corrupt chunk) is a plain {@link IOException} ({@code EIO}).
 */
public final class TreeException extends IOException {
    /** Why, as the errno a file system reports. */
    public enum Reason { ENOENT, ENOTDIR, EISDIR, EINVAL, ENODATA }

    private final Reason reason;

    public TreeException(Reason reason, String path) {
        super(path + ": " + reason);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
