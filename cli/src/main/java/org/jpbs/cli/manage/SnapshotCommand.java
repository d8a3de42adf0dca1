package org.jpbs.cli.manage;

import java.util.concurrent.Callable;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.SnapshotFilesCommand;
import org.jpbs.cli.commands.SnapshotListCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code jpbs snapshot}: listing snapshots and their files; alone it prints its usage (exit 2). */
@Command(name = "snapshot", description = "List, inspect and manage snapshots (files, forget, notes, protection, log upload).",
        subcommands = {SnapshotListCommand.class, SnapshotFilesCommand.class,
            SnapshotForgetCommand.class, SnapshotNotesCommand.class,
            SnapshotProtectedCommand.class, SnapshotUploadLogCommand.class})
public final class SnapshotCommand implements Callable<Integer> {
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
