package org.jpbs.cli.s3;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jpbs s3 endpoint update ID [options] [--delete KEY]...}: changes the given properties. */
@Command(name = "update", description = "Change properties of an S3 endpoint in s3.cfg.")
public final class S3EndpointUpdateCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "ID", description = "Endpoint id.")
    String id;

    @Mixin
    EndpointOptions options;

    @Option(names = "--delete", paramLabel = "KEY", split = ",",
            description = "Remove optional properties (port, region, fingerprint, path-style, rate limits, provider-quirks).")
    List<String> delete;

    @Mixin
    ConfigDirOption configDir;

    @Mixin
    OutputOptions output;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public S3EndpointUpdateCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        S3ConfigStore store = S3ConfigStore.open(configDir.resolve(ctx));
        S3EndpointConfig old = store.get(id).orElseThrow(() ->
                new IllegalArgumentException("s3 endpoint '" + id + "' does not exist"));
        Map<String, String> p = new LinkedHashMap<>(old.toProperties());
        if (delete != null) {
            for (String k : delete) {
                if (!S3EndpointConfig.keys().contains(k) || List.of("endpoint", "access-key", "secret-key").contains(k)) {
                    throw new UsageException("--delete: '" + k + "' is not an optional s3 endpoint property");
                }
                p.remove(k);
            }
        }
        p.putAll(options.given());
        S3EndpointConfig c;
        try {
            c = S3EndpointConfig.parse(id, p);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
        store.replace(c);
        output.info(ctx, "updated s3 endpoint '" + id + "' in " + store.file());
        return 0;
    }
}
