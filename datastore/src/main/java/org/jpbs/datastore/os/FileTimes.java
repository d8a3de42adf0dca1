package org.jpbs.datastore.os;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

/**
 * Access-time updates that leave the modification time alone, as the chunk store and
 * garbage collection need them ({@code docs/formats.md#chunk-store-chunks}: "touch" = set atime to now
 * with {@code utimensat}, mtime untouched; {@code docs/gc.md#garbage-collection} marks chunks
 * this way).
 *
 * <p>Uses {@code utimensat(AT_FDCWD, path, {atime, {0, UTIME_OMIT}}, 0)} through the FFM API.
 * When native access is unavailable it falls back to
 * {@link BasicFileAttributeView#setTimes} with a {@code null} mtime, which the JDK implements
 * by re-reading the current mtime (a small race with concurrent writers; good enough for a
 * fallback). Thread-safe, no state.
 */
public final class FileTimes {
    private FileTimes() {}

    /** True if the FFM binding to libc works (false: the pure-Java fallback is used). */
    public static boolean nativeAvailable() {
        return Native.AVAILABLE;
    }

    /**
     * Sets the access time of {@code path} to now and leaves its modification time unchanged.
     * Follows symlinks.
     *
     * @throws java.nio.file.NoSuchFileException if the file does not exist
     * @throws IOException on any other failure (message names the path and the errno text)
     */
    public static void touchAtime(Path path) throws IOException {
        if (Native.AVAILABLE) {
            utimensat(path, 0, Native.UTIME_NOW);
        } else {
            Files.getFileAttributeView(path, BasicFileAttributeView.class)
                    .setTimes(null, FileTime.from(Instant.now()), null);
        }
    }

    /**
     * {@link #touchAtime} for a chunk that a garbage collection of <em>another process</em> may
     * be removing at the same moment: opens the file, sets the atime through the descriptor
     * ({@code futimens}), then checks that the touched inode is still the one at {@code path}.
     * GC removes a chunk by renaming it away first and checking its atime again (see
     * {@code SweepPhase}), so if this returns, either the touched file is still in place and the
     * GC sees the new atime after its rename (and puts the file back), or it is reported gone
     * here. Follows symlinks (as {@link #touchAtime}).
     *
     * @throws java.nio.file.NoSuchFileException if the file does not exist, or was removed or
     *                                           replaced while it was touched (the caller must
     *                                           treat the chunk as absent)
     * @throws IOException                       on any other failure
     */
    public static void touchAtimeInPlace(Path path) throws IOException {
        if (!Native.AVAILABLE || Native.FUTIMENS == null) {
            touchAtime(path);
            return;
        }
        int fd = Native.open(path, Native.O_RDONLY_CLOEXEC);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Native.captureSegment(arena);
            MemorySegment times = arena.allocate(ValueLayout.JAVA_LONG, 4);
            times.setAtIndex(ValueLayout.JAVA_LONG, 0, 0);
            times.setAtIndex(ValueLayout.JAVA_LONG, 1, Native.UTIME_NOW);
            times.setAtIndex(ValueLayout.JAVA_LONG, 2, 0);
            times.setAtIndex(ValueLayout.JAVA_LONG, 3, Native.UTIME_OMIT);
            int rc = (int) Native.FUTIMENS.invokeExact(capture, fd, times);
            if (rc != 0) {
                throw Native.error("futimens", path, Native.errno(capture));
            }
            MemorySegment buf = arena.allocate(Native.STATX_SIZE_BYTES, 8);
            MemorySegment empty = arena.allocateFrom("");
            rc = (int) Native.STATX.invokeExact(capture, fd, empty, Native.AT_EMPTY_PATH, Native.STATX_INO, buf);
            if (rc != 0) {
                throw Native.error("statx", path, Native.errno(capture));
            }
            long touched = buf.get(ValueLayout.JAVA_LONG, 32);
            MemorySegment cpath = arena.allocateFrom(path.toAbsolutePath().toString());
            rc = (int) Native.STATX.invokeExact(capture, Native.AT_FDCWD, cpath, 0, Native.STATX_INO, buf);
            if (rc != 0) {
                throw Native.error("statx", path, Native.errno(capture));
            }
            if (buf.get(ValueLayout.JAVA_LONG, 32) != touched) {
                throw new java.nio.file.NoSuchFileException(path.toString(), null,
                        "replaced or removed while its atime was updated");
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException(path + ": touch failed: " + t, t);
        } finally {
            try {
                int ignored = (int) Native.CLOSE.invokeExact(fd);
            } catch (Throwable t) {
                // closing a read-only descriptor cannot lose data
            }
        }
    }

    /**
     * Sets the access time of {@code path} to {@code atime} (nanosecond precision where the
     * file system has it) and leaves its modification time unchanged. Used by tests and by
     * tools that need to age chunks.
     *
     * @throws java.nio.file.NoSuchFileException if the file does not exist
     * @throws IOException on any other failure
     */
    public static void setAtime(Path path, Instant atime) throws IOException {
        if (Native.AVAILABLE) {
            utimensat(path, atime.getEpochSecond(), atime.getNano());
        } else {
            Files.getFileAttributeView(path, BasicFileAttributeView.class)
                    .setTimes(null, FileTime.from(atime), null);
        }
    }

    private static void utimensat(Path path, long atimeSec, long atimeNsec) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Native.captureSegment(arena);
            MemorySegment cpath = arena.allocateFrom(path.toAbsolutePath().toString());
            // struct timespec times[2] = { {atime}, {0, UTIME_OMIT} }: four longs on 64-bit Linux
            MemorySegment times = arena.allocate(ValueLayout.JAVA_LONG, 4);
            times.setAtIndex(ValueLayout.JAVA_LONG, 0, atimeSec);
            times.setAtIndex(ValueLayout.JAVA_LONG, 1, atimeNsec);
            times.setAtIndex(ValueLayout.JAVA_LONG, 2, 0);
            times.setAtIndex(ValueLayout.JAVA_LONG, 3, Native.UTIME_OMIT);
            int rc = (int) Native.UTIMENSAT.invokeExact(capture, Native.AT_FDCWD, cpath, times, 0);
            if (rc != 0) {
                throw Native.error("utimensat", path, Native.errno(capture));
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException(path + ": utimensat call failed: " + t, t);
        }
    }
}
