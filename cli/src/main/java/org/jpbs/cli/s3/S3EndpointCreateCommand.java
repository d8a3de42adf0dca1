package org.jpbs.cli.s3;

import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.admin.ConfigDirOption;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.OutputOptions;
import org.jpbs.s3.config.S3ConfigStore;
import org.jpbs.s3.config.S3EndpointConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code jpbs s3 endpoint create ID --endpoint HOST --access-key K --secret-key S [options]}. */
@Command(name = "create", description = "Add an S3 endpoint to s3.cfg.")
public final class S3EndpointCreateCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "ID", description = "Endpoint id (3-32 characters).")
    String id;

    @Mixin
    EndpointOptions options;

    @Mixin
    ConfigDirOption configDir;

    @Mixin
    OutputOptions output;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public S3EndpointCreateCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        S3EndpointConfig c;
        try {
            c = S3EndpointConfig.parse(id, options.given());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
        S3ConfigStore store = S3ConfigStore.open(configDir.resolve(ctx));
        store.create(c);
        output.info(ctx, "created s3 endpoint '" + id + "' in " + store.file());
        return 0;
    }
}
