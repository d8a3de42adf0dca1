package org.jpbs.cli.admin;

import org.jpbs.cli.UsageException;
import org.jpbs.server.auth.AclPaths;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.Authid;
import org.jpbs.server.auth.Role;

/**
 * Syntax checks of the arguments of {@code jpbs user} and {@code jpbs acl}, done before the
 * configuration is opened: a malformed user id, token name, ACL path, role or password is a
 * usage error (exit 2, README "Commands"), named by its parameter. What depends on the stored
 * configuration (an unknown user, an existing token) stays a runtime error (exit 1).
 */
final class AdminArgs {
    private AdminArgs() {}

    /** {@code USERID} must be {@code user@realm}. */
    static void userId(String userid) {
        check("USERID", () -> Authid.parseUser(userid));
    }

    /** {@code USERID} and {@code TOKENNAME} must make a valid token id. */
    static void tokenId(String userid, String tokenName) {
        userId(userid);
        check("TOKENNAME", () -> Authid.parseUser(userid).token(tokenName));
    }

    /** {@code --auth-id} must be {@code user@realm} or {@code user@realm!token}. */
    static void authId(String authId) {
        check("--auth-id", () -> Authid.parse(authId));
    }

    /** {@code PATH} must be an ACL path and {@code ROLE} a known role. */
    static void acl(String path, String role) {
        check("PATH", () -> AclPaths.check(path));
        check("ROLE", () -> Role.parse(role));
    }

    /**
     * A password must have {@value AuthConfig#MIN_PASSWORD_LENGTH} to
     * {@value AuthConfig#MAX_PASSWORD_LENGTH} characters.
     *
     * @param source the option it came from ({@code --password} or {@code --password-file FILE})
     */
    static void password(String source, String pw) {
        if (pw != null && (pw.length() < AuthConfig.MIN_PASSWORD_LENGTH || pw.length() > AuthConfig.MAX_PASSWORD_LENGTH)) {
            throw new UsageException(source + ": the password must have " + AuthConfig.MIN_PASSWORD_LENGTH + " to "
                    + AuthConfig.MAX_PASSWORD_LENGTH + " characters, got " + pw.length());
        }
    }

    private static void check(String param, Runnable r) {
        try {
            r.run();
        } catch (IllegalArgumentException e) {
            throw new UsageException(param + ": " + e.getMessage(), e);
        }
    }
}
