package org.jpbs.cli.vma;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.vma.VmaReader;
import org.jpbs.vma.restore.VmaRestore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs vma verify ARCHIVE [-v]}: reads the whole archive and makes every check of the
 * format (header and extent MD5s, uuids, block counts, duplicate and out-of-range clusters),
 * as {@code vma verify}. Like upstream it does not require every cluster to be present (a
 * restore does), and it cannot detect damaged image data: VMA has no data checksums.
 */
@Command(name = "verify", description = {"Check every header, extent and cluster entry of an archive.", "",
    "Header and extent MD5s, uuids, block counts, duplicate or out-of-range",
    "clusters. VMA has no checksums of the image data itself."})
public final class VmaVerifyCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Option(names = {"-v", "--verbose"}, description = "Print the listing first and a summary at the end.")
    boolean verbose;

    @Parameters(index = "0", paramLabel = "ARCHIVE", description = "The archive, or - for standard input.")
    String archive;

    /** Creates the command; {@code ctx} gives its streams. */
    public VmaVerifyCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        try (VmaReader r = ArchiveInput.open(archive)) {
            if (verbose) {
                VmaListing.print(r.header(), ctx.out());
            }
            VmaRestore.Result res = new VmaRestore().run(r, Map.of(), false);
            if (verbose) {
                ctx.out().println(String.format(Locale.ROOT, "verified %s: %d extents, %d bytes, %.2f s", r.resource(),
                        res.extents(), res.archiveBytes(), res.nanos() / 1e9));
                ctx.out().flush();
            }
        }
        return 0;
    }
}
