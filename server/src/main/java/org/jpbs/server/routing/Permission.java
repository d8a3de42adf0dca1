package org.jpbs.server.routing;

import java.util.Objects;
import org.jpbs.server.auth.Privilege;

/**
 * Who may call an {@link Endpoint}, as PBS's {@code access.permission}: nobody needs to
 * authenticate ({@link #world}), any authenticated caller with the privilege checks done by the
 * handler ({@link #checkedByHandler}: namespace privileges, owners), or privileges on
 * {@code /datastore/{store}} that the dispatcher checks before the parameters
 * ({@link #onStore}: 403 {@code "permission check failed"}, an unknown store like one without
 * privileges), or privileges on a fixed ACL path such as {@code /system/status} that the
 * dispatcher checks at the same point ({@link #onPath}: 403 {@code "permission check failed -
 * missing <privileges> on <path>"}). {@link #doc} is what the API documentation shows.
 *
 * @param kind       which of the four
 * @param privileges for {@link Kind#STORE} and {@link Kind#PATH}: the privilege bits ({@link org.jpbs.server.auth.Privilege#bit})
 * @param partial    for {@link Kind#STORE} and {@link Kind#PATH}: any of the bits suffices (else all are needed)
 * @param doc        the rule in words, for the documentation
 * @param aclPath    for {@link Kind#PATH}: the ACL path, e.g. {@code /system/status}; else null
 */
public record Permission(Kind kind, long privileges, boolean partial, String doc, String aclPath) {
    /** The four kinds of access rules. */
    public enum Kind {
        /** No authentication. */
        WORLD,
        /** Authenticated; the handler checks privileges. */
        AUTHENTICATED,
        /** Authenticated, with privileges on {@code /datastore/{store}} checked by the dispatcher. */
        STORE,
        /** Authenticated, with privileges on the fixed {@link #aclPath} checked by the dispatcher. */
        PATH
    }

    public Permission {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(doc, "doc");
        if ((kind == Kind.PATH) != (aclPath != null)) {
            throw new IllegalArgumentException("an ACL path belongs to a PATH permission only");
        }
    }

    /** No authentication needed. */
    public static Permission world(String doc) {
        return new Permission(Kind.WORLD, 0, false, doc, null);
    }

    /** Any authenticated caller; the handler checks the rule described by {@code doc}. */
    public static Permission checkedByHandler(String doc) {
        return new Permission(Kind.AUTHENTICATED, 0, false, doc, null);
    }

    /** {@code privileges} on {@code /datastore/{store}} (any of them if {@code partial}). */
    public static Permission onStore(long privileges, boolean partial, String doc) {
        return new Permission(Kind.STORE, privileges, partial, doc, null);
    }

    /**
     * All of {@code privileges} on the ACL path {@code aclPath} (e.g. {@code /system/notifications});
     * the documentation shows {@code "<privileges> on <aclPath>"}.
     */
    public static Permission onPath(String aclPath, long privileges) {
        return new Permission(Kind.PATH, privileges, false,
                Privilege.joined(privileges) + " on `" + aclPath + "`", aclPath);
    }

    /** True if a caller with {@code have} on the store or path passes a {@link Kind#STORE} or {@link Kind#PATH} rule. */
    public boolean allows(long have) {
        return partial ? (have & privileges) != 0 : (have & privileges) == privileges;
    }
}
