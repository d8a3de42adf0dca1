package org.jpbs.datastore.os;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A BSD {@code flock(2)} lock on one open descriptor of a directory (or file), through the FFM
 * API: the lock PBS 3.x takes on backup group and snapshot directories ({@code docs/gc.md#prune}, {@code docs/gc.md#verify}; {@code docs/protocol.md#backup-upgrade} step 6, {@code docs/protocol.md#reader-session}).
 *
 * <p>Why {@code flock} and not {@code fcntl} here: a directory can only be opened read-only, and
 * an {@code fcntl} write lock needs a descriptor open for writing; PBS itself uses {@code flock},
 * so only {@code flock} excludes a real PBS working on the same datastore; and a {@code flock}
 * belongs to the open file description, not the process, so two locks taken through two
 * descriptors in one JVM conflict exactly like locks of two processes, and closing some other
 * descriptor of the same directory does not drop the lock (both are {@code fcntl} pitfalls).
 * The kernel releases the lock when the descriptor is closed, also when the process dies.
 *
 * <p>Not thread-safe; one owner per instance. Only usable when {@link #available()}.
 */
public final class FlockFile implements AutoCloseable {
    private final Path path;
    private final int fd;
    private boolean closed;

    private FlockFile(Path path, int fd) {
        this.path = path;
        this.fd = fd;
    }

    /** True if the FFM binding works. */
    public static boolean available() {
        return Native.AVAILABLE && Native.FLOCK != null;
    }

    /**
     * Opens {@code path} read-only ({@code O_RDONLY | O_CLOEXEC}, following symlinks, never creating it).
     *
     * @throws java.nio.file.NoSuchFileException if it does not exist
     * @throws IOException                       on other errors (the message names the path)
     */
    public static FlockFile open(Path path) throws IOException {
        return new FlockFile(path, Native.open(path, Native.O_RDONLY_CLOEXEC));
    }

    /**
     * Tries to take the lock without waiting ({@code LOCK_NB}); a held lock of this descriptor is
     * converted (shared to exclusive or back).
     *
     * @param exclusive {@code LOCK_EX} if true, else {@code LOCK_SH}
     * @return true if taken; false if another descriptor (any process) holds a conflicting lock
     * @throws IOException on other errors
     */
    public boolean tryLock(boolean exclusive) throws IOException {
        if (closed) {
            throw new IOException(path + ": lock already closed");
        }
        int op = (exclusive ? Native.LOCK_EX : Native.LOCK_SH) | Native.LOCK_NB;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Native.captureSegment(arena);
            while (true) {
                int rc = (int) Native.FLOCK.invokeExact(capture, fd, op);
                if (rc == 0) {
                    return true;
                }
                int errno = Native.errno(capture);
                if (errno == Native.EINTR) {
                    continue;
                }
                if (errno == Native.EAGAIN) {
                    return false;
                }
                throw Native.error("flock", path, errno);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException(path + ": flock failed: " + t, t);
        }
    }

    /** The locked path. */
    public Path path() {
        return path;
    }

    /** Closes the descriptor, which releases the lock. Idempotent. */
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
