package org.jpbs.datastore.os;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The libc calls jpbs needs that the JDK does not expose, bound once through the FFM API
 * ({@code java.lang.foreign}). Every handle captures {@code errno}. If the binding fails
 * (no native access, unusual platform) {@link #AVAILABLE} is false and callers use their
 * pure-Java fallback. Linux x86_64/aarch64 only: {@code struct timespec} is two 64-bit longs.
 */
@SuppressWarnings("restricted")
final class Native {
    private Native() {}

    /** {@code AT_FDCWD}: resolve a relative path against the current directory. */
    static final int AT_FDCWD = -100;
    /** {@code UTIME_NOW} in {@code tv_nsec}: set this timestamp to the current time. */
    static final long UTIME_NOW = (1L << 30) - 1;
    /** {@code UTIME_OMIT} in {@code tv_nsec}: leave this timestamp unchanged. */
    static final long UTIME_OMIT = (1L << 30) - 2;
    /** {@code O_RDONLY | O_CLOEXEC} (same value on x86_64 and aarch64). */
    static final int O_RDONLY_CLOEXEC = 0x80000;
    /** {@code O_RDWR}. */
    static final int O_RDWR = 2;
    /** {@code O_CREAT}. */
    static final int O_CREAT = 0x40;
    /** {@code O_DIRECTORY}: x86_64 value; aarch64 uses 0x4000 (see {@link #oDirectory()}). */
    private static final int O_DIRECTORY_X86 = 0x10000;
    /** {@code AT_SYMLINK_NOFOLLOW}. */
    static final int AT_SYMLINK_NOFOLLOW = 0x100;
    /** {@code AT_EMPTY_PATH}: operate on the descriptor itself (statx with an empty path). */
    static final int AT_EMPTY_PATH = 0x1000;
    /** {@code F_SETLK} (generic value, also x86_64 and aarch64). */
    static final int F_SETLK = 6;
    /** {@code F_GETLK}. */
    static final int F_GETLK = 5;
    /** {@code F_RDLCK}, {@code F_WRLCK}, {@code F_UNLCK}. */
    static final short F_RDLCK = 0, F_WRLCK = 1, F_UNLCK = 2;
    /** {@code flock(2)} operations: {@code LOCK_SH}, {@code LOCK_EX}, {@code LOCK_NB}, {@code LOCK_UN}. */
    static final int LOCK_SH = 1, LOCK_EX = 2, LOCK_NB = 4, LOCK_UN = 8;
    /** {@code EAGAIN}, {@code EACCES}: a conflicting lock. */
    static final int EAGAIN = 11, EACCES = 13, EINTR = 4;
    /** statx mask bits: type+mode, inode, atime, size. */
    static final int STATX_TYPE = 0x1, STATX_MODE = 0x2, STATX_INO = 0x100, STATX_ATIME = 0x20, STATX_SIZE = 0x200,
            STATX_MTIME = 0x40;
    /** Size of {@code struct statx} (the kernel ABI, the same on every architecture). */
    static final long STATX_SIZE_BYTES = 256;
    /** Size of {@code struct flock} on 64-bit Linux. */
    static final long FLOCK_SIZE_BYTES = 32;

    /** {@code O_DIRECTORY} for this architecture. */
    static int oDirectory() {
        String arch = System.getProperty("os.arch", "");
        return arch.equals("aarch64") || arch.equals("arm64") ? 0x4000 : O_DIRECTORY_X86;
    }

    static final boolean AVAILABLE;
    static final MethodHandle UTIMENSAT; // int utimensat(int dirfd, const char *path, const struct timespec times[2], int flags)
    static final MethodHandle FUTIMENS;  // int futimens(int fd, const struct timespec times[2])
    static final MethodHandle OPEN;      // int open(const char *path, int flags, ...)
    static final MethodHandle SYNCFS;    // int syncfs(int fd)
    static final MethodHandle CLOSE;     // int close(int fd)
    static final MethodHandle STRERROR;  // char *strerror(int errnum)
    static final MethodHandle FCNTL_LOCK; // int fcntl(int fd, int cmd, struct flock *)
    static final MethodHandle FLOCK;     // int flock(int fd, int operation)
    static final MethodHandle OPENDIR;   // DIR *opendir(const char *path)
    static final MethodHandle READDIR;   // struct dirent64 *readdir64(DIR *)
    static final MethodHandle CLOSEDIR;  // int closedir(DIR *)
    static final MethodHandle DIRFD;     // int dirfd(DIR *)
    static final MethodHandle STATX;     // int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *)
    static final MethodHandle ERRNO_LOCATION; // int *__errno_location(void)
    private static final StructLayout CAPTURE;
    private static final VarHandle ERRNO;

    static {
        boolean ok = false;
        MethodHandle ut = null, op = null, sf = null, cl = null, se = null;
        MethodHandle fl = null;
        MethodHandle fu = null;
        MethodHandle fc = null, od = null, rd = null, cd = null, df = null, sx = null, el = null;
        StructLayout cap = null;
        VarHandle errno = null;
        try {
            Linker linker = Linker.nativeLinker();
            var libc = linker.defaultLookup();
            cap = Linker.Option.captureStateLayout();
            errno = cap.varHandle(MemoryLayout.PathElement.groupElement("errno"));
            Linker.Option ce = Linker.Option.captureCallState("errno");
            ut = linker.downcallHandle(libc.find("utimensat").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                            ValueLayout.ADDRESS, ValueLayout.JAVA_INT), ce);
            fu = linker.downcallHandle(libc.find("futimens").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS), ce);
            op = linker.downcallHandle(libc.find("open").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_INT), ce, Linker.Option.firstVariadicArg(2));
            sf = linker.downcallHandle(libc.find("syncfs").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), ce);
            cl = linker.downcallHandle(libc.find("close").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            se = linker.downcallHandle(libc.find("strerror").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
            fc = linker.downcallHandle(libc.find("fcntl").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                            ValueLayout.ADDRESS), ce, Linker.Option.firstVariadicArg(2));
            fl = linker.downcallHandle(libc.find("flock").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), ce);
            od = linker.downcallHandle(libc.find("opendir").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS), ce);
            rd = linker.downcallHandle(libc.find("readdir64").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS), ce);
            cd = linker.downcallHandle(libc.find("closedir").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            df = linker.downcallHandle(libc.find("dirfd").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            sx = linker.downcallHandle(libc.find("statx").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS), ce);
            el = linker.downcallHandle(libc.find("__errno_location").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS));
            ok = true;
        } catch (Throwable t) {
            // no native access or unknown platform: callers fall back to pure Java
            ok = false;
        }
        AVAILABLE = ok;
        UTIMENSAT = ut;
        FUTIMENS = fu;
        OPEN = op;
        SYNCFS = sf;
        CLOSE = cl;
        STRERROR = se;
        FCNTL_LOCK = fc;
        FLOCK = fl;
        OPENDIR = od;
        READDIR = rd;
        CLOSEDIR = cd;
        DIRFD = df;
        STATX = sx;
        ERRNO_LOCATION = el;
        CAPTURE = cap;
        ERRNO = errno;
    }

    /** Allocates the errno capture segment expected as first argument of the handles. */
    static MemorySegment captureSegment(Arena arena) {
        return arena.allocate(CAPTURE);
    }

    /** Reads the captured errno. */
    static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }

    /** The text of an errno value, e.g. "No such file or directory". */
    static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.reinterpret(1024).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    /** Sets the calling thread's {@code errno} to 0 (before calls such as readdir that report errors only through it). */
    static void clearErrno() {
        try {
            MemorySegment p = (MemorySegment) ERRNO_LOCATION.invokeExact();
            p.reinterpret(4).set(ValueLayout.JAVA_INT, 0, 0);
        } catch (Throwable t) {
            throw new IllegalStateException("__errno_location failed", t);
        }
    }

    /**
     * {@code open(path, flags, 0644)}: a file descriptor the caller must close with {@link #CLOSE}.
     *
     * @throws java.nio.file.NoSuchFileException   if it does not exist (and {@code O_CREAT} is not set)
     * @throws AccessDeniedException               if permission is denied
     * @throws IOException                         on other errors (the message names the path)
     */
    static int open(Path path, int flags) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = captureSegment(arena);
            MemorySegment cpath = arena.allocateFrom(path.toAbsolutePath().toString());
            int fd = (int) OPEN.invokeExact(capture, cpath, flags, 0644);
            if (fd < 0) {
                throw error("open", path, errno(capture));
            }
            return fd;
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException(path + ": open failed: " + t, t);
        }
    }

    /** Maps a failed call to the matching IOException subclass. */
    static IOException error(String call, Path path, int errno) {
        return switch (errno) {
            case 2 -> new NoSuchFileException(path.toString(), null, call + ": " + strerror(errno));
            case 1, 13 -> new AccessDeniedException(path.toString(), null, call + ": " + strerror(errno));
            default -> new IOException(path + ": " + call + " failed: " + strerror(errno) + " (errno " + errno + ")");
        };
    }
}
