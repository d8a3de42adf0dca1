package org.jpbs.server.http;

/**
 * An API error with its HTTP status and the one-line plain-text message that becomes the
 * response body ({@code docs/api.md#conventions-as-pbs}: errors are a non-2xx status with the bare
 * message as body; 400 unless stated). Unchecked so route lambdas can throw it directly.
 * {@link ErrorMapper} turns every other exception into a status and message in one place.
 */
public class ApiException extends RuntimeException {
    private final int status;

    /**
     * @param status  HTTP status code (400, 401, 403, 404, ...)
     * @param message one line, the exact text the client shows
     */
    public ApiException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    /** HTTP status code. */
    public int status() {
        return status;
    }

    /** 400 with {@code message}. */
    public static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }

    /** 404 {@code "Path '<path>' not found."} (path with a leading slash). */
    public static ApiException pathNotFound(String path) {
        return new ApiException(404, "Path '" + path + "' not found.");
    }

    /**
     * 400 {@code "parameter verification failed - '<name>': <reason>"}, the PBS schema error
     * form (see {@code vectors/real-pbs/api/err-bad-param.body}).
     */
    public static ApiException badParam(String name, String reason) {
        return new ApiException(400, "parameter verification failed - '" + name + "': " + reason);
    }
}
