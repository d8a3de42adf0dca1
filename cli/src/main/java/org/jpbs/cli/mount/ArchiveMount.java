package org.jpbs.cli.mount;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.cryptomator.jfuse.api.Fuse;
import org.cryptomator.jfuse.api.FuseBuilder;
import org.cryptomator.jfuse.api.FuseMountFailedException;
import org.jpbs.client.mount.ArchiveTree;

/**
 * One read-only FUSE mount of an {@link ArchiveTree} ({@code docs/pxar.md#mount}): mounted by
 * {@link #mount}, served by libfuse3's loop on jfuse's threads until it is unmounted from
 * outside ({@code jpbs unmount}, {@code fusermount3 -u}) or {@link #close()}d.
 */
public final class ArchiveMount implements AutoCloseable {
    private final Fuse fuse;
    private final ArchiveTree tree;
    private final Path mountpoint;
    private volatile boolean closed;

    private ArchiveMount(Fuse fuse, ArchiveTree tree, Path mountpoint) {
        this.fuse = fuse;
        this.tree = tree;
        this.mountpoint = mountpoint;
    }

    /**
     * Mounts {@code tree} read-only at {@code mountpoint} (checked with
     * {@link Mounts#checkMountpoint} first) as file system {@code fsname}.
     *
     * @param warnings receives one line per path that failed to read (a missing or corrupt chunk)
     * @throws MountException if the mount point is wrong, /dev/fuse or libfuse3 is missing, or mounting fails
     */
    public static ArchiveMount mount(ArchiveTree tree, Path mountpoint, String fsname, Consumer<String> warnings)
            throws IOException {
        Path real = Mounts.checkMountpoint(mountpoint);
        Mounts.checkFuseDevice();
        Path lib = Mounts.libfuse3();
        FuseBuilder builder;
        Fuse fuse;
        try {
            builder = Fuse.builder();
            builder.setLibraryPath(lib.toString());
            fuse = builder.build(new ArchiveFuseOps(tree, builder.errno(), warnings));
        } catch (UnsatisfiedLinkError | UnsupportedOperationException e) {
            throw new MountException("cannot load libfuse3 " + lib + ": " + e.getMessage(), false);
        }
        try {
            // an archive never changes: the kernel may cache attributes, names and pages for long
            fuse.mount("jpbs", real, "-o", "ro,default_permissions,fsname=" + fsname.replace(',', '_') + ",subtype=jpbs",
                    "-o", "kernel_cache,attr_timeout=3600,entry_timeout=3600,negative_timeout=3600");
        } catch (FuseMountFailedException | IllegalArgumentException e) {
            closeQuietly(fuse);
            throw new MountException("cannot mount at " + mountpoint + ": " + e.getMessage(), false);
        }
        return new ArchiveMount(fuse, tree, real);
    }

    /** The mount point (its real path). */
    public Path mountpoint() {
        return mountpoint;
    }

    /**
     * Waits until the file system is unmounted from outside or {@link #close()}d (polling
     * {@code /proc/self/mounts}).
     */
    public void awaitUnmount() throws IOException, InterruptedException {
        while (!closed && Mounts.isMounted(mountpoint)) {
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    /** Unmounts (if still mounted), ends FUSE's loop and the tree's chunk reads. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(fuse);
        tree.close();
    }

    private static void closeQuietly(Fuse fuse) {
        try {
            fuse.close();
        } catch (Exception e) {
            // the loop did not end in time: the process is ending anyway
        }
    }
}
