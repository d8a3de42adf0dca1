package org.jpbs.cli.commands;

import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.admin.ConfigDirOption;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreConfigStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs datastore remove NAME}: removes a datastore from {@code datastore.cfg}; its data
 * stays on disk (remove the directory yourself, or register it again with
 * {@code create NAME PATH --reuse}).
 */
@Command(name = "remove", description = {"Remove a datastore from datastore.cfg; its data is kept on disk."})
public final class DatastoreRemoveCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "NAME", description = "Datastore name.")
    String name;

    @Mixin
    ConfigDirOption configDir;

    @Mixin
    OutputOptions output;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public DatastoreRemoveCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        DatastoreConfigStore store = DatastoreConfigStore.open(configDir.resolve(ctx));
        DatastoreConfig[] removed = new DatastoreConfig[1];
        store.update(f -> {
            removed[0] = f.datastore(name).orElseThrow(() ->
                    new IllegalArgumentException("no such datastore '" + name + "' in " + store.file()));
            return f.withoutDatastore(name);
        });
        output.info(ctx, "removed datastore '" + name + "' from " + store.file() + "; its data at " + removed[0].path()
                + " is kept");
        return 0;
    }
}
