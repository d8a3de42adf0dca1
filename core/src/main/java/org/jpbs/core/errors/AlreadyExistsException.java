package org.jpbs.core.errors;

import java.nio.file.FileAlreadyExistsException;

/**
 * A thing to be created exists already: a snapshot with the same time, a client log of a
 * snapshot. A {@link FileAlreadyExistsException} whose {@link #getReason() reason} is the
 * one-line text for the user (e.g. {@code "backup snapshot vm/100/... already exists"});
 * {@link #getFile()} is the path, or null. Server: 400 with the reason; CLI: the "exists" exit code.
 */
public class AlreadyExistsException extends FileAlreadyExistsException {
    private static final long serialVersionUID = 1L;

    /**
     * @param file   the path, or null
     * @param reason what exists, one line, without server paths
     */
    public AlreadyExistsException(String file, String reason) {
        super(file, null, reason);
    }
}
