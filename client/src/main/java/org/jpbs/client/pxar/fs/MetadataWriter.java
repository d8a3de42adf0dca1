package org.jpbs.client.pxar.fs;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.PxarFlags;
import org.jpbs.core.pxar.Stat;
import org.jpbs.core.pxar.XAttr;

/**
 * Applies an entry's metadata to an extracted file ({@code docs/pxar.md#extracting}), in an
 * order that keeps each step from undoing another: owner (chown clears setuid bits and
 * capabilities), xattrs, file capability, ACLs, mode, modification time, and the chattr
 * flags last (an immutable file refuses further changes). A caller who is not root keeps
 * the owners it may set; a file system without xattrs or ACLs gives a warning, not a failure.
 * For a file the extractor has just created, what it is known to have already ({@link Fresh})
 * is not set again: no {@code chown} to the owner it was created with, no flags read back when
 * it cannot have any.
 */
final class MetadataWriter {
    private static final byte[] FCAPS = "security.capability".getBytes(StandardCharsets.US_ASCII);
    /** Every chattr bit pxar maps. */
    private static final int MAPPED = PxarFlags.toChattr(-1L);

    private final Sys sys;
    private final TreeExtractor.Options options;
    private final Consumer<String> warnings;

    MetadataWriter(Sys sys, TreeExtractor.Options options, Consumer<String> warnings) {
        this.sys = sys;
        this.options = options;
        this.warnings = warnings;
    }

    /**
     * What a file the extractor has just created is known to have ({@code docs/pxar.md#extracting}):
     * the owner it was created with, and whether it can carry a chattr flag (it inherits only
     * its parent's, and the parent has none).
     */
    record Fresh(int uid, int gid, boolean noFlags) {}

    /** For an open regular file or directory; {@code fresh} null if nothing is known about it. */
    void applyToOpen(int fd, Metadata m, Fresh fresh) throws SysException {
        Stat s = m.stat();
        boolean owned = fresh != null && fresh.uid() == s.uid() && fresh.gid() == s.gid();
        if (!options.ignoreOwnership() && !owned) {
            chown(() -> sys.fchownat(fd, new byte[0], s.uid(), s.gid(), Libc.AT_EMPTY_PATH));
        }
        if (!options.ignoreXattrs()) {
            for (XAttr x : m.xattrs()) {
                setxattr(fd, x.name(), x.value());
            }
            if (m.fcaps() != null) {
                setxattr(fd, FCAPS, m.fcaps());
            }
        }
        if (!options.ignoreAcls() && !m.acl().isEmpty()) {
            byte[] access = AclXattr.accessValue(m.acl(), s.mode());
            if (access != null) {
                setxattr(fd, AclXattr.ACCESS, access);
            }
            byte[] deflt = s.isDirectory() ? AclXattr.defaultValue(m.acl()) : null;
            if (deflt != null) {
                setxattr(fd, AclXattr.DEFAULT, deflt);
            }
        }
        sys.fchmod(fd, s.permissions());
        sys.setMtime(fd, s.mtimeSecs(), s.mtimeNanos());
        int want = PxarFlags.toChattr(s.flags());
        if (want == 0 && fresh != null && fresh.noFlags()) {
            return;
        }
        Integer have = sys.ioctlInt(fd, Libc.FS_IOC_GETFLAGS, 0, 0);
        if (have != null && (have & MAPPED) != want) {
            if (sys.ioctlInt(fd, Libc.FS_IOC_SETFLAGS, (have & ~MAPPED) | want, 0) == null && want != 0) {
                warnings.accept("warning: file system does not support chattr flags 0x" + Integer.toHexString(want));
            }
        } else if (have == null && want != 0) {
            warnings.accept("warning: file system does not support chattr flags 0x" + Integer.toHexString(want));
        }
    }

    /** For a symlink, device, fifo or socket, by name below {@code parent}. */
    void applyToName(int parent, byte[] name, Metadata m, boolean symlink) throws SysException {
        Stat s = m.stat();
        if (!options.ignoreOwnership()) {
            chown(() -> sys.fchownat(parent, name, s.uid(), s.gid(), Libc.AT_SYMLINK_NOFOLLOW));
        }
        if (!symlink) {
            sys.fchmodat(parent, name, s.permissions());
        }
        sys.setMtime(parent, name, s.mtimeSecs(), s.mtimeNanos(), Libc.AT_SYMLINK_NOFOLLOW);
    }

    @FunctionalInterface
    private interface SysCall {
        void run() throws SysException;
    }

    private static void chown(SysCall c) throws SysException {
        try {
            c.run();
        } catch (SysException e) {
            if (e.errno() != Libc.EPERM || isRoot()) {
                throw e;
            }
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private void setxattr(int fd, byte[] name, byte[] value) throws SysException {
        try {
            sys.fsetxattr(fd, name, value);
        } catch (SysException e) {
            if (e.errno() == Libc.EOPNOTSUPP || (e.errno() == Libc.EPERM && !isRoot())) {
                warnings.accept("warning: " + e.getMessage());
                return;
            }
            throw e;
        }
    }
}
