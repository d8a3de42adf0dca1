package org.jpbs.cli.commands;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code jpbs datastore}: the datastore management commands; alone it prints its usage (exit 2). */
@Command(name = "datastore", description = "Manage local datastores and datastore.cfg.",
        subcommands = {DatastoreCreateCommand.class, DatastoreListCommand.class, DatastoreShowCommand.class,
            DatastoreUpdateCommand.class, DatastoreRemoveCommand.class})
public final class DatastoreCommand implements Callable<Integer> {
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
