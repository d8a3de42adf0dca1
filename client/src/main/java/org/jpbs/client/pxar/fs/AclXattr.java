package org.jpbs.client.pxar.fs;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jpbs.core.pxar.Acl;

/**
 * Converts between Linux's {@code system.posix_acl_access} / {@code system.posix_acl_default}
 * xattr values (version 2 header, then 8-byte entries {tag u16, perm u16, id u32}) and pxar's
 * {@link Acl} ({@code docs/pxar.md#acls}).
 */
public final class AclXattr {
    private AclXattr() {}

    /** The access ACL's xattr name. */
    public static final byte[] ACCESS = "system.posix_acl_access".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** The default ACL's xattr name. */
    public static final byte[] DEFAULT = "system.posix_acl_default".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int USER_OBJ = 1, USER = 2, GROUP_OBJ = 4, GROUP = 8, MASK = 0x10, OTHER = 0x20;

    /** Parsed base and named entries of one ACL xattr; -1 for an absent base entry. */
    record Parsed(List<Acl.Entry> users, List<Acl.Entry> groups, long userObj, long groupObj, long other, long mask) {}

    static Parsed parse(byte[] v) {
        List<Acl.Entry> users = new ArrayList<>();
        List<Acl.Entry> groups = new ArrayList<>();
        long userObj = -1, groupObj = -1, other = -1, mask = -1;
        if (v != null && v.length >= 4) {
            for (int off = 4; off + 8 <= v.length; off += 8) {
                int tag = (v[off] & 0xff) | (v[off + 1] & 0xff) << 8;
                long perm = (v[off + 2] & 0xff) | (v[off + 3] & 0xff) << 8;
                long id = Integer.toUnsignedLong((v[off + 4] & 0xff) | (v[off + 5] & 0xff) << 8
                        | (v[off + 6] & 0xff) << 16 | (v[off + 7] & 0xff) << 24);
                switch (tag) {
                    case USER_OBJ -> userObj = perm;
                    case USER -> users.add(new Acl.Entry(id, perm));
                    case GROUP_OBJ -> groupObj = perm;
                    case GROUP -> groups.add(new Acl.Entry(id, perm));
                    case MASK -> mask = perm;
                    case OTHER -> other = perm;
                    default -> { }
                }
            }
        }
        Collections.sort(users);
        Collections.sort(groups);
        return new Parsed(users, groups, userObj, groupObj, other, mask);
    }

    /** pxar's ACL from the two xattr values (either may be null), as {@code pxar create} builds it. */
    static Acl toAcl(byte[] access, byte[] deflt) {
        Parsed a = parse(access);
        Parsed d = parse(deflt);
        Long groupObj = a.mask() >= 0 && a.groupObj() >= 0 ? a.groupObj() : null;
        Acl.Default def = null;
        if (d.userObj() >= 0 || d.groupObj() >= 0 || d.other() >= 0 || d.mask() >= 0) {
            def = new Acl.Default(d.userObj(), d.groupObj(), d.other(), d.mask());
        }
        return new Acl(a.users(), a.groups(), groupObj, def, d.users(), d.groups());
    }

    /**
     * The access ACL xattr value for an entry with this mode, or null if the ACL has no named
     * entries and no group object (the mode alone says it all).
     */
    public static byte[] accessValue(Acl acl, long mode) {
        if (acl.users().isEmpty() && acl.groups().isEmpty() && acl.groupObj() == null) {
            return null;
        }
        ByteArrayOutputStream out = header();
        long groupBits = (mode >> 3) & 7;
        entry(out, USER_OBJ, (mode >> 6) & 7, -1);
        acl.users().forEach(e -> entry(out, USER, e.permissions(), e.id()));
        entry(out, GROUP_OBJ, acl.groupObj() != null ? acl.groupObj() : groupBits, -1);
        acl.groups().forEach(e -> entry(out, GROUP, e.permissions(), e.id()));
        entry(out, MASK, groupBits, -1);
        entry(out, OTHER, mode & 7, -1);
        return out.toByteArray();
    }

    /** The default ACL xattr value, or null if there is none. */
    public static byte[] defaultValue(Acl acl) {
        Acl.Default d = acl.defaultAcl();
        if (d == null && acl.defaultUsers().isEmpty() && acl.defaultGroups().isEmpty()) {
            return null;
        }
        ByteArrayOutputStream out = header();
        if (d != null && d.userObj() != Acl.Default.NO_MASK) {
            entry(out, USER_OBJ, d.userObj(), -1);
        }
        acl.defaultUsers().forEach(e -> entry(out, USER, e.permissions(), e.id()));
        if (d != null && d.groupObj() != Acl.Default.NO_MASK) {
            entry(out, GROUP_OBJ, d.groupObj(), -1);
        }
        acl.defaultGroups().forEach(e -> entry(out, GROUP, e.permissions(), e.id()));
        if (d != null && d.mask() != Acl.Default.NO_MASK) {
            entry(out, MASK, d.mask(), -1);
        }
        if (d != null && d.other() != Acl.Default.NO_MASK) {
            entry(out, OTHER, d.other(), -1);
        }
        return out.toByteArray();
    }

    private static ByteArrayOutputStream header() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(2);
        out.write(0);
        out.write(0);
        out.write(0);
        return out;
    }

    private static void entry(ByteArrayOutputStream out, int tag, long perm, long id) {
        out.write(tag);
        out.write(tag >> 8);
        out.write((int) perm);
        out.write((int) (perm >> 8));
        int i = (int) id;
        out.write(i);
        out.write(i >> 8);
        out.write(i >> 16);
        out.write(i >> 24);
    }
}
