package org.jpbs.server.auth;

import java.util.Objects;

/**
 * Outcome of authenticating a request: the Authid on success, else the 401 message.
 *
 * @param authid the authenticated id ({@code user@realm} or {@code user@realm!token}), null on failure
 * @param error  the message of a failure (sent with status 401), null on success
 */
public record AuthResult(String authid, String error) {
    /** Message when no credentials were sent (as PBS 3.1 answers, {@code vectors/real-pbs/api/err-no-auth.body}). */
    public static final String NO_CREDENTIALS = "authentication failed - no authentication credentials provided.";
    /** Message for wrong credentials ({@code vectors/real-pbs/api/err-bad-token.body}). */
    public static final String INVALID_CREDENTIALS = "authentication failed - invalid credentials";

    /** Success as {@code authid}. */
    public static AuthResult ok(String authid) {
        return new AuthResult(Objects.requireNonNull(authid), null);
    }

    /** Failure with {@code message}. */
    public static AuthResult failed(String message) {
        return new AuthResult(null, Objects.requireNonNull(message));
    }

    /** True on success. */
    public boolean ok() {
        return authid != null;
    }
}
