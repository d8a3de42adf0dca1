package org.jpbs.core.errors;

import java.nio.file.NoSuchFileException;

/**
 * A thing the caller named does not exist: a snapshot, a backup group, a namespace, an archive
 * of a snapshot, a task. A {@link NoSuchFileException} (so code that handles a missing file
 * handles it too) whose {@link #getReason() reason} is the one-line text for the user, e.g.
 * {@code "snapshot vm/100/2024-01-01T00:00:00Z not found"}; {@link #getFile()} is the path
 * looked at, or null. The server answers it with 400 and the reason, the CLI exits with its
 * "not found" code (README.md, "Exit codes").
 */
public class NotFoundException extends NoSuchFileException {
    private static final long serialVersionUID = 1L;

    /**
     * @param file   the path looked at, or null
     * @param reason what is missing, one line, without server paths
     */
    public NotFoundException(String file, String reason) {
        super(file, null, reason);
    }
}
