package org.jpbs.client.pxar.fs;

/**
 * Opens again a regular file whose metadata was read earlier through a descriptor since closed
 * ({@code docs/pxar.md#metadata-change-detection}): in metadata mode a file is closed as soon as
 * its metadata is read, and opened again only if its contents are wanted after all (changed, or
 * its run of unchanged files not reusable). The file opened must be the inode that was stat'ed
 * (same device and inode number); otherwise it counts as vanished.
 */
final class Reopen {
    private Reopen() {}

    /**
     * Opens {@code name} in the directory {@code dirfd}; -1 if it is gone, not accessible or
     * another inode than {@code expected}.
     */
    static int in(Sys sys, int dirfd, byte[] name, Sys.FileStat expected) throws SysException {
        int fd;
        try {
            fd = EntryRead.open(sys, dirfd, name);
        } catch (SysException e) {
            if (gone(e.errno())) {
                return -1;
            }
            throw e;
        }
        int same = same(sys, fd, expected);
        if (same >= 0) {
            try {
                sys.blocking(same); // the inode stat'ed as a regular file: read it blocking
            } catch (SysException e) {
                sys.close(same);
                throw e;
            }
        }
        return same;
    }

    /**
     * Opens {@code path} (below the directory {@code rootfd}, no leading slash) one component at a
     * time, never following a symlink (a directory replaced by one is not entered); -1 as for
     * {@link #in}.
     */
    static int below(Sys sys, int rootfd, byte[] path, Sys.FileStat expected) throws SysException {
        int dir = rootfd;
        int start = 0;
        try {
            for (int i = 0; i < path.length; i++) {
                if (path[i] != '/') {
                    continue;
                }
                byte[] component = java.util.Arrays.copyOfRange(path, start, i);
                int next = sys.tryOpenat(dir, component,
                        Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_NOFOLLOW | Libc.O_CLOEXEC, 0);
                if (next < 0) {
                    if (gone(-next)) {
                        return -1;
                    }
                    throw new SysException("open", component, -next);
                }
                if (dir != rootfd) {
                    sys.close(dir);
                }
                dir = next;
                start = i + 1;
            }
            return in(sys, dir, java.util.Arrays.copyOfRange(path, start, path.length), expected);
        } finally {
            if (dir != rootfd) {
                sys.close(dir);
            }
        }
    }

    private static boolean gone(int errno) {
        return errno == Libc.ENOENT || errno == Libc.ENOTDIR || errno == Libc.ELOOP || errno == Libc.EACCES;
    }

    private static int same(Sys sys, int fd, Sys.FileStat expected) throws SysException {
        Sys.FileStat now = new Sys.FileStat();
        try {
            sys.statx(fd, new byte[0], Libc.AT_EMPTY_PATH, now);
        } catch (SysException e) {
            sys.close(fd);
            throw e;
        }
        if (now.ino != expected.ino || now.dev() != expected.dev() || now.type() != 0100000) {
            sys.close(fd);
            return -1;
        }
        return fd;
    }
}
