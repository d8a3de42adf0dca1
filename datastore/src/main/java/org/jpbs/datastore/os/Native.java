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

    static final boolean AVAILABLE;
    static final MethodHandle UTIMENSAT; // int utimensat(int dirfd, const char *path, const struct timespec times[2], int flags)
    static final MethodHandle OPEN;      // int open(const char *path, int flags, ...)
    static final MethodHandle SYNCFS;    // int syncfs(int fd)
    static final MethodHandle CLOSE;     // int close(int fd)
    static final MethodHandle STRERROR;  // char *strerror(int errnum)
    private static final StructLayout CAPTURE;
    private static final VarHandle ERRNO;

    static {
        boolean ok = false;
        MethodHandle ut = null, op = null, sf = null, cl = null, se = null;
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
            op = linker.downcallHandle(libc.find("open").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_INT), ce, Linker.Option.firstVariadicArg(2));
            sf = linker.downcallHandle(libc.find("syncfs").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), ce);
            cl = linker.downcallHandle(libc.find("close").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            se = linker.downcallHandle(libc.find("strerror").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
            ok = true;
        } catch (Throwable t) {
            // no native access or unknown platform: callers fall back to pure Java
            ok = false;
        }
        AVAILABLE = ok;
        UTIMENSAT = ut;
        OPEN = op;
        SYNCFS = sf;
        CLOSE = cl;
        STRERROR = se;
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

    /** Maps a failed call to the matching IOException subclass. */
    static IOException error(String call, Path path, int errno) {
        return switch (errno) {
            case 2 -> new NoSuchFileException(path.toString(), null, call + ": " + strerror(errno));
            case 1, 13 -> new AccessDeniedException(path.toString(), null, call + ": " + strerror(errno));
            default -> new IOException(path + ": " + call + " failed: " + strerror(errno) + " (errno " + errno + ")");
        };
    }
}
