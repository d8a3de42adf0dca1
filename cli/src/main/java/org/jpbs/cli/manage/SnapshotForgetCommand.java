package org.jpbs.cli.manage;

import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.snapshot.Datastore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code jpbs snapshot forget SNAPSHOT}: removes one snapshot ({@code DELETE .../snapshots?SNAP}
 * on a server, as the PBS client; directly in a local datastore). A protected snapshot is refused.
 */
@Command(name = "forget", description = "Remove one snapshot.")
public final class SnapshotForgetCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @Mixin
    RepositoryOptions repo;

    @Mixin
    SnapshotArgs snap;

    private final CliContext ctx;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public SnapshotForgetCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        BackupSnapshotRef ref = snap.ref();
        if (repo.isRemote(ctx)) {
            try (PbsClient pbs = repo.client(ctx)) {
                pbs.delete(pbs.datastorePath() + "/snapshots", Api.snapshot(ref));
            }
            return 0;
        }
        Datastore ds = repo.open(ctx, false, Operation.WRITE);
        ds.removeSnapshot(ref);
        return 0;
    }
}
