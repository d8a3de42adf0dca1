package org.jpbs.cli.s3;

import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.admin.ConfigDirOption;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.OutputOptions;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.s3.config.S3BackendConfig;
import org.jpbs.s3.config.S3ConfigStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code jpbs s3 endpoint remove ID}: refused while a datastore's backend uses it. */
@Command(name = "remove", description = "Remove an S3 endpoint from s3.cfg (refused while a datastore uses it).")
public final class S3EndpointRemoveCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "ID", description = "Endpoint id.")
    String id;

    @Mixin
    ConfigDirOption configDir;

    @Mixin
    OutputOptions output;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public S3EndpointRemoveCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        var dir = configDir.resolve(ctx);
        for (DatastoreConfig d : DatastoreConfigStore.open(dir).read().datastores()) {
            String backend = d.property("backend").orElse(null);
            if (backend != null && id.equals(S3BackendConfig.parse(backend).client())) {
                throw new IllegalArgumentException("s3 endpoint '" + id + "' is in use by datastore '" + d.name() + "'");
            }
        }
        S3ConfigStore store = S3ConfigStore.open(dir);
        store.remove(id);
        output.info(ctx, "removed s3 endpoint '" + id + "' from " + store.file());
        return 0;
    }
}
