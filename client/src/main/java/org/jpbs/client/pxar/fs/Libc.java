package org.jpbs.client.pxar.fs;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The libc functions the pxar archiver and extractor call through the FFM API, bound once.
 * Every handle except {@code strerror} takes an errno capture segment first. Linux only;
 * the open flags differ between x86_64 and aarch64 and are chosen at load time.
 */
@SuppressWarnings("restricted")
final class Libc {
    private Libc() {}

    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;
    private static final ValueLayout A = ValueLayout.ADDRESS;

    static final boolean AARCH64 = System.getProperty("os.arch", "").equals("aarch64");
    static final int O_RDONLY = 0;
    static final int O_WRONLY = 1;
    static final int O_CREAT = 0x40;
    static final int O_EXCL = 0x80;
    static final int O_NOCTTY = 0x100;
    static final int O_TRUNC = 0x200;
    static final int O_NONBLOCK = 0x800;
    static final int F_GETFL = 3;
    static final int F_SETFL = 4;
    static final int O_DIRECTORY = AARCH64 ? 0x4000 : 0x10000;
    static final int O_NOFOLLOW = AARCH64 ? 0x8000 : 0x20000;
    static final int O_NOATIME = 0x40000;
    static final int O_CLOEXEC = 0x80000;
    static final int O_PATH = 0x200000;
    static final int AT_FDCWD = -100;
    static final int AT_SYMLINK_NOFOLLOW = 0x100;
    static final int AT_EMPTY_PATH = 0x1000;
    static final int STATX_BASIC_STATS = 0x7ff;
    static final long FS_IOC_GETFLAGS = 0x80086601L;
    static final long FS_IOC_SETFLAGS = 0x40086602L;
    static final long FS_IOC_FSGETXATTR = 0x801c581fL;
    static final long FS_IOC_FSSETXATTR = 0x401c5820L;
    static final long FAT_IOCTL_GET_ATTRIBUTES = 0x80047210L;
    static final long FAT_IOCTL_SET_ATTRIBUTES = 0x40047211L;
    static final int SEEK_SET = 0;
    static final long UTIME_OMIT = (1L << 30) - 2;

    static final int EPERM = 1, ENOENT = 2, EINTR = 4, EBADF = 9, EACCES = 13, EEXIST = 17, ENOTDIR = 20,
            EINVAL = 22, ENOTTY = 25, ENOSPC = 28, ERANGE = 34, ENOSYS = 38, ELOOP = 40, ENODATA = 61, EOPNOTSUPP = 95;

    static final MethodHandle OPENAT;      // int openat(int, const char*, int, ...mode)
    static final MethodHandle CLOSE;       // int close(int)
    static final MethodHandle STATX;       // int statx(int, const char*, int, unsigned, struct statx*)
    static final MethodHandle GETDENTS64;  // ssize_t getdents64(int, void*, size_t)
    static final MethodHandle READLINKAT;  // ssize_t readlinkat(int, const char*, char*, size_t)
    static final MethodHandle FLISTXATTR;  // ssize_t flistxattr(int, char*, size_t)
    static final MethodHandle FGETXATTR;   // ssize_t fgetxattr(int, const char*, void*, size_t)
    static final MethodHandle FSETXATTR;   // int fsetxattr(int, const char*, const void*, size_t, int)
    static final MethodHandle IOCTL;       // int ioctl(int, unsigned long, void*)
    static final MethodHandle READ;        // ssize_t read(int, void*, size_t)
    static final MethodHandle WRITE;       // ssize_t write(int, const void*, size_t)
    static final MethodHandle WRITE_HEAP;  // the same, given a Java array's memory (no copy)
    static final MethodHandle LSEEK;       // off_t lseek(int, off_t, int)
    static final MethodHandle FTRUNCATE;   // int ftruncate(int, off_t)
    static final MethodHandle FCNTL;       // int fcntl(int, int, ...int)
    static final MethodHandle FSTATFS;     // int fstatfs(int, struct statfs*)
    static final MethodHandle MKDIRAT;     // int mkdirat(int, const char*, mode_t)
    static final MethodHandle MKNODAT;     // int mknodat(int, const char*, mode_t, dev_t)
    static final MethodHandle SYMLINKAT;   // int symlinkat(const char*, int, const char*)
    static final MethodHandle LINKAT;      // int linkat(int, const char*, int, const char*, int)
    static final MethodHandle FCHOWNAT;    // int fchownat(int, const char*, uid_t, gid_t, int)
    static final MethodHandle FCHMOD;      // int fchmod(int, mode_t)
    static final MethodHandle FCHMODAT;    // int fchmodat(int, const char*, mode_t, int)
    static final MethodHandle UTIMENSAT;   // int utimensat(int, const char*, const struct timespec[2], int)
    static final MethodHandle FUTIMENS;    // int futimens(int, const struct timespec[2])
    static final MethodHandle UNLINKAT;    // int unlinkat(int, const char*, int)
    static final MethodHandle STRERROR;    // char* strerror(int)
    static final MethodHandle GETEUID;     // uid_t geteuid(void)
    static final MethodHandle GETEGID;     // gid_t getegid(void)
    private static final StructLayout CAPTURE;
    private static final VarHandle ERRNO;

