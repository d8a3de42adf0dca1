package org.jpbs.client.pxar.fs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jpbs.core.pxar.Acl;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.PxarFlags;
import org.jpbs.core.pxar.Stat;
import org.jpbs.core.pxar.XAttr;

/**
 * Reads what {@code pxar create} stores besides the stat, from an open regular file or
 * directory ({@code docs/pxar.md#reading-a-directory-tree}): xattrs in listing order (only
 * {@code user.*}, {@code trusted.*} and {@code security.NTACL}), the POSIX ACLs, the file
 * capability, the chattr and FAT flags and the quota project id, each only where the file
 * system's feature set has it.
 */
final class MetadataReader {
    private static final byte[] FCAPS = "security.capability".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NTACL = "security.NTACL".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] USER = "user.".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUSTED = "trusted.".getBytes(StandardCharsets.US_ASCII);

    private final Sys sys;
    private final int fd;
    private final long features;
    private final long magic;

    MetadataReader(Sys sys, int fd, long features, long magic) {
        this.sys = sys;
        this.fd = fd;
        this.features = features;
        this.magic = magic;
    }

    Metadata read(Stat stat) throws SysException {
        List<XAttr> xattrs = new ArrayList<>();
        byte[] fcaps = null;
        Acl acl = Acl.EMPTY;
        if ((features & PxarFlags.WITH_XATTRS) != 0) {
            boolean aclDone = false;
            for (byte[] name : sys.flistxattr(fd)) {
                if (Arrays.equals(name, FCAPS)) {
                    if ((features & PxarFlags.WITH_FCAPS) != 0) {
                        fcaps = sys.fgetxattr(fd, name);
                    }
                } else if (Arrays.equals(name, AclXattr.ACCESS) || Arrays.equals(name, AclXattr.DEFAULT)) {
                    if ((features & PxarFlags.WITH_ACL) != 0 && !aclDone) {
                        aclDone = true;
                        byte[] access = sys.fgetxattr(fd, AclXattr.ACCESS);
                        byte[] deflt = stat.isDirectory() ? sys.fgetxattr(fd, AclXattr.DEFAULT) : null;
                        acl = AclXattr.toAcl(access, deflt);
                    }
                } else if (valid(name)) {
                    byte[] v = sys.fgetxattr(fd, name);
                    if (v != null) {
                        xattrs.add(new XAttr(name, v));
                    }
                }
            }
        }
        long flags = 0;
        Integer attr = sys.ioctlInt(fd, Libc.FS_IOC_GETFLAGS, 0, 0);
        if (attr != null) {
            flags |= PxarFlags.fromChattr(Integer.toUnsignedLong(attr));
        }
        if (magic == PxarFlags.MSDOS_MAGIC || magic == PxarFlags.FUSE_MAGIC) {
            Integer fat = sys.ioctlInt(fd, Libc.FAT_IOCTL_GET_ATTRIBUTES, 0, 0);
            if (fat != null) {
                flags |= PxarFlags.fromFatAttr(Integer.toUnsignedLong(fat));
            }
        }
        long projid = 0;
        if ((features & PxarFlags.WITH_QUOTA_PROJID) != 0 && (magic == PxarFlags.EXT4_MAGIC
                || magic == PxarFlags.XFS_MAGIC || magic == PxarFlags.FUSE_MAGIC || magic == PxarFlags.ZFS_MAGIC)) {
            Integer p = sys.ioctlInt(fd, Libc.FS_IOC_FSGETXATTR, 0, 12);
            if (p != null) {
                projid = Integer.toUnsignedLong(p);
            }
        }
        Stat withFlags = new Stat(stat.mode(), flags, stat.uid(), stat.gid(), stat.mtimeSecs(), stat.mtimeNanos());
        return new Metadata(withFlags, xattrs, acl, fcaps, projid);
    }

    private static boolean valid(byte[] name) {
        if (name.length == 0 || name.length > 255) {
            return false;
        }
        return startsWith(name, USER) || startsWith(name, TRUSTED) || Arrays.equals(name, NTACL);
    }

    private static boolean startsWith(byte[] a, byte[] prefix) {
        return a.length >= prefix.length && Arrays.equals(a, 0, prefix.length, prefix, 0, prefix.length);
    }
}
