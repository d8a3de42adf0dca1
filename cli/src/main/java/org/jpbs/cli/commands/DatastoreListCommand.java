package org.jpbs.cli.commands;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.List;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.admin.ConfigDirOption;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreConfigStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jpbs datastore list}: the datastores of {@code datastore.cfg} as a table (name, path,
 * maintenance mode, comment) or, with {@code --output-format json}, as
 * {@code [{"name","path",<other properties>}]}.
 */
@Command(name = "list", description = "List the datastores of datastore.cfg.")
public final class DatastoreListCommand implements Callable<Integer> {
    static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    OutputFormatOption format;

    @Mixin
    ConfigDirOption configDir;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public DatastoreListCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        Renderer out = format.renderer(ctx);
        boolean json = !out.isText();
        List<DatastoreConfig> all = DatastoreConfigStore.open(configDir.resolve(ctx)).read().datastores();
        if (json) {
            ArrayNode a = JSON.createArrayNode();
            all.forEach(c -> a.add(DatastoreShowCommand.toJson(c)));
            out.json(a);
            return 0;
        }
        TextTable t = new TextTable(List.of("NAME", "PATH", "MAINTENANCE", "COMMENT"));
        for (DatastoreConfig c : all) {
            t.add(List.of(c.name(), c.path().toString(), c.maintenanceMode().map(m -> m.format()).orElse("-"),
                    c.comment().orElse("")));
        }
        t.print(ctx.out());
        return 0;
    }
}
