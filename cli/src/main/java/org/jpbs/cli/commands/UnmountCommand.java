package org.jpbs.cli.commands;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.mount.MountException;
import org.jpbs.cli.mount.Mounts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs unmount MOUNTPOINT} ({@code docs/pxar.md#mount}): unmounts a FUSE file system
 * (a {@code jpbs mount}) with {@code fusermount3 -u} and waits until it is gone; the
 * {@code jpbs mount} serving it then ends.
 */
@Command(name = "unmount", description = {"Unmount a 'jpbs mount' (as fusermount3 -u does) and wait until it is gone."})
public final class UnmountCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @Mixin
    OutputOptions output;

    @Parameters(index = "0", paramLabel = "MOUNTPOINT", description = "Where the archive is mounted.")
    Path mountpoint;

    private final CliContext ctx;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public UnmountCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        try {
            Mounts.unmount(mountpoint);
        } catch (MountException e) {
            throw e.badMountpoint() ? new UsageException(e.getMessage(), e) : e;
        }
        output.info(ctx, "unmounted " + mountpoint);
        return 0;
    }
}
