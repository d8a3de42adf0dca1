package org.jpbs.cli.vma;

import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.vma.VmaReader;
import org.jpbs.vma.format.VmaConfig;
import org.jpbs.vma.format.VmaHeader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jpbs vma config ARCHIVE [-c NAME]}: the raw content of one config, as {@code vma config}. */
@Command(name = "config", description = "Print the content of a config stored in an archive.")
public final class VmaConfigCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Option(names = {"-c", "--config"}, paramLabel = "NAME", defaultValue = "qemu-server.conf",
            description = "Config name (default: ${DEFAULT-VALUE}).")
    String name;

    @Parameters(index = "0", paramLabel = "ARCHIVE", description = "The archive, or - for standard input.")
    String archive;

    /** Creates the command; {@code ctx} gives its streams. */
    public VmaConfigCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        try (VmaReader r = ArchiveInput.open(archive)) {
            VmaHeader h = r.header();
            VmaConfig c = h.config(name).orElseThrow(() -> new IllegalArgumentException("config '" + name
                    + "' is not in " + r.resource() + " (it has: "
                    + (h.configs().isEmpty() ? "no configs" : h.configs().stream().map(VmaConfig::name)
                            .collect(Collectors.joining(", "))) + ")"));
            ctx.rawOut().write(c.data());
            ctx.rawOut().flush();
        }
        return 0;
    }
}
