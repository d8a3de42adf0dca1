package org.jpbs.server.auth;

import java.util.List;
import java.util.Map;

/**
 * Privileges of an auth id on an ACL path ({@code docs/api.md#conventions-as-pbs}), the PBS rules:
 * {@code root@pam} has every privilege everywhere; otherwise the privileges of the roles
 * {@link AclConfig#roles} finds; a token gets the intersection of its own privileges and its
 * user's. Stateless apart from the (immutable) ACL.
 *
 * @param acl the access control list
 */
public record AclResolver(AclConfig acl) {
    /**
     * Privileges on a path: all of them, and the part that propagates to paths below.
     *
     * @param privileges bit mask ({@link Privilege#bit()})
     * @param propagated the subset granted by propagating roles
     */
    public record Privs(long privileges, long propagated) {}

    /** {@link Privs} of {@code authid} on {@code path} (components, e.g. {@code [datastore, store1]}). */
    public Privs lookup(Authid authid, List<String> path) {
        if (authid.isSuperuser()) {
            return new Privs(Privilege.all(), Privilege.all());
        }
        long privs = 0;
        long propagated = 0;
        for (Map.Entry<String, Boolean> e : acl.roles(authid, path).entrySet()) {
            long p = Role.byName(e.getKey()).map(Role::privileges).orElse(0L);
            privs |= p;
            if (e.getValue()) {
                propagated |= p;
            }
        }
        if (authid.isToken()) {
            Privs owner = lookup(authid.user(), path);
            privs &= owner.privileges();
            propagated &= owner.propagated();
        }
        return new Privs(privs, propagated);
    }

    /** The privilege mask of {@code authid} on {@code path}. */
    public long privileges(Authid authid, List<String> path) {
        return lookup(authid, path).privileges();
    }

    /**
     * True if {@code authid} has any of {@code privs} on {@code path} through a propagating
     * role, or on some path below it (PBS uses this to show a datastore to a user who may
     * only see one of its namespaces).
     */
    public boolean anyPrivsBelow(Authid authid, List<String> path, long privs) {
        if ((lookup(authid, path).propagated() & privs) != 0) {
            return true;
        }
        for (List<String> p : acl.pathsWithEntriesBelow(authid, path)) {
            if ((privileges(authid, p) & privs) != 0) {
                return true;
            }
        }
        return false;
    }
}
