package org.jpbs.cli.s3;

import java.util.concurrent.Callable;
import org.jpbs.cli.commands.HelpOption;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code jpbs s3}: S3 object storage; alone it prints its usage (exit 2). */
@Command(name = "s3", description = "S3-compatible object storage for datastores (s3.cfg).",
        subcommands = {S3Command.Endpoint.class})
public final class S3Command implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** {@code jpbs s3 endpoint}: alone it prints its usage (exit 2). */
    @Command(name = "endpoint", description = "Manage the S3 endpoints of s3.cfg.",
            subcommands = {S3EndpointCreateCommand.class, S3EndpointListCommand.class, S3EndpointUpdateCommand.class,
                S3EndpointRemoveCommand.class})
    public static final class Endpoint implements Callable<Integer> {
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
}
