package org.jpbs.server.routing;

import java.util.Objects;

/**
 * Who may call an {@link Endpoint}, as PBS's {@code access.permission}: nobody needs to
 * authenticate ({@link #world}), any authenticated caller with the privilege checks done by the
 * handler ({@link #checkedByHandler}: namespace privileges, owners), or privileges on
 * {@code /datastore/{store}} that the dispatcher checks before the parameters
 * ({@link #onStore}: 403 {@code "permission check failed"}, an unknown store like one without
 * privileges). {@link #doc} is what the API documentation shows.
 *
 * @param kind       which of the three
 * @param privileges for {@link Kind#STORE}: the privilege bits ({@link org.jpbs.server.auth.Privilege#bit})
 * @param partial    for {@link Kind#STORE}: any of the bits suffices (else all are needed)
 * @param doc        the rule in words, for the documentation
 */
public record Permission(Kind kind, long privileges, boolean partial, String doc) {
    /** The three kinds of access rules. */
    public enum Kind {
        /** No authentication. */
        WORLD,
        /** Authenticated; the handler checks privileges. */
        AUTHENTICATED,
        /** Authenticated, with privileges on {@code /datastore/{store}} checked by the dispatcher. */
        STORE
    }

    public Permission {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(doc, "doc");
    }

    /** No authentication needed. */
    public static Permission world(String doc) {
        return new Permission(Kind.WORLD, 0, false, doc);
    }

    /** Any authenticated caller; the handler checks the rule described by {@code doc}. */
    public static Permission checkedByHandler(String doc) {
        return new Permission(Kind.AUTHENTICATED, 0, false, doc);
    }

    /** {@code privileges} on {@code /datastore/{store}} (any of them if {@code partial}). */
    public static Permission onStore(long privileges, boolean partial, String doc) {
        return new Permission(Kind.STORE, privileges, partial, doc);
    }

    /** True if a caller with {@code have} on the store passes a {@link Kind#STORE} rule. */
    public boolean allows(long have) {
        return partial ? (have & privileges) != 0 : (have & privileges) == privileges;
    }
}
