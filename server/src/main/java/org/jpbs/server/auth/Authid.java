package org.jpbs.server.auth;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An authentication id ({@code docs/protocol.md#authentication}): a user {@code name@realm} or an
 * API token {@code name@realm!tokenname}. Rules (ours, close to PBS): the name has 1..60
 * characters without whitespace, control characters, {@code : / @ !}; the realm is a safe id
 * of 2..32 characters; the token name is a safe id ({@code [A-Za-z0-9_][A-Za-z0-9._-]*}) of at
 * most 64 characters.
 *
 * @param name      the user name before {@code @}
 * @param realm     the realm ({@code pbs}, {@code pam})
 * @param tokenName the token name, or null for a user
 */
public record Authid(String name, String realm, String tokenName) {
    private static final Pattern NAME = Pattern.compile("[^\\s\\p{Cntrl}:/@!]{1,60}");
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._\\-]*");

    /** The superuser: every privilege on every path, not stored in {@code acl.cfg} ({@code docs/api.md#conventions-as-pbs}). */
    public static final Authid ROOT = new Authid("root", "pam", null);

    /** Validates the parts. */
    public Authid {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(realm, "realm");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("invalid user name '" + name + "'");
        }
        if (realm.length() < 2 || realm.length() > 32 || !SAFE_ID.matcher(realm).matches()) {
            throw new IllegalArgumentException("invalid realm '" + realm + "'");
        }
        if (tokenName != null && (tokenName.length() > 64 || !SAFE_ID.matcher(tokenName).matches())) {
            throw new IllegalArgumentException("invalid token name '" + tokenName + "'");
        }
    }

    /**
     * Parses {@code user@realm} or {@code user@realm!token}.
     *
     * @throws IllegalArgumentException {@code "invalid auth id '<s>'"} and the reason
     */
    public static Authid parse(String s) {
        if (s == null) {
            throw new IllegalArgumentException("auth id must not be null");
        }
        int bang = s.indexOf('!');
        String user = bang < 0 ? s : s.substring(0, bang);
        String token = bang < 0 ? null : s.substring(bang + 1);
        int at = user.lastIndexOf('@');
        if (at <= 0 || at == user.length() - 1) {
            throw new IllegalArgumentException("invalid auth id '" + s + "' (expected user@realm or user@realm!token)");
        }
        try {
            return new Authid(user.substring(0, at), user.substring(at + 1), token);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid auth id '" + s + "': " + e.getMessage(), e);
        }
    }

    /**
     * Parses a user id ({@code user@realm}, no token part).
     *
     * @throws IllegalArgumentException if invalid or a token id
     */
    public static Authid parseUser(String s) {
        Authid a = parse(s);
        if (a.isToken()) {
            throw new IllegalArgumentException("invalid user id '" + s + "' (a token id, expected user@realm)");
        }
        return a;
    }

    /** True for an API token. */
    public boolean isToken() {
        return tokenName != null;
    }

    /** The owning user ({@code this} for a user). */
    public Authid user() {
        return tokenName == null ? this : new Authid(name, realm, null);
    }

    /** The token {@code tokenName} of this user. */
    public Authid token(String tokenName) {
        return new Authid(name, realm, Objects.requireNonNull(tokenName, "tokenName"));
    }

    /** {@code user@realm}, the user part. */
    public String userid() {
        return name + "@" + realm;
    }

    /** True for {@code root@pam} itself (not its tokens). */
    public boolean isSuperuser() {
        return equals(ROOT);
    }

    /** {@code user@realm} or {@code user@realm!token}. */
    @Override
    public String toString() {
        return tokenName == null ? userid() : userid() + "!" + tokenName;
    }
}
