package org.jpbs.cli.admin;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code jpbs acl}: access control list administration; alone it prints its usage (exit 2). */
@Command(name = "acl", mixinStandardHelpOptions = true, description = "Manage the access control list of a jpbs server.",
        subcommands = {AclUpdateCommand.class})
public final class AclCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
