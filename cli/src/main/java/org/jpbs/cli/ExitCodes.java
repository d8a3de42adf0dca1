package org.jpbs.cli;

import org.jpbs.client.http.HttpStatusException;
import org.jpbs.core.errors.AlreadyExistsException;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.LockedException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.core.errors.NotFoundException;
import org.jpbs.core.errors.OwnerMismatchException;
import org.jpbs.core.errors.ProtectedException;

/**
 * The exit codes of {@code jpbs}, chosen in this one place from the type of the failure (never
 * from its message text); documented in README.md ("Exit codes"). The cause chain is searched
 * (a typed error wrapped in an {@link java.io.UncheckedIOException} or an execution exception
 * counts), the first typed error found decides.
 */
public final class ExitCodes {
    /** Success. */
    public static final int OK = 0;
    /** Any other error while running. */
    public static final int ERROR = 1;
    /** Bad command line (option values, missing arguments, options that exclude each other). */
    public static final int USAGE = 2;
    /** The named snapshot, group, namespace, archive or task does not exist. */
    public static final int NOT_FOUND = 3;
    /** What was to be created exists already (a snapshot with that time, a client log). */
    public static final int EXISTS = 4;
    /** A lock is held by another operation (a running backup, GC, verify); retrying later may work. */
    public static final int LOCKED = 5;
    /** Data is corrupt, of an unsupported format (unknown magic), or a chunk is missing. */
    public static final int CORRUPT = 6;
    /** Refused for lack of rights: authentication failed (401), a privilege is missing (403), or the caller does not own the group. */
    public static final int DENIED = 7;
    /** A protected snapshot was to be removed. */
    public static final int PROTECTED = 8;

    private ExitCodes() {}

    /** The exit code of a failed command. */
    public static int of(Throwable ex) {
        Throwable t = ex;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            int code = typed(t);
            if (code != ERROR) {
                return code;
            }
        }
        return ERROR;
    }

    private static int typed(Throwable t) {
        return switch (t) {
            case UsageException e -> USAGE;
            case NotFoundException e -> NOT_FOUND;
            case AlreadyExistsException e -> EXISTS;
            case LockedException e -> LOCKED;
            case CorruptDataException e -> CORRUPT; // also UnsupportedFormatException
            case MissingChunkException e -> CORRUPT;
            case OwnerMismatchException e -> DENIED;
            case ProtectedException e -> PROTECTED;
            case HttpStatusException e when e.status() == 401 || e.status() == 403 -> DENIED;
            default -> ERROR;
        };
    }
}
