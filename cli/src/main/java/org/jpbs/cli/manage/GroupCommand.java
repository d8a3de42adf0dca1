package org.jpbs.cli.manage;

import java.util.concurrent.Callable;
import org.jpbs.cli.commands.HelpOption;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code jpbs group}: whole backup groups (as the PBS client's {@code group}); alone it prints its usage (exit 2). */
@Command(name = "group", description = "Manage whole backup groups (forget).", subcommands = {GroupForgetCommand.class})
public final class GroupCommand implements Callable<Integer> {
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
