package org.jpbs.core.pxar;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the metadata items that follow an ENTRY (XATTR, the ACL items, FCAPS, QUOTA_PROJID)
 * and checks their count and sizes ({@code docs/pxar.md#one-entry}).
 */
final class MetadataItems {
    private final List<XAttr> xattrs = new ArrayList<>();
    private final List<Acl.Entry> users = new ArrayList<>();
    private final List<Acl.Entry> groups = new ArrayList<>();
    private final List<Acl.Entry> defaultUsers = new ArrayList<>();
    private final List<Acl.Entry> defaultGroups = new ArrayList<>();
    private Long groupObj;
    private Acl.Default defaultAcl;
    private byte[] fcaps;
    private long projid;

    static boolean isMetadata(long t) {
        return t == PxarFormat.XATTR || t == PxarFormat.ACL_USER || t == PxarFormat.ACL_GROUP
                || t == PxarFormat.ACL_GROUP_OBJ || t == PxarFormat.ACL_DEFAULT || t == PxarFormat.ACL_DEFAULT_USER
                || t == PxarFormat.ACL_DEFAULT_GROUP || t == PxarFormat.FCAPS || t == PxarFormat.QUOTA_PROJID;
    }

    void add(long off, long t, byte[] c) throws PxarFormatException {
        if (t == PxarFormat.XATTR) {
            int nul = 0;
            while (nul < c.length && c[nul] != 0) {
                nul++;
            }
            if (nul == 0 || nul == c.length) {
                throw new PxarFormatException(off, "XATTR without a NUL-terminated name");
            }
            xattrs.add(new XAttr(java.util.Arrays.copyOf(c, nul), java.util.Arrays.copyOfRange(c, nul + 1, c.length)));
        } else if (t == PxarFormat.FCAPS) {
            fcaps = c;
        } else if (t == PxarFormat.ACL_GROUP_OBJ) {
            groupObj = ItemReader.getLong(sized(off, c, 8), 0);
        } else if (t == PxarFormat.QUOTA_PROJID) {
            projid = ItemReader.getLong(sized(off, c, 8), 0);
        } else if (t == PxarFormat.ACL_DEFAULT) {
            sized(off, c, 32);
            defaultAcl = new Acl.Default(ItemReader.getLong(c, 0), ItemReader.getLong(c, 8),
                    ItemReader.getLong(c, 16), ItemReader.getLong(c, 24));
        } else {
            sized(off, c, 16);
            Acl.Entry e = new Acl.Entry(ItemReader.getLong(c, 0), ItemReader.getLong(c, 8));
            if (t == PxarFormat.ACL_USER) {
                users.add(e);
            } else if (t == PxarFormat.ACL_GROUP) {
                groups.add(e);
            } else if (t == PxarFormat.ACL_DEFAULT_USER) {
                defaultUsers.add(e);
            } else {
                defaultGroups.add(e);
            }
        }
    }

    private static byte[] sized(long off, byte[] c, int n) throws PxarFormatException {
        if (c.length != n) {
            throw new PxarFormatException(off, "ACL/quota item must hold " + n + " bytes, holds " + c.length);
        }
        return c;
    }

    Metadata build(Stat stat) {
        Acl acl = users.isEmpty() && groups.isEmpty() && groupObj == null && defaultAcl == null
                && defaultUsers.isEmpty() && defaultGroups.isEmpty()
                ? Acl.EMPTY : new Acl(users, groups, groupObj, defaultAcl, defaultUsers, defaultGroups);
        return new Metadata(stat, xattrs, acl, fcaps, projid);
    }
}
