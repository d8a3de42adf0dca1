package org.jpbs.client.pxar.fs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Typed wrappers over {@link Libc} with reusable native buffers: one instance per thread (not
 * thread-safe), closed when done. File names are raw bytes (any encoding) relative to a
 * directory descriptor, as the *at system calls take them. Failures throw
 * {@link SysException} carrying the errno.
 */
final class Sys implements AutoCloseable {
    private static final int IO_BUFFER = 1 << 20;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment capture = arena.allocate(Libc.captureLayout());
    private final MemorySegment name1 = arena.allocate(4096 + 1);
    private final MemorySegment name2 = arena.allocate(4096 + 1);
    private final MemorySegment statx = arena.allocate(256, 8);
    private final MemorySegment small = arena.allocate(256, 8);
    private final MemorySegment dents = arena.allocate(64 * 1024, 8);
    private final MemorySegment io = arena.allocate(IO_BUFFER, 4096);
    private MemorySegment xbuf = arena.allocate(64 * 1024);

    /** The result of {@link #statx}. */
    static final class FileStat {
        int mode;
        int uid;
        int gid;
        long nlink;
        long ino;
        long size;
        long blocks;
        long mtimeSecs;
        int mtimeNanos;
        long rdevMajor;
        long rdevMinor;
        long devMajor;
        long devMinor;

        int type() {
            return mode & 0170000;
        }

        long dev() {
            return devMajor << 32 | devMinor;
        }
    }

    private MemorySegment cname(MemorySegment buf, byte[] name) {
        if (name.length > 4096) {
            throw new IllegalArgumentException("path name longer than 4096 bytes");
        }
        MemorySegment.copy(name, 0, buf, ValueLayout.JAVA_BYTE, 0, name.length);
        buf.set(ValueLayout.JAVA_BYTE, name.length, (byte) 0);
        return buf;
    }

    private SysException fail(String op, byte[] name) {
        return new SysException(op, name, Libc.errno(capture));
    }

    int openat(int dirfd, byte[] name, int flags, int mode) throws SysException {
        int fd = tryOpenat(dirfd, name, flags, mode);
        if (fd < 0) {
            throw new SysException("open", name, -fd);
        }
        return fd;
    }

