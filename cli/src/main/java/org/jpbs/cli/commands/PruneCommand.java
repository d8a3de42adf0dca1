package org.jpbs.cli.commands;

import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.prune.PruneDecision;
import org.jpbs.datastore.prune.PruneMark;
import org.jpbs.datastore.prune.PruneOptions;
import org.jpbs.datastore.prune.Pruner;
import org.jpbs.datastore.snapshot.Datastore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs prune GROUP --keep-... [--dry-run]}: removes the snapshots of a group that the keep
 * options do not keep ({@code docs/gc.md#prune}; periods in the local time zone).
 * Prints a table of every snapshot, oldest first, with its action and the rule that kept it;
 * removal failures are warnings, and the exit status is 1 if any snapshot to remove is left.
 * Without any keep option everything is kept.
 */
@Command(name = "prune", sortOptions = false,
        description = "Remove the snapshots of GROUP that the --keep-* options do not keep.")
public final class PruneCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    RepositoryOptions repo;

    @Mixin
    OutputOptions output;

    @Parameters(index = "0", paramLabel = "GROUP", description = "The group, e.g. vm/100.")
    String group;

    @Option(names = "--ns", paramLabel = "NS", description = "Namespace of the group (default: root).")
    String ns;

    @Option(names = "--keep-last", paramLabel = "N", description = "Keep the newest N snapshots.")
    Integer keepLast;

    @Option(names = "--keep-hourly", paramLabel = "N", description = "Keep the newest snapshot of each of the last N hours with snapshots.")
    Integer keepHourly;

    @Option(names = "--keep-daily", paramLabel = "N", description = "Keep the newest snapshot of each of the last N days with snapshots.")
    Integer keepDaily;

    @Option(names = "--keep-weekly", paramLabel = "N", description = "Keep the newest snapshot of each of the last N ISO weeks with snapshots.")
    Integer keepWeekly;

    @Option(names = "--keep-monthly", paramLabel = "N", description = "Keep the newest snapshot of each of the last N months with snapshots.")
    Integer keepMonthly;

    @Option(names = "--keep-yearly", paramLabel = "N", description = "Keep the newest snapshot of each of the last N years with snapshots.")
    Integer keepYearly;

    @Option(names = "--dry-run", description = "Only show what would be kept and removed.")
    boolean dryRun;

    @Mixin
    OutputFormatOption format;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public PruneCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        format.format(ctx); // a bad --output-format is a usage error before anything runs
        PruneOptions opts;
        try {
            opts = new PruneOptions(keepLast, keepHourly, keepDaily, keepWeekly, keepMonthly, keepYearly);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--" + e.getMessage(), e); // "--keep-last must be at least 1, got 0"
        }
        BackupGroupRef g = Snapshots.group(Snapshots.namespace(ns), group);
        if (repo.isRemote(ctx)) {
            try (org.jpbs.client.remote.PbsClient pbs = repo.client(ctx)) {
                return RemoteJobs.prune(ctx, pbs, g, opts, dryRun, format, output);
            }
        }
        Datastore ds = repo.open(ctx, false, Operation.WRITE);
        if (!g.ns().isRoot() && !ds.namespaceExists(g.ns())) {
            throw new IllegalArgumentException("--ns: namespace '" + g.ns() + "' not found in " + ds.root());
        }
        if (ds.listSnapshots(g).isEmpty()) {
            throw new IllegalArgumentException("group " + Snapshots.describe(g) + " has no snapshots");
        }
        output.info(ctx, opts.keepsSomething() ? "retention options: " + opts.describe()
                : "No prune selection - keeping all files.");
        Pruner.Result r = Pruner.prune(ds, g, opts, dryRun, ZoneId.systemDefault());
        Renderer out = format.renderer(ctx);
        if (!out.isText()) {
            // the API's prune list: backup-type, backup-id, backup-time, keep, protected
            var arr = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
            for (PruneDecision d : r.decisions()) {
                arr.addObject().put("backup-type", d.snapshot().group().type().text())
                        .put("backup-id", d.snapshot().group().id()).put("backup-time", d.snapshot().time())
                        .put("keep", d.mark().keeps()).put("protected", d.mark() == PruneMark.PROTECTED);
            }
            out.json(arr);
        }
        TextTable t = new TextTable(List.of("snapshot", "action", "reason"));
        for (PruneDecision d : r.decisions()) {
            String action = d.mark() == PruneMark.REMOVE ? (dryRun ? "would remove" : "remove") : d.mark().text();
            t.add(List.of(d.snapshot().toString(), action, d.reason()));
        }
        if (out.isText()) {
            t.print(ctx.out());
        }
        for (String w : r.warnings()) {
            output.warn(ctx, w);
        }
        long kept = r.decisions().stream().filter(d -> d.mark().keeps()).count();
        long remove = r.decisions().size() - kept;
        output.info(ctx, dryRun ? "dry run: would keep " + kept + ", remove " + remove + " snapshot(s)"
                : "kept " + kept + ", removed " + r.removed().size() + " snapshot(s)"
                        + (r.groupRemoved() ? "; group " + Snapshots.describe(g) + " removed" : ""));
        if (!dryRun && r.removed().size() < remove) {
            // the warnings above say why (in use, permissions, read-only file system): exit 1 for scripts
            throw new IllegalStateException("prune of " + Snapshots.describe(g) + ": " + (remove - r.removed().size())
                    + " of " + remove + " snapshot(s) to remove could not be removed (see the warnings above)");
        }
        return 0;
    }
}
