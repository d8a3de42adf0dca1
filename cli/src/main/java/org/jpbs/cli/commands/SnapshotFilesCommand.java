package org.jpbs.cli.commands;

import java.util.List;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.client.remote.PbsClient;
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
 * {@code jpbs snapshot files [--ns NS] SNAPSHOT}: the files of a snapshot's manifest ({@code docs/formats.md#manifest-indexjsonblob}) as a table: filename, size in bytes (the data size for indexes,
 * the encoded size for blobs), crypt-mode and csum. With a server repository: the API's list
 * ({@code GET .../files}: filename, size, crypt-mode), which also has index.json.blob and
 * client.log.blob.
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

    @Mixin
    OutputFormatOption format;

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
                // the API's list (GET .../files: the manifest's files, index.json.blob and client.log.blob)
                // in every format, as the PBS client prints it; no reader session is opened
                var list = pbs.get(pbs.datastorePath() + "/files", org.jpbs.client.http.Query.of()
                        .add("backup-type", ref.group().type().text()).add("backup-id", ref.group().id())
                        .add("backup-time", ref.time()).add("ns", ref.group().ns().isRoot() ? null : ref.group().ns().toString()));
                format.renderer(ctx).table(list, List.of(Renderer.Column.field("filename", "filename"),
                        Renderer.Column.field("size", "size"), Renderer.Column.field("crypt-mode", "crypt-mode")));
                return 0;
            }
        } else {
            Datastore ds = repo.open(ctx, false, Operation.READ);
            BackupSnapshotRef ref = Snapshots.resolve(ds, Snapshots.namespace(ns), snapshot);
            manifest = ds.openSnapshot(ref).manifest();
        }
        Renderer r = format.renderer(ctx);
        if (!r.isText()) {
            var arr = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
            for (FileEntry f : manifest.files()) {
                arr.addObject().put("filename", f.filename()).put("size", f.size()).put("crypt-mode", f.cryptMode().text());
            }
            r.json(arr);
            return 0;
        }
        TextTable table = new TextTable(List.of("filename", "size", "crypt-mode", "csum"));
        for (FileEntry f : manifest.files()) {
            table.add(List.of(f.filename(), Long.toString(f.size()), f.cryptMode().text(), f.csum().hex()));
        }
        table.print(ctx.out());
        return 0;
    }
}
