package org.jpbs.server.http;

import java.lang.System.Logger.Level;
import org.jpbs.datastore.lock.LockedException;

/**
 * Maps any exception thrown while serving a request to an HTTP status and a one-line message,
 * in one place for HTTP/1.1 and HTTP/2. {@link ApiException} keeps its status; I/O and data
 * errors (including {@link LockedException}, corrupt data, missing chunks) and invalid
 * arguments become 400 with their message, as PBS reports every handler error as 400 unless
 * it sets a status ({@code docs/api.md#conventions-as-pbs}); a full datastore
 * ({@link org.jpbs.datastore.os.StorageFullException}, ENOSPC/EDQUOT) is 500 with the file named
 * relative to the datastore (jpbs differs from PBS here: the client did nothing wrong); anything
 * else is an internal error 500 and is logged with its stack trace. No answer carries a server
 * path ({@link HiddenPaths}).
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

    private static ApiException mapRaw(Throwable t) {
        if (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) {
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
        if (t instanceof java.io.IOException || t instanceof IllegalArgumentException
                || t instanceof IllegalStateException || t instanceof java.io.UncheckedIOException) {
            String msg = t.getMessage();
            return new ApiException(400, msg == null || msg.isBlank() ? t.getClass().getSimpleName() : oneLine(msg));
        }
        LOG.log(Level.ERROR, "internal error while serving a request", t);
        return new ApiException(500, "internal error: " + t);
    }

    private static String oneLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
