package org.jpbs.cli.commands;

import java.util.List;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.RemoteChunkReader;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.config.Operation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs snapshot files [--ns NS] SNAPSHOT}: the files of a snapshot's manifest (spec
 * {@code pbs-formats.md} §8) as a table: filename, size in bytes (the data size for indexes,
 * the encoded size for blobs), crypt-mode and csum.
 */
@Command(name = "files", description = "List the files of a snapshot.")
public final class SnapshotFilesCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    RepositoryOptions repo;

    @Option(names = "--ns", paramLabel = "NS", description = "Namespace of the snapshot (default: root).")
    String ns;

    @Parameters(index = "0", paramLabel = "SNAPSHOT", description = "type/id/time, or type/id for the latest.")
    String snapshot;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public SnapshotFilesCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        BackupManifest manifest;
        if (repo.isRemote(ctx)) {
            try (PbsClient pbs = repo.client(ctx)) {
                BackupSnapshotRef ref = Snapshots.resolve(pbs, Snapshots.namespace(ns), snapshot);
                try (RemoteChunkReader reader = RemoteChunkReader.open(pbs, ref)) {
                    manifest = reader.manifest();
                }
            }
        } else {
            Datastore ds = repo.open(ctx, false, Operation.READ);
            BackupSnapshotRef ref = Snapshots.resolve(ds, Snapshots.namespace(ns), snapshot);
            manifest = ds.openSnapshot(ref).manifest();
        }
        TextTable table = new TextTable(List.of("filename", "size", "crypt-mode", "csum"));
        for (FileEntry f : manifest.files()) {
            table.add(List.of(f.filename(), Long.toString(f.size()), f.cryptMode().text(), f.csum().hex()));
        }
        table.print(ctx.out());
        return 0;
    }
}
