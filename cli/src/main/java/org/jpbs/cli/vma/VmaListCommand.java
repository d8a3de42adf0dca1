package org.jpbs.cli.vma;

import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.vma.VmaReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code jpbs vma list ARCHIVE}: configs, devices and creation time, as {@code vma list}. Reads the header only. */
@Command(name = "list", description = {"List the configs and devices of an archive.", "",
    "Reads the header only. Prints CFG: size: N name: NAME, DEV: dev_id=N",
    "size: BYTES devname: NAME, and CTIME: TIME last."})
public final class VmaListCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "ARCHIVE", description = "The archive, or - for standard input.")
    String archive;

    /** Creates the command; {@code ctx} gives its streams. */
    public VmaListCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        try (VmaReader r = ArchiveInput.open(archive)) {
            VmaListing.print(r.header(), ctx.out());
        }
        return 0;
    }
}