    /**
     * {@code openat} without an exception for a failure (where one is expected, e.g. a
     * {@code .pxarexclude} that most directories lack): the descriptor, or {@code -errno}.
     */
    int tryOpenat(int dirfd, byte[] name, int flags, int mode) {
        int fd;
        try {
            fd = (int) Libc.OPENAT.invokeExact(capture, dirfd, cname(name1, name), flags, mode);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return fd < 0 ? -Libc.errno(capture) : fd;
    }

    void close(int fd) {
        try {
            int r = (int) Libc.CLOSE.invokeExact(capture, fd);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** lstat-like {@code statx(dirfd, name, flags)}; an empty name with AT_EMPTY_PATH stats dirfd. */
    void statx(int dirfd, byte[] name, int flags, FileStat out) throws SysException {
        int r;
        try {
            r = (int) Libc.STATX.invokeExact(capture, dirfd, cname(name1, name), flags, Libc.STATX_BASIC_STATS, statx);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (r != 0) {
            throw fail("stat", name);
        }
        out.nlink = Integer.toUnsignedLong(statx.get(ValueLayout.JAVA_INT, 16));
        out.uid = statx.get(ValueLayout.JAVA_INT, 20);
        out.gid = statx.get(ValueLayout.JAVA_INT, 24);
        out.mode = Short.toUnsignedInt(statx.get(ValueLayout.JAVA_SHORT, 28));
        out.ino = statx.get(ValueLayout.JAVA_LONG, 32);
        out.size = statx.get(ValueLayout.JAVA_LONG, 40);
        out.blocks = statx.get(ValueLayout.JAVA_LONG, 48);
        out.mtimeSecs = statx.get(ValueLayout.JAVA_LONG, 112);
        out.mtimeNanos = statx.get(ValueLayout.JAVA_INT, 120);
        out.rdevMajor = Integer.toUnsignedLong(statx.get(ValueLayout.JAVA_INT, 128));
        out.rdevMinor = Integer.toUnsignedLong(statx.get(ValueLayout.JAVA_INT, 132));
        out.devMajor = Integer.toUnsignedLong(statx.get(ValueLayout.JAVA_INT, 136));
        out.devMinor = Integer.toUnsignedLong(statx.get(ValueLayout.JAVA_INT, 140));
    }

    /** A directory entry: its name and its type as the S_IF* bits from {@code d_type} (0: unknown). */
    record DirEntry(byte[] name, int type) {}

    /** The names in a directory (without "." and ".."), in the order the file system gives them. */
    List<byte[]> readdir(int dirfd) throws SysException {
        List<byte[]> names = new ArrayList<>();
        for (DirEntry e : list(dirfd)) {
            names.add(e.name());
        }
        return names;
    }

    /**
     * The entries of a directory (without "." and ".."), in the order the file system gives them,
     * each with the type {@code getdents64} reports (no stat needed to tell directories apart).
     */
    List<DirEntry> list(int dirfd) throws SysException {
        List<DirEntry> names = new ArrayList<>();
        while (true) {
            long n;
            try {
                n = (long) Libc.GETDENTS64.invokeExact(capture, dirfd, dents, dents.byteSize());
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (n < 0) {
                throw fail("read directory", new byte[0]);
            }
            if (n == 0) {
                return names;
            }
            long off = 0;
            while (off < n) {
                int reclen = Short.toUnsignedInt(dents.get(ValueLayout.JAVA_SHORT, off + 16));
                long start = off + 19;
                long end = start;
                while (dents.get(ValueLayout.JAVA_BYTE, end) != 0) {
                    end++;
                }
                int len = (int) (end - start);
                boolean dot = len == 1 && dents.get(ValueLayout.JAVA_BYTE, start) == '.';
                boolean dotdot = len == 2 && dents.get(ValueLayout.JAVA_BYTE, start) == '.'
                        && dents.get(ValueLayout.JAVA_BYTE, start + 1) == '.';
                if (!dot && !dotdot) {
                    byte[] name = new byte[len];
                    MemorySegment.copy(dents, ValueLayout.JAVA_BYTE, start, name, 0, len);
                    // DT_* << 12 is the S_IF* type (DT_REG 8 -> 0100000); DT_UNKNOWN 0 stays 0
                    names.add(new DirEntry(name, (dents.get(ValueLayout.JAVA_BYTE, off + 18) & 0xf) << 12));
                }
                off += reclen;
            }
        }
    }

    byte[] readlinkat(int dirfd, byte[] name) throws SysException {
        long n;
        try {
            n = (long) Libc.READLINKAT.invokeExact(capture, dirfd, cname(name1, name), io, (long) 4096 + 1);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (n < 0) {
            throw fail("readlink", name);
        }
        byte[] target = new byte[(int) n];
        MemorySegment.copy(io, ValueLayout.JAVA_BYTE, 0, target, 0, (int) n);
        return target;
    }

    /** The xattr names of an open file, in the file system's order; empty if unsupported. */
    List<byte[]> flistxattr(int fd) throws SysException {
        long n = xattrCall(() -> (long) Libc.FLISTXATTR.invokeExact(capture, fd, xbuf, xbuf.byteSize()), "list xattrs of");
        List<byte[]> names = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < n; i++) {
            if (xbuf.get(ValueLayout.JAVA_BYTE, i) == 0) {
                byte[] name = new byte[i - start];
                MemorySegment.copy(xbuf, ValueLayout.JAVA_BYTE, start, name, 0, name.length);
                names.add(name);
                start = i + 1;
            }
        }
        return names;
    }

    /** The value of an xattr, or null if it does not exist (any more). */
    byte[] fgetxattr(int fd, byte[] name) throws SysException {
        MemorySegment c = cname(name1, name);
        long n = xattrCall(() -> (long) Libc.FGETXATTR.invokeExact(capture, fd, c, xbuf, xbuf.byteSize()),
                "read xattr " + new String(name, java.nio.charset.StandardCharsets.UTF_8) + " of");
        if (n < 0) {
            return null;
        }
        byte[] v = new byte[(int) n];
        MemorySegment.copy(xbuf, ValueLayout.JAVA_BYTE, 0, v, 0, v.length);
        return v;
    }

    @FunctionalInterface
    private interface LongCall {
        long call() throws Throwable;
    }

    /**
     * Runs an xattr call into {@link #xbuf}, growing it on ERANGE.
     *
     * @return the length, 0 if xattrs are unsupported here, -1 if the attribute does not exist
     */
    private long xattrCall(LongCall c, String op) throws SysException {
        while (true) {
            long n;
            try {
                n = c.call();
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (n >= 0) {
                return n;
            }
            int e = Libc.errno(capture);
            if (e == Libc.ERANGE) {
                growXattrBuffer();
            } else if (e == Libc.ENODATA) {
                return -1;
            } else if (e == Libc.EOPNOTSUPP || e == Libc.EBADF) {
                return 0;
            } else {
                throw new SysException(op, new byte[0], e);
            }
        }
    }

    private void growXattrBuffer() {
        if (xbuf.byteSize() >= (1 << 24)) {
            throw new IllegalStateException("xattr data larger than 16 MiB");
        }
        xbuf = arena.allocate(xbuf.byteSize() * 4);
    }

    void fsetxattr(int fd, byte[] name, byte[] value) throws SysException {
        MemorySegment v = value.length <= io.byteSize() ? io : arena.allocate(value.length);
        MemorySegment.copy(value, 0, v, ValueLayout.JAVA_BYTE, 0, value.length);
        int r;
        try {
            r = (int) Libc.FSETXATTR.invokeExact(capture, fd, cname(name1, name), v, (long) value.length, 0);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (r != 0) {
            throw fail("set xattr " + new String(name, java.nio.charset.StandardCharsets.UTF_8) + " on", new byte[0]);
        }
    }

    /**
     * An ioctl reading (or, with {@code in} set, writing) a 32-bit value.
     *
     * @return the value read, or null if the file system does not support it
     */
    Integer ioctlInt(int fd, long request, int in, long offset) throws SysException {
        small.fill((byte) 0);
        small.set(ValueLayout.JAVA_INT, offset, in);
        int r;
        try {
            r = (int) Libc.IOCTL.invokeExact(capture, fd, request, small);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (r != 0) {
            int e = Libc.errno(capture);
            if (unsupported(e)) {
                return null;
            }
            throw new SysException("ioctl on", new byte[0], e);
        }
        return small.get(ValueLayout.JAVA_INT, offset);
    }

    /** Errors that mean "this file system or file kind does not have that feature". */
    static boolean unsupported(int e) {
        return e == Libc.ENOTTY || e == Libc.ENOSYS || e == Libc.EBADF || e == Libc.EOPNOTSUPP || e == Libc.EINVAL;
    }

    /** The file system magic ({@code statfs.f_type}) of an open file. */
    long fsType(int fd) throws SysException {
        MemorySegment buf = io;
        int r;
        try {
            r = (int) Libc.FSTATFS.invokeExact(capture, fd, buf);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (r != 0) {
            throw fail("statfs", new byte[0]);
        }
        return buf.get(ValueLayout.JAVA_LONG, 0);
    }

    /** Reads up to {@code len} bytes; 0 at end of file. */
    int read(int fd, byte[] b, int off, int len) throws SysException {
        int n = readIo(fd, Math.min(len, IO_BUFFER));
        MemorySegment.copy(io, ValueLayout.JAVA_BYTE, 0, b, off, n);
        return n;
    }

    /**
     * Reads up to {@code len} bytes into {@code b[off..]} with one {@code read} asking for one
     * byte more: a result of {@code len + 1} means the file has more than {@code len} bytes left
     * (only {@code len} are copied). 0 at end of file.
     */
    int readProbing(int fd, byte[] b, int off, int len) throws SysException {
        int n = readIo(fd, Math.min(len + 1, IO_BUFFER));
        MemorySegment.copy(io, ValueLayout.JAVA_BYTE, 0, b, off, Math.min(n, len));
        return n;
    }

    /** One {@code read} of up to {@code want} bytes into the I/O buffer (retried on EINTR). */
    private int readIo(int fd, int want) throws SysException {
        while (true) {
            long n;
            try {
                n = (long) Libc.READ.invokeExact(capture, fd, io, (long) want);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (n >= 0) {
                return (int) n;
            }
            if (Libc.errno(capture) != Libc.EINTR) {
                throw fail("read", new byte[0]);
            }
        }
    }

    /**
     * Writes all of {@code b[off, off+len)}, straight from the array (the call pins it; no copy
     * into native memory).
     */
    void writeAll(int fd, byte[] b, int off, int len) throws SysException {
        MemorySegment src = MemorySegment.ofArray(b);
        long done = 0;
        while (done < len) {
            long n;
            try {
                n = (long) Libc.WRITE_HEAP.invokeExact(capture, fd, src.asSlice(off + done), len - done);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (n < 0) {
                if (Libc.errno(capture) == Libc.EINTR) {
                    continue;
                }
                throw fail("write", new byte[0]);
            }
            done += n;
        }
    }

    /** The effective user and group id of this process ({@code geteuid}, {@code getegid}). */
    static int[] effectiveIds() {
        try {
            return new int[] {(int) Libc.GETEUID.invokeExact(), (int) Libc.GETEGID.invokeExact()};
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code lseek(fd, offset, whence)}. */
    long lseek(int fd, long offset, int whence) throws SysException {
        long r;
        try {
            r = (long) Libc.LSEEK.invokeExact(capture, fd, offset, whence);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (r < 0) {
            throw fail("seek", new byte[0]);
        }
        return r;
    }

    /** Clears {@code O_NONBLOCK} on an open descriptor (fcntl F_GETFL, F_SETFL). */
    void blocking(int fd) throws SysException {
        int flags = call(() -> (int) Libc.FCNTL.invokeExact(capture, fd, Libc.F_GETFL, 0));
        if (flags < 0) {
            throw fail("fcntl", new byte[0]);
        }
        if ((flags & Libc.O_NONBLOCK) != 0) {
            check(call(() -> (int) Libc.FCNTL.invokeExact(capture, fd, Libc.F_SETFL, flags & ~Libc.O_NONBLOCK)), "fcntl",
                    new byte[0]);
        }
    }

    void ftruncate(int fd, long size) throws SysException {
        check(call(() -> (int) Libc.FTRUNCATE.invokeExact(capture, fd, size)), "truncate", new byte[0]);
    }

    void mkdirat(int dirfd, byte[] name, int mode) throws SysException {
        MemorySegment c = cname(name1, name);
        check(call(() -> (int) Libc.MKDIRAT.invokeExact(capture, dirfd, c, mode)), "mkdir", name);
    }

    void mknodat(int dirfd, byte[] name, int mode, long dev) throws SysException {
        MemorySegment c = cname(name1, name);
        check(call(() -> (int) Libc.MKNODAT.invokeExact(capture, dirfd, c, mode, dev)), "mknod", name);
    }

    void symlinkat(byte[] target, int dirfd, byte[] name) throws SysException {
        MemorySegment t = cname(name2, target);
        MemorySegment c = cname(name1, name);
        check(call(() -> (int) Libc.SYMLINKAT.invokeExact(capture, t, dirfd, c)), "symlink", name);
    }

    void linkat(int olddir, byte[] oldName, int newdir, byte[] newName) throws SysException {
        MemorySegment o = cname(name2, oldName);
        MemorySegment c = cname(name1, newName);
        check(call(() -> (int) Libc.LINKAT.invokeExact(capture, olddir, o, newdir, c, 0)), "link", newName);
    }

    void unlinkat(int dirfd, byte[] name, int flags) throws SysException {
        MemorySegment c = cname(name1, name);
        check(call(() -> (int) Libc.UNLINKAT.invokeExact(capture, dirfd, c, flags)), "remove", name);
    }

    void fchownat(int dirfd, byte[] name, int uid, int gid, int flags) throws SysException {
        MemorySegment c = cname(name1, name);
        check(call(() -> (int) Libc.FCHOWNAT.invokeExact(capture, dirfd, c, uid, gid, flags)), "chown", name);
    }

    void fchmod(int fd, int mode) throws SysException {
        check(call(() -> (int) Libc.FCHMOD.invokeExact(capture, fd, mode)), "chmod", new byte[0]);
    }

    /** Sets the modification time (access time left alone) of {@code name} below {@code dirfd}. */
    void setMtime(int dirfd, byte[] name, long secs, int nanos, int flags) throws SysException {
        small.set(ValueLayout.JAVA_LONG, 0, 0);
        small.set(ValueLayout.JAVA_LONG, 8, Libc.UTIME_OMIT);
        small.set(ValueLayout.JAVA_LONG, 16, secs);
        small.set(ValueLayout.JAVA_LONG, 24, nanos);
        MemorySegment c = cname(name1, name);
        check(call(() -> (int) Libc.UTIMENSAT.invokeExact(capture, dirfd, c, small, flags)), "set times of", name);
    }

    /** Sets the modification time (access time left alone) of an open file. */
    void setMtime(int fd, long secs, int nanos) throws SysException {
        small.set(ValueLayout.JAVA_LONG, 0, 0);
        small.set(ValueLayout.JAVA_LONG, 8, Libc.UTIME_OMIT);
        small.set(ValueLayout.JAVA_LONG, 16, secs);
        small.set(ValueLayout.JAVA_LONG, 24, nanos);
        check(call(() -> (int) Libc.FUTIMENS.invokeExact(capture, fd, small)), "set times of",
                new byte[0]);
    }

    /** {@code fchmodat(dirfd, name, mode, 0)} (not for symlinks). */
    void fchmodat(int dirfd, byte[] name, int mode) throws SysException {
        MemorySegment c = cname(name1, name);
        check(call(() -> (int) Libc.FCHMODAT.invokeExact(capture, dirfd, c, mode, 0)), "chmod", name);
    }

    @FunctionalInterface
    private interface IntCall {
        int call() throws Throwable;
    }

    private static int call(IntCall c) {
        try {
            return c.call();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private void check(int r, String op, byte[] name) throws SysException {
        if (r != 0) {
            throw fail(op, name);
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
