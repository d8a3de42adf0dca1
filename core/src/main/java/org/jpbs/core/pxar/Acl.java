package org.jpbs.core.pxar;

import java.util.List;

/**
 * The POSIX ACLs of an entry as pxar stores them ({@code docs/pxar.md#acls}). Permissions are
 * r=4, w=2, x=1. The owner and other entries of the access ACL live in the mode; with a mask,
 * the mode's group bits are the mask and {@code groupObj} is the owning group's permission.
 * {@code defaultAcl} is null when the directory has no default ACL.
 */
public record Acl(List<Entry> users, List<Entry> groups, Long groupObj, Default defaultAcl,
        List<Entry> defaultUsers, List<Entry> defaultGroups) {

    /** No ACL at all. */
    public static final Acl EMPTY = new Acl(List.of(), List.of(), null, null, List.of(), List.of());

    public Acl {
        users = List.copyOf(users);
        groups = List.copyOf(groups);
        defaultUsers = List.copyOf(defaultUsers);
        defaultGroups = List.copyOf(defaultGroups);
    }

    /** A named user or group entry: the id and its permissions. */
    public record Entry(long id, long permissions) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry o) {
            int c = Long.compareUnsigned(id, o.id);
            return c != 0 ? c : Long.compareUnsigned(permissions, o.permissions);
        }
    }

    /**
     * The default ACL's four base entries; {@link #NO_MASK} stands for an entry that is absent.
     */
    public record Default(long userObj, long groupObj, long other, long mask) {
        /** Placeholder for an absent base entry (u64::MAX in the format). */
        public static final long NO_MASK = -1L;
    }

    public boolean isEmpty() {
        return users.isEmpty() && groups.isEmpty() && groupObj == null && defaultAcl == null
                && defaultUsers.isEmpty() && defaultGroups.isEmpty();
    }
}
