package org.jpbs.cli.manage;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.cli.commands.Snapshots;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.core.api.BackupGroupRef;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs change-owner GROUP NEW-OWNER [--ns NS]}: {@code POST .../change-owner} with
 * {@code backup-type}, {@code backup-id}, {@code new-owner} and {@code ns}, as the PBS client.
 */
@Command(name = "change-owner", description = "Change the owner of a backup group on a server.")
public final class ChangeOwnerCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @Mixin
    RepositoryOptions repo;

    @Parameters(index = "0", paramLabel = "GROUP", description = "The group, e.g. vm/100.")
    String group;

    @Parameters(index = "1", paramLabel = "NEW-OWNER", description = "The new owner: user@realm or user@realm!token.")
    String newOwner;

    @Option(names = "--ns", paramLabel = "NS", description = "Namespace of the group (default: root).")
    String ns;

    private final CliContext ctx;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public ChangeOwnerCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        BackupGroupRef g;
        try {
            g = BackupGroupRef.parse(Snapshots.namespace(ns), group);
        } catch (IllegalArgumentException e) {
            throw new UsageException("GROUP: " + e.getMessage(), e);
        }
        if (!newOwner.matches("[^\\s@!]+@[A-Za-z0-9_][A-Za-z0-9._-]*(![A-Za-z0-9_][A-Za-z0-9._-]*)?")) {
            throw new UsageException("NEW-OWNER: '" + newOwner + "' is not user@realm or user@realm!token");
        }
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("backup-type", g.type().text());
        body.put("backup-id", g.id());
        body.put("new-owner", newOwner);
        if (!g.ns().isRoot()) {
            body.put("ns", g.ns().toString());
        }
        try (PbsClient pbs = repo.serverClient(ctx, "change-owner")) {
            pbs.post(pbs.datastorePath() + "/change-owner", body);
        }
        return 0;
    }
}
