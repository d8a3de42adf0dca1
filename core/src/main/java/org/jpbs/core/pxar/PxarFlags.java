package org.jpbs.core.pxar;

/**
 * The pxar feature flags ({@code docs/pxar.md#flags}): the bits of an ENTRY's {@code flags}
 * field (chattr and FAT attributes), the mapping to and from Linux {@code FS_IOC_GETFLAGS}
 * bits and FAT attributes, and the per-file-system feature sets that decide which metadata
 * {@code pxar} reads.
 */
public final class PxarFlags {
    private PxarFlags() {}

    public static final long WITH_FLAG_HIDDEN = 0x2000;
    public static final long WITH_FLAG_SYSTEM = 0x4000;
    public static final long WITH_FLAG_ARCHIVE = 0x8000;
    public static final long WITH_FLAG_APPEND = 0x10000;
    public static final long WITH_FLAG_NOATIME = 0x20000;
    public static final long WITH_FLAG_COMPR = 0x40000;
    public static final long WITH_FLAG_NOCOW = 0x80000;
    public static final long WITH_FLAG_NODUMP = 0x100000;
    public static final long WITH_FLAG_DIRSYNC = 0x200000;
    public static final long WITH_FLAG_IMMUTABLE = 0x400000;
    public static final long WITH_FLAG_SYNC = 0x800000;
    public static final long WITH_FLAG_NOCOMP = 0x1000000;
    public static final long WITH_FLAG_PROJINHERIT = 0x2000000;
    public static final long WITH_XATTRS = 0x10000000L;
    public static final long WITH_ACL = 0x20000000L;
    public static final long WITH_FCAPS = 0x80000000L;
    public static final long WITH_QUOTA_PROJID = 0x100000000L;

    /** {pxar flag, Linux FS_*_FL bit}. */
    private static final long[][] CHATTR = {
        {WITH_FLAG_APPEND, 0x20}, {WITH_FLAG_NOATIME, 0x80}, {WITH_FLAG_COMPR, 0x4}, {WITH_FLAG_NOCOW, 0x800000},
        {WITH_FLAG_NODUMP, 0x40}, {WITH_FLAG_DIRSYNC, 0x10000}, {WITH_FLAG_IMMUTABLE, 0x10}, {WITH_FLAG_SYNC, 0x8},
        {WITH_FLAG_NOCOMP, 0x400}, {WITH_FLAG_PROJINHERIT, 0x20000000},
    };
    /** {pxar flag, FAT ATTR_* bit}. */
    private static final long[][] FAT = {{WITH_FLAG_HIDDEN, 2}, {WITH_FLAG_SYSTEM, 4}, {WITH_FLAG_ARCHIVE, 32}};
    /** The chattr bits an extractor sets before writing contents (the rest after). */
    public static final int INITIAL_CHATTR = 0x80 | 0x4 | 0x800000 | 0x400 | 0x20000000;

    public static final long EXT4_MAGIC = 0xEF53;
    public static final long XFS_MAGIC = 0x58465342;
    public static final long ZFS_MAGIC = 0x2fc12fc1;
    public static final long BTRFS_MAGIC = 0x9123683EL;
    public static final long TMPFS_MAGIC = 0x01021994;
    public static final long FUSE_MAGIC = 0x65735546;
    public static final long MSDOS_MAGIC = 0x4d44;

    /** pxar flags from Linux chattr bits. */
    public static long fromChattr(long attr) {
        return map(CHATTR, attr, 1, 0);
    }

    /** Linux chattr bits from pxar flags. */
    public static int toChattr(long flags) {
        return (int) map(CHATTR, flags, 0, 1);
    }

    /** pxar flags from FAT attributes. */
    public static long fromFatAttr(long attr) {
        return map(FAT, attr, 1, 0);
    }

    /** FAT attributes from pxar flags. */
    public static int toFatAttr(long flags) {
        return (int) map(FAT, flags, 0, 1);
    }

    /** Translates {@code bits} through a table of {pxar flag, other bit} pairs, column {@code from} to {@code to}. */
    private static long map(long[][] table, long bits, int from, int to) {
        long out = 0;
        for (long[] m : table) {
            if ((bits & m[from]) != 0) {
                out |= m[to];
            }
        }
        return out;
    }

    /**
     * Which of xattrs, ACLs, capabilities and project ids {@code pxar} reads on a file system
     * with this {@code statfs} magic (tmpfs: ACL only, but ACLs are read through the xattr
     * listing, so nothing; FAT: none; unknown file systems: all but project ids).
     */
    public static long featuresOf(long magic) {
        if (magic == EXT4_MAGIC || magic == XFS_MAGIC || magic == ZFS_MAGIC) {
            return WITH_XATTRS | WITH_ACL | WITH_FCAPS | WITH_QUOTA_PROJID;
        }
        if (magic == BTRFS_MAGIC) {
            return WITH_XATTRS | WITH_ACL | WITH_FCAPS;
        }
        if (magic == TMPFS_MAGIC) {
            return WITH_ACL;
        }
        if (magic == FUSE_MAGIC) {
            return WITH_XATTRS;
        }
        if (magic == MSDOS_MAGIC) {
            return 0;
        }
        return WITH_XATTRS | WITH_ACL | WITH_FCAPS;
    }

    /** File systems {@code pxar} refuses to archive (proc, sysfs, cgroup, debugfs, ...). */
    public static boolean isVirtual(long magic) {
        long[] virtual = {0x42494e4dL, 0x63677270L, 0x27e0ebL, 0x62656570L, 0x64626720L, 0x1cd1L, 0xde5e81e4L,
            0x65735543L, 0x958458f6L, 0x19800202L, 0x6e667364L, 0x9fa0L, 0x6165676cL, 0x67596969L, 0x73636673L,
            0xf97cff8cL, 0x43415d53L, 0x62656572L};
        for (long v : virtual) {
            if (magic == v) {
                return true;
            }
        }
        return false;
    }
}
