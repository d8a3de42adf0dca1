package org.jpbs.server.http;

/**
 * Path normalisation shared by HTTP/1.1 and HTTP/2 routing: the real client sends
 * {@code //api2/json/backup} ({@code docs/protocol.md}, "Confirmed on the wire"), and PBS
 * ignores leading, trailing and repeated slashes when matching ({@code docs/protocol.md#parameters-and-answers-inside-a-session}).
 */
public final class UriPaths {
    /** Longest accepted path plus query in bytes (PBS REST server: 3072; {@code docs/protocol.md#transport}). Longer → 414. */
    public static final int MAX_URI_LENGTH = 3072;

    private UriPaths() {}

    /**
     * True if the request target's path plus query (without the {@code ?}) is longer than
     * {@link #MAX_URI_LENGTH} characters (the target is ASCII on the wire, so characters are bytes).
     */
    public static boolean tooLong(String uri) {
        int q = uri.indexOf('?');
        return (q < 0 ? uri.length() : uri.length() - 1) > MAX_URI_LENGTH;
    }

    /**
     * Collapses repeated slashes and drops a trailing one; the result starts with {@code /}
     * ({@code "//api2/json/backup/"} gives {@code "/api2/json/backup"}, {@code ""} gives {@code "/"}).
     */
    public static String normalize(String path) {
        StringBuilder sb = new StringBuilder(path.length() + 1);
        for (String part : path.split("/")) {
            if (!part.isEmpty()) {
                sb.append('/').append(part);
            }
        }
        return sb.isEmpty() ? "/" : sb.toString();
    }
}
