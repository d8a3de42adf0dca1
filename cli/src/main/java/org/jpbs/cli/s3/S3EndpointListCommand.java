package org.jpbs.cli.s3;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.admin.ConfigDirOption;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.OutputFormatOption;
import org.jpbs.cli.commands.Renderer;
import org.jpbs.cli.commands.TextTable;
import org.jpbs.s3.config.S3ConfigStore;
import org.jpbs.s3.config.S3EndpointConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code jpbs s3 endpoint list}: the endpoints as a table or, with {@code --output-format json},
 * as {@code [{"id", <properties>}]}; the secret key is never shown (as PBS).
 */
@Command(name = "list", description = "List the S3 endpoints of s3.cfg (without secret keys).")
public final class S3EndpointListCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    OutputFormatOption format;

    @Mixin
    ConfigDirOption configDir;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public S3EndpointListCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        Renderer out = format.renderer(ctx);
        List<S3EndpointConfig> all = S3ConfigStore.open(configDir.resolve(ctx)).list();
        if (!out.isText()) {
            ArrayNode a = JSON.createArrayNode();
            for (S3EndpointConfig c : all) {
                ObjectNode o = a.addObject();
                o.put("id", c.id());
                for (Map.Entry<String, String> e : c.toPublicProperties().entrySet()) {
                    o.put(e.getKey(), e.getValue());
                }
            }
            out.json(a);
            return 0;
        }
        TextTable t = new TextTable(List.of("ID", "ENDPOINT", "PORT", "REGION", "PATH-STYLE", "ACCESS-KEY", "FINGERPRINT"));
        for (S3EndpointConfig c : all) {
            t.add(List.of(c.id(), c.endpoint(), Integer.toString(c.effectivePort()), c.effectiveRegion(),
                    Boolean.toString(c.pathStyle()), c.accessKey(), c.fingerprint() == null ? "-" : c.fingerprint()));
        }
        t.print(ctx.out());
        return 0;
    }
}
