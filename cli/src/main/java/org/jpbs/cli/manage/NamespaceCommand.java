package org.jpbs.cli.manage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.OutputFormatOption;
import org.jpbs.cli.commands.Renderer;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.cli.commands.Snapshots;
import org.jpbs.client.http.Query;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.core.api.BackupNamespace;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs namespace list|create|delete}, as {@code proxmox-backup-client namespace}:
 * {@code GET .../namespace?parent=&max-depth=}, {@code POST .../namespace {"parent","name"}},
 * {@code DELETE .../namespace?ns=[&delete-groups=]}.
 */
@Command(name = "namespace", description = "List, create and delete namespaces on a server.",
        subcommands = {NamespaceCommand.ListNs.class, NamespaceCommand.Create.class, NamespaceCommand.Delete.class})
public final class NamespaceCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    private static BackupNamespace parse(String text) {
        return Snapshots.namespace(text);
    }

    /** {@code jpbs namespace list [NS] [--max-depth N]}: the namespaces below NS, one a line (not the root). */
    @Command(name = "list", description = "List the namespaces below NS (default: all).")
    public static final class ListNs implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @Mixin
        RepositoryOptions repo;

        @Mixin
        OutputFormatOption output;

        @Parameters(index = "0", arity = "0..1", paramLabel = "NS", description = "The parent namespace (default: root).")
        String ns;

        @Option(names = "--max-depth", paramLabel = "N", description = "Recursion depth (0-7; default: all).")
        Integer maxDepth;

        private final CliContext ctx;

        /** Creates the command. */
        public ListNs(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            if (maxDepth != null && (maxDepth < 0 || maxDepth > BackupNamespace.MAX_DEPTH)) {
                throw new UsageException("--max-depth must be 0.." + BackupNamespace.MAX_DEPTH + ", got " + maxDepth);
            }
            BackupNamespace parent = parse(ns);
            Renderer r = output.renderer(ctx);
            try (PbsClient pbs = repo.serverClient(ctx, "namespace list")) {
                JsonNode data = pbs.get(pbs.datastorePath() + "/namespace",
                        Query.of().add("parent", Api.ns(parent)).add("max-depth", maxDepth));
                if (!r.isText()) {
                    r.json(data);
                    return 0;
                }
                for (JsonNode e : data) {
                    String n = e.path("ns").asText("");
                    if (n.isEmpty()) {
                        continue;
                    }
                    String comment = e.path("comment").asText(null);
                    ctx.out().println(comment == null ? n : n + " (" + comment + ")");
                }
                ctx.out().flush();
            }
            return 0;
        }
    }

    /** {@code jpbs namespace create NS}: creates NS; its parent must exist. */
    @Command(name = "create", description = "Create namespace NS (its parent must exist).")
    public static final class Create implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @Mixin
        RepositoryOptions repo;

        @Parameters(index = "0", paramLabel = "NS", description = "The namespace, e.g. prod or prod/web.")
        String ns;

        private final CliContext ctx;

        /** Creates the command. */
        public Create(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            BackupNamespace n = parse(ns);
            if (n.isRoot()) {
                throw new UsageException("NS: the root namespace is always present");
            }
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            body.put("parent", n.parent().toString());
            body.put("name", n.components().getLast());
            try (PbsClient pbs = repo.serverClient(ctx, "namespace create")) {
                pbs.post(pbs.datastorePath() + "/namespace", body);
            }
            return 0;
        }
    }

    /** {@code jpbs namespace delete NS [--delete-groups]}. */
    @Command(name = "delete", description = "Delete namespace NS (refused if it holds groups, unless --delete-groups).")
    public static final class Delete implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @Mixin
        RepositoryOptions repo;

        @Parameters(index = "0", paramLabel = "NS", description = "The namespace.")
        String ns;

        @Option(names = "--delete-groups", description = "Also remove the groups in it (protected snapshots stay).")
        boolean deleteGroups;

        private final CliContext ctx;

        /** Creates the command. */
        public Delete(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            BackupNamespace n = parse(ns);
            if (n.isRoot()) {
                throw new UsageException("NS: the root namespace cannot be deleted");
            }
            try (PbsClient pbs = repo.serverClient(ctx, "namespace delete")) {
                pbs.delete(pbs.datastorePath() + "/namespace",
                        Query.of().add("ns", n.toString()).add("delete-groups", deleteGroups ? "true" : null));
            }
            return 0;
        }
    }
}
