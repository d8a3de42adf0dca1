package org.jpbs.cli.commands;

import org.jpbs.cli.UsageException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.admin.ConfigDirOption;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreConfigFile;
import org.jpbs.datastore.config.DatastoreConfigStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs datastore update NAME [options] [--delete KEY]...}: changes properties of a
 * datastore in {@code datastore.cfg} — one locked read-modify-write, written atomically; the
 * other lines (comments, unknown keys) stay as they are. A running {@code jpbs serve} sees the
 * change on its next request. Nothing is written if any value is invalid.
 */
@Command(name = "update", description = {"Change a datastore's settings in datastore.cfg (e.g. its maintenance mode).",
    "A running server sees the change on its next request."})
public final class DatastoreUpdateCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "NAME", description = "Datastore name.")
    String name;

    @Mixin
    DatastoreOptions options;

    @Option(names = "--delete", paramLabel = "KEY", description = "Remove a property (repeatable), e.g. maintenance-mode, comment.")
    List<String> delete;

    @Mixin
    ConfigDirOption configDir;

    @Mixin
    OutputOptions output;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public DatastoreUpdateCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        Map<String, String> set = options.properties();
        List<String> del = delete == null ? List.of() : delete;
        if (set.isEmpty() && del.isEmpty()) {
            throw new IllegalArgumentException("nothing to change: give options to set or --delete KEY");
        }
        for (String k : del) {
            if (k.equals("path")) {
                throw new UsageException("--delete path: the path cannot be removed");
            }
            if (set.containsKey(k)) {
                throw new UsageException("--delete " + k + " and --" + k + " given together");
            }
        }
        DatastoreConfigStore store = DatastoreConfigStore.open(configDir.resolve(ctx));
        DatastoreConfigFile after = store.update(f -> {
            DatastoreConfigFile g = f;
            DatastoreConfig before = g.datastore(name).orElseThrow(() ->
                    new IllegalArgumentException("no such datastore '" + name + "' in " + store.file()));
            for (String k : del) {
                if (!before.properties().containsKey(k)) {
                    throw new IllegalArgumentException("--delete " + k + ": datastore '" + name + "' has no " + k);
                }
                g = g.withProperty(name, k, null);
            }
            for (Map.Entry<String, String> e : set.entrySet()) {
                g = g.withProperty(name, e.getKey(), e.getValue());
            }
            return g;
        });
        output.info(ctx, "updated datastore '" + name + "'" + after.datastore(name).flatMap(DatastoreConfig::maintenanceMode)
                .map(m -> " (maintenance mode " + m.format() + ")").orElse(""));
        return 0;
    }
}
