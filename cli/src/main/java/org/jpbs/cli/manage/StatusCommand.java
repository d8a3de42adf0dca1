package org.jpbs.cli.manage;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.OutputFormatOption;
import org.jpbs.cli.commands.Renderer.Column;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.client.http.Query;
import org.jpbs.client.progress.Units;
import org.jpbs.client.remote.PbsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code jpbs status}: the datastore's storage usage ({@code GET .../status}), as
 * {@code proxmox-backup-client status}: total, used and avail, the last two with their share of
 * the total.
 */
@Command(name = "status", description = "Show the storage usage of the datastore on a server.")
public final class StatusCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @Mixin
    RepositoryOptions repo;

    @Mixin
    OutputFormatOption output;

    private final CliContext ctx;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public StatusCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        try (PbsClient pbs = repo.serverClient(ctx, "status")) {
            JsonNode data = pbs.get(pbs.datastorePath() + "/status", Query.of());
            long total = data.path("total").asLong(0);
            output.renderer(ctx).object(data, List.of(
                    new Column("total", s -> Units.bytes(total)),
                    new Column("used", s -> share(s.path("used").asLong(0), total)),
                    new Column("avail", s -> share(s.path("avail").asLong(0), total))));
        }
        return 0;
    }

    private static String share(long v, long total) {
        return total <= 0 ? Units.bytes(v) : String.format(Locale.ROOT, "%s (%.2f%%)", Units.bytes(v), v * 100.0 / total);
    }
}
