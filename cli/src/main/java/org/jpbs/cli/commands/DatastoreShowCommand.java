package org.jpbs.cli.commands;

import org.jpbs.cli.UsageException;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.admin.ConfigDirOption;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreConfigStore;
import org.jpbs.datastore.config.DatastoreTuning;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs datastore show NAME}: one datastore's properties as written in
 * {@code datastore.cfg}, then the effective tuning values (defaults included); with
 * {@code --output-format json} the properties as one object.
 */
@Command(name = "show", description = "Show one datastore's settings.")
public final class DatastoreShowCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "NAME", description = "Datastore name.")
    String name;

    @Mixin
    OutputFormatOption format;

    @Mixin
    ConfigDirOption configDir;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public DatastoreShowCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    static ObjectNode toJson(DatastoreConfig c) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("name", c.name());
        c.properties().forEach(o::put);
        return o;
    }

    @Override
    public Integer call() throws Exception {
        Renderer out = format.renderer(ctx);
        boolean json = !out.isText();
        DatastoreConfigStore store = DatastoreConfigStore.open(configDir.resolve(ctx));
        DatastoreConfig c = store.read().datastore(name).orElseThrow(() ->
                new IllegalArgumentException("no such datastore '" + name + "' in " + store.file()));
        if (json) {
            out.json(toJson(c));
            return 0;
        }
        ctx.out().println("name: " + c.name());
        c.properties().forEach((k, v) -> ctx.out().println(k + ": " + v));
        DatastoreTuning t = c.tuning();
        ctx.out().println("effective tuning: chunk-order=" + t.chunkOrder().text() + ", sync-level=" + t.syncLevel().text()
                + ", gc-atime-cutoff=" + t.gcAtimeCutoffMinutes() + ", gc-atime-safety-check=" + t.gcAtimeSafetyCheck()
                + ", gc-cache-capacity=" + t.gcCacheCapacity() + ", gc-chunk-metadata-prefetch=" + t.gcChunkMetadataPrefetch());
        return 0;
    }
}
