package org.jpbs.cli.admin;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code jpbs user}: server user administration; alone it prints its usage (exit 2). */
@Command(name = "user", mixinStandardHelpOptions = true, description = "Manage the users and API tokens of a jpbs server.",
        subcommands = {UserAddCommand.class, UserDeleteCommand.class, UserTokenCommand.class})
public final class UserCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