    static {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        CAPTURE = Linker.Option.captureStateLayout();
        ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        Linker.Option ce = Linker.Option.captureCallState("errno");
        OPENAT = linker.downcallHandle(libc.find("openat").orElseThrow(), FunctionDescriptor.of(I, I, A, I, I), ce,
                Linker.Option.firstVariadicArg(3));
        CLOSE = bind(linker, libc, ce, "close", FunctionDescriptor.of(I, I));
        STATX = bind(linker, libc, ce, "statx", FunctionDescriptor.of(I, I, A, I, I, A));
        GETDENTS64 = bind(linker, libc, ce, "getdents64", FunctionDescriptor.of(L, I, A, L));
        READLINKAT = bind(linker, libc, ce, "readlinkat", FunctionDescriptor.of(L, I, A, A, L));
        FLISTXATTR = bind(linker, libc, ce, "flistxattr", FunctionDescriptor.of(L, I, A, L));
        FGETXATTR = bind(linker, libc, ce, "fgetxattr", FunctionDescriptor.of(L, I, A, A, L));
        FSETXATTR = bind(linker, libc, ce, "fsetxattr", FunctionDescriptor.of(I, I, A, A, L, I));
        IOCTL = linker.downcallHandle(libc.find("ioctl").orElseThrow(), FunctionDescriptor.of(I, I, L, A), ce,
                Linker.Option.firstVariadicArg(2));
        READ = bind(linker, libc, ce, "read", FunctionDescriptor.of(L, I, A, L));
        WRITE = bind(linker, libc, ce, "write", FunctionDescriptor.of(L, I, A, L));
        WRITE_HEAP = linker.downcallHandle(libc.find("write").orElseThrow(), FunctionDescriptor.of(L, I, A, L), ce,
                Linker.Option.critical(true));
        LSEEK = bind(linker, libc, ce, "lseek", FunctionDescriptor.of(L, I, L, I));
        FTRUNCATE = bind(linker, libc, ce, "ftruncate", FunctionDescriptor.of(I, I, L));
        FCNTL = linker.downcallHandle(libc.find("fcntl").orElseThrow(), FunctionDescriptor.of(I, I, I, I), ce,
                Linker.Option.firstVariadicArg(2));
        FSTATFS = bind(linker, libc, ce, "fstatfs", FunctionDescriptor.of(I, I, A));
        MKDIRAT = bind(linker, libc, ce, "mkdirat", FunctionDescriptor.of(I, I, A, I));
        MKNODAT = bind(linker, libc, ce, "mknodat", FunctionDescriptor.of(I, I, A, I, L));
        SYMLINKAT = bind(linker, libc, ce, "symlinkat", FunctionDescriptor.of(I, A, I, A));
        LINKAT = bind(linker, libc, ce, "linkat", FunctionDescriptor.of(I, I, A, I, A, I));
        FCHOWNAT = bind(linker, libc, ce, "fchownat", FunctionDescriptor.of(I, I, A, I, I, I));
        FCHMOD = bind(linker, libc, ce, "fchmod", FunctionDescriptor.of(I, I, I));
        FCHMODAT = bind(linker, libc, ce, "fchmodat", FunctionDescriptor.of(I, I, A, I, I));
        UTIMENSAT = bind(linker, libc, ce, "utimensat", FunctionDescriptor.of(I, I, A, A, I));
        FUTIMENS = bind(linker, libc, ce, "futimens", FunctionDescriptor.of(I, I, A));
        UNLINKAT = bind(linker, libc, ce, "unlinkat", FunctionDescriptor.of(I, I, A, I));
        STRERROR = linker.downcallHandle(libc.find("strerror").orElseThrow(), FunctionDescriptor.of(A, I));
        GETEUID = linker.downcallHandle(libc.find("geteuid").orElseThrow(), FunctionDescriptor.of(I));
        GETEGID = linker.downcallHandle(libc.find("getegid").orElseThrow(), FunctionDescriptor.of(I));
    }

    private static MethodHandle bind(Linker linker, SymbolLookup libc, Linker.Option ce, String name,
            FunctionDescriptor fd) {
        return linker.downcallHandle(libc.find(name).orElseThrow(), fd, ce);
    }

    static StructLayout captureLayout() {
        return CAPTURE;
    }

    static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }

    static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }
}
