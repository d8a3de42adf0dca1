package org.jpbs.datastore.os;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;

/**
 * A POSIX record lock ({@code fcntl(F_SETLK)}, whole file) on one open descriptor, through the
 * FFM API. Unlike {@link java.nio.channels.FileLock} it can convert a held lock in place: a
 * process holding a read lock asks for a write lock and the kernel either converts it
 * atomically or refuses with {@code EAGAIN}, keeping the read lock; a write lock is downgraded
 * to a read lock without ever being released. That is what garbage collection needs when
 * backup writers of the same process hold the datastore lock shared ({@code docs/gc.md#why-a-backup-running-next-to-gc-never-loses-a-chunk}: PBS "upgrades" its shared lock).
 *
 * <p>POSIX locks belong to the process: closing any descriptor of the file drops them all.
 * Only {@link org.jpbs.datastore.lock.DatastoreLock} should use this, with one instance per
 * file. Not thread-safe; callers synchronize. Only available when {@link #available()}.
 */
public final class PosixLockFile implements AutoCloseable {
    /** Requested lock state. */
    public enum Mode { UNLOCKED, SHARED, EXCLUSIVE }

    private final Path path;
    private final int fd;
    private boolean closed;

    private PosixLockFile(Path path, int fd) {
        this.path = path;
        this.fd = fd;
    }

    /** True if the FFM binding works (else use {@link java.nio.channels.FileLock}). */
    public static boolean available() {
        return Native.AVAILABLE;
    }

    /**
     * Opens (creating it, mode 0644) the lock file read-write; if that is refused and
     * {@code readOnlyOk}, opens it read-only (enough for a shared lock).
     *
     * @throws AccessDeniedException if it cannot be opened
     * @throws IOException           on other errors (message names the file)
     */
    public static PosixLockFile open(Path path, boolean readOnlyOk) throws IOException {
        try {
            return new PosixLockFile(path, openFd(path, Native.O_RDWR | Native.O_CREAT | Native.O_RDONLY_CLOEXEC));
        } catch (AccessDeniedException e) {
            if (!readOnlyOk) {
                throw e;
            }
            return new PosixLockFile(path, openFd(path, Native.O_RDONLY_CLOEXEC));
        }
    }

    private static int openFd(Path path, int flags) throws IOException {
        return Native.open(path, flags);
    }

    /**
     * Sets this process's lock on the whole file to {@code mode} without waiting.
     *
     * @return true if set; false if another process holds a conflicting lock (the previous
     *         state of this process's lock is then unchanged)
     * @throws IOException on other errors, e.g. a write lock on a read-only descriptor
     */
    public boolean trySet(Mode mode) throws IOException {
        if (closed) {
            throw new IOException(path + ": lock file already closed");
        }
        short type = switch (mode) {
            case UNLOCKED -> Native.F_UNLCK;
            case SHARED -> Native.F_RDLCK;
            case EXCLUSIVE -> Native.F_WRLCK;
        };
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Native.captureSegment(arena);
            // struct flock { short l_type; short l_whence; off_t l_start; off_t l_len; pid_t l_pid; }
            MemorySegment fl = arena.allocate(Native.FLOCK_SIZE_BYTES, 8);
            fl.set(ValueLayout.JAVA_SHORT, 0, type);
            fl.set(ValueLayout.JAVA_SHORT, 2, (short) 0); // SEEK_SET
            fl.set(ValueLayout.JAVA_LONG, 8, 0L);         // l_start
            fl.set(ValueLayout.JAVA_LONG, 16, 0L);        // l_len 0 = to the end, whatever the size
            while (true) {
                int rc = (int) Native.FCNTL_LOCK.invokeExact(capture, fd, Native.F_SETLK, fl);
                if (rc == 0) {
                    return true;
                }
                int errno = Native.errno(capture);
                if (errno == Native.EINTR) {
                    continue;
                }
                if (errno == Native.EAGAIN || errno == Native.EACCES) {
                    return false;
                }
                throw Native.error("fcntl(F_SETLK)", path, errno);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException(path + ": fcntl failed: " + t, t);
        }
    }

    /** Closes the descriptor, which drops every POSIX lock this process has on the file. Idempotent. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            int ignored = (int) Native.CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw new IOException(path + ": close failed: " + t, t);
        }
    }
}
