package org.jpbs.cli.manage;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.cli.commands.Snapshots;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.snapshot.Datastore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs group forget GROUP [--ns NS] [--yes]}: removes a whole backup group, as the PBS
 * client's {@code group forget}: it counts the group's snapshots, asks
 * {@code Delete group "<group>" with <n> snapshot(s)? [y/N]: } and then sends
 * {@code DELETE .../groups?backup-type&backup-id[&ns]} (in a local datastore it removes the group
 * directly). Protected snapshots are kept and make the command fail. Without a terminal there is
 * nobody to ask: {@code --yes} confirms, otherwise it is a usage error and nothing is removed.
 */
@Command(name = "forget", description = "Remove a whole backup group with all its snapshots (protected ones are kept).")
public final class GroupForgetCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @Mixin
    RepositoryOptions repo;

    @Parameters(index = "0", paramLabel = "GROUP", description = "The group, e.g. vm/100.")
    String group;

    @Option(names = "--ns", paramLabel = "NS", description = "Namespace of the group (default: root).")
    String ns;

    @Option(names = "--yes", description = "Do not ask for confirmation (needed without a terminal).")
    boolean yes;

    private final CliContext ctx;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public GroupForgetCommand(CliContext ctx) {
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
        String name = g.type().text() + "/" + g.id();
        if (repo.isRemote(ctx)) {
            try (PbsClient pbs = repo.client(ctx)) {
                int n = pbs.get(pbs.datastorePath() + "/snapshots", Api.group(g)).size();
                if (!confirmed(name, n)) {
                    ctx.out().println("Abort.");
                    return 0;
                }
                pbs.delete(pbs.datastorePath() + "/groups", Api.group(g));
            }
        } else {
            Datastore ds = repo.open(ctx, false, Operation.WRITE);
            if (!java.nio.file.Files.isDirectory(ds.groupDir(g))) {
                throw new IOException("backup group '" + name + "' does not exist");
            }
            if (!confirmed(name, ds.listSnapshots(g).size())) {
                ctx.out().println("Abort.");
                return 0;
            }
            if (!ds.removeGroup(g)) {
                throw new IOException("group only partially deleted due to protected snapshots");
            }
        }
        ctx.out().println("Successfully deleted group!");
        return 0;
    }

    private boolean confirmed(String name, int snapshots) throws IOException {
        if (yes) {
            return true;
        }
        Console c = System.console();
        if (c == null || !c.isTerminal() || ctx.err() != System.err) {
            throw new UsageException("not a terminal: confirm the removal of group " + name + " with --yes");
        }
        return ask(System.err, new BufferedReader(c.reader()), name, snapshots);
    }

    /** The PBS client's question; true only for {@code y} or {@code yes} (default no, also at end of input). */
    public static boolean ask(PrintStream err, BufferedReader in, String name, int snapshots) throws IOException {
        err.print("Delete group \"" + name + "\" with " + snapshots + " snapshot(s)? [y/N]: ");
        err.flush();
        String line = in.readLine();
        String a = line == null ? "" : line.trim().toLowerCase(Locale.ROOT);
        return a.equals("y") || a.equals("yes");
    }
}
