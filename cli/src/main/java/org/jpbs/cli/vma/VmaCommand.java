package org.jpbs.cli.vma;

import java.util.concurrent.Callable;
import org.jpbs.cli.commands.HelpOption;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code jpbs vma}: VMA archives (vzdump's format); alone it prints its usage (exit 2). */
@Command(name = "vma", description = {"VMA archives (Proxmox VE vzdump): create, list, extract, verify, import, export.",
    "Import into and export from datastore snapshots. ARCHIVE may be - (stdin)",
    "and zstd-, gzip- or lzop-compressed (.vma.zst, .vma.gz, .vma.lzo)."},
        subcommands = {VmaCreateCommand.class, VmaListCommand.class, VmaConfigCommand.class, VmaExtractCommand.class,
            VmaVerifyCommand.class, VmaImportCommand.class, VmaExportCommand.class})
public final class VmaCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
