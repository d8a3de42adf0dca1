package org.jpbs.datastore.os;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * Durability helpers: fsync of a file or directory, and {@code syncfs} of a whole file
 * system (the datastore {@code sync-level=filesystem} of {@code docs/formats.md#chunk-store-chunks} and
 * {@code docs/datastore-config.md#datastorecfg}: PBS calls {@code syncfs} once at the end of a backup).
 */
public final class FsSync {
    private static final System.Logger LOG = System.getLogger(FsSync.class.getName());

    private FsSync() {}

    /**
     * fsync of a directory (makes renames and creations inside it durable). On Linux a
     * directory can be opened read-only and forced.
     *
     * @throws IOException if the directory cannot be opened or synced
     */
    public static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    /**
     * Best-effort {@code syncfs(2)} of the file system holding {@code path}: opens the path
     * read-only through FFM, calls {@code syncfs} and closes it. Without native access it runs
     * the {@code sync} command instead (syncs every file system). Failures are logged at
     * WARNING and otherwise ignored: this is a durability hint, never a correctness condition.
     */
    public static void syncFilesystem(Path path) {
        if (Native.AVAILABLE) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment capture = Native.captureSegment(arena);
                MemorySegment cpath = arena.allocateFrom(path.toAbsolutePath().toString());
                int fd = (int) Native.OPEN.invokeExact(capture, cpath, Native.O_RDONLY_CLOEXEC, 0);
                if (fd < 0) {
                    LOG.log(System.Logger.Level.WARNING, Native.error("open", path, Native.errno(capture)).getMessage());
                    return;
                }
                try {
                    int rc = (int) Native.SYNCFS.invokeExact(capture, fd);
                    if (rc != 0) {
                        LOG.log(System.Logger.Level.WARNING,
                                Native.error("syncfs", path, Native.errno(capture)).getMessage());
                    }
                } finally {
                    int ignored = (int) Native.CLOSE.invokeExact(fd);
                }
                return;
            } catch (Throwable t) {
                LOG.log(System.Logger.Level.WARNING, "syncfs of " + path + " failed, running sync: " + t);
            }
        }
        try {
            Process p = new ProcessBuilder("sync").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                LOG.log(System.Logger.Level.WARNING, "sync did not finish within 10 minutes");
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "sync failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
