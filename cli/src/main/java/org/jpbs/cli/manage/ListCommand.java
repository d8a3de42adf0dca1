package org.jpbs.cli.manage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.OutputFormatOption;
import org.jpbs.cli.commands.Renderer;
import org.jpbs.cli.commands.Renderer.Column;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.cli.commands.Snapshots;
import org.jpbs.client.http.Query;
import org.jpbs.client.remote.PbsClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jpbs list [--ns NS]}: the backup groups of a namespace ({@code GET .../groups}), as
 * {@code proxmox-backup-client list}: columns group, last snapshot, backup-count, files; sorted
 * by type and id.
 */
@Command(name = "list", description = "List the backup groups of a namespace on a server.")
public final class ListCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @Mixin
    RepositoryOptions repo;

    @Mixin
    OutputFormatOption output;

    @Option(names = "--ns", paramLabel = "NS", description = "Namespace (default: root).")
    String ns;

    private final CliContext ctx;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public ListCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        Renderer r = output.renderer(ctx);
        String n = Api.ns(Snapshots.namespace(ns));
        try (PbsClient pbs = repo.serverClient(ctx, "list")) {
            JsonNode data = pbs.get(pbs.datastorePath() + "/groups", Query.of().add("ns", n));
            List<JsonNode> sorted = new ArrayList<>();
            data.forEach(sorted::add);
            sorted.sort(Comparator.comparing((JsonNode g) -> g.path("backup-type").asText())
                    .thenComparing(g -> g.path("backup-id").asText()));
            ArrayNode out = ((ArrayNode) data).removeAll();
            out.addAll(sorted);
            r.table(out, List.of(new Column("group", Api::groupPath),
                    new Column("last snapshot", g -> Api.snapshotPath(g, "last-backup")),
                    Column.field("backup-count", "backup-count"),
                    new Column("files", g -> Api.files(g.path("files")))));
        }
        return 0;
    }
}
