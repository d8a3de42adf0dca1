package org.jpbs.server.http;

import java.lang.System.Logger.Level;
import org.jpbs.core.errors.AlreadyExistsException;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.LockedException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.core.errors.NotFoundException;
import org.jpbs.core.errors.OwnerMismatchException;
import org.jpbs.core.errors.ProtectedException;

/**
 * Maps any exception thrown while serving a request to an HTTP status and a one-line message,
 * in one place for HTTP/1.1 and HTTP/2 ({@code docs/api.md#conventions-as-pbs},
 * {@code docs/design.md#errors}). {@link ApiException} keeps its status. The typed refusals of
 * {@code org.jpbs.core.errors} (not found, already exists, owner mismatch, protected, locked,
 * corrupt data and unsupported format, missing chunk), other I/O errors and invalid arguments
 * become 400 with their message, as PBS reports every handler error as 400 unless it sets a
 * status; a full datastore ({@link org.jpbs.datastore.os.StorageFullException}, ENOSPC/EDQUOT)
 * is 500 with the file named relative to the datastore (jpbs differs from PBS here: the client
 * did nothing wrong); anything else (an {@link IllegalStateException}, a
 * {@link NullPointerException}: a bug) is 500 {@value #INTERNAL_ERROR}, logged with its stack
 * trace, the answer without any detail. No answer carries a server path ({@link HiddenPaths}).
 */
public final class ErrorMapper {
    private static final System.Logger LOG = System.getLogger(ErrorMapper.class.getName());

    private ErrorMapper() {}

    /**
     * The error as an {@link ApiException}, its message without server paths
     * ({@link HiddenPaths}; 401, 403 and 404 answers are built from URL and ACL paths only and
     * kept as they are).
     */
    public static ApiException map(Throwable t) {
        ApiException a = mapRaw(t);
        if (a.status() == 401 || a.status() == 403 || a.status() == 404) {
            return a;
        }
        String hidden = HiddenPaths.hide(a.getMessage());
        if (hidden == null || hidden.equals(a.getMessage())) {
            return a;
        }
        LOG.log(Level.INFO, "error answer " + a.status() + " (server paths hidden from the client): " + a.getMessage());
        return new ApiException(a.status(), hidden);
    }

    /** The generic text of a 500 for a bug: no exception text, class, path or stack trace reaches the client. */
    public static final String INTERNAL_ERROR = "internal server error";

    private static ApiException mapRaw(Throwable t) {
        if ((t instanceof java.util.concurrent.CompletionException || t instanceof java.util.concurrent.ExecutionException
                || t instanceof java.io.UncheckedIOException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof ApiException a) {
            return a;
        }
        var full = org.jpbs.datastore.os.StorageFullException.find(t);
        if (full.isPresent()) { // the server's fault, not the request's: 500, without server paths
            LOG.log(Level.WARNING, full.get().getMessage());
            return new ApiException(500, full.get().publicMessage(null));
        }
        return switch (t) {
            // the typed refusals (core.errors): PBS answers each with 400 and its text
            case NotFoundException e -> badRequest(e.getFile() == null ? e.getReason() : e.getMessage(), e);
            case AlreadyExistsException e -> badRequest(e.getFile() == null ? e.getReason() : e.getMessage(), e);
            case OwnerMismatchException e -> badRequest(e.getMessage(), e);
            case ProtectedException e -> badRequest(e.getMessage(), e);
            case LockedException e -> badRequest(e.getMessage(), e);
            case CorruptDataException e -> badRequest(e.getMessage(), e); // also UnsupportedFormatException
            case MissingChunkException e -> badRequest(e.getMessage(), e);
            // any other I/O failure or invalid argument of a handler: 400, as PBS reports handler errors
            case java.io.IOException e -> badRequest(e.getMessage(), e);
            case IllegalArgumentException e -> badRequest(e.getMessage(), e);
            // a bug (IllegalStateException, NullPointerException, ...) or an Error: 500, logged
            default -> {
                LOG.log(Level.ERROR, "internal error while serving a request", t);
                yield new ApiException(500, INTERNAL_ERROR);
            }
        };
    }

    private static ApiException badRequest(String msg, Throwable t) {
        return new ApiException(400, msg == null || msg.isBlank() ? t.getClass().getSimpleName() : oneLine(msg));
    }

    private static String oneLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
