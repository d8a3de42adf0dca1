package org.jpbs.cli.admin;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code jpbs user token}: API token administration; alone it prints its usage (exit 2). */
@Command(name = "token", mixinStandardHelpOptions = true, description = "Manage API tokens.",
        subcommands = {TokenCreateCommand.class, TokenDeleteCommand.class})
public final class UserTokenCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
