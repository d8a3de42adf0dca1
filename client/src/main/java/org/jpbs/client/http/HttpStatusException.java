package org.jpbs.client.http;

import java.io.IOException;

/**
 * The server answered an error status. The message is one line:
 * {@code "<what>: server answered <status>: <server message>"}.
 */
public final class HttpStatusException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String serverMessage;

    /**
     * @param what          what was asked (e.g. {@code "GET /previous"})
     * @param status        the HTTP status
     * @param serverMessage the body text the server sent (PBS sends the bare message)
     */
    public HttpStatusException(String what, int status, String serverMessage) {
        super(what + ": server answered " + status + ": " + oneLine(serverMessage));
        this.status = status;
        this.serverMessage = serverMessage == null ? "" : serverMessage.strip();
    }

    private static String oneLine(String s) {
        if (s == null || s.isBlank()) {
            return "(no message)";
        }
        String t = s.strip().replaceAll("\\s*\\R\\s*", "; ");
        return t.length() > 500 ? t.substring(0, 500) + "..." : t;
    }

    /** The HTTP status code. */
    public int status() {
        return status;
    }

    /** The server's message text (stripped). */
    public String serverMessage() {
        return serverMessage;
    }
}
