package org.jpbs.cli.commands;

import java.io.IOException;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.local.RestoreTarget;
import org.jpbs.client.progress.Progress;
import org.jpbs.client.progress.ProgressRenderer;
import org.jpbs.client.progress.Summary;
import org.jpbs.client.progress.Units;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.RemoteChunkReader;
import org.jpbs.client.restore.PipelinedRestore;
import org.jpbs.client.restore.RestoreStats;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.FileEntry;

/**
 * {@code jpbs restore} from a server ({@code docs/protocol.md#reader-session}): a reader session
 * downloads the manifest and the index, then chunks are fetched with up to
 * {@code --fetch-concurrency} requests in flight and decoded and verified on worker threads
 * ({@link PipelinedRestore}); each is written at its offset as it arrives (in order for a stream).
 */
final class RemoteRestore {
    private final CliContext ctx;
    private final OutputOptions output;

    RemoteRestore(CliContext ctx, OutputOptions output) {
        this.ctx = ctx;
        this.output = output;
    }

    @SuppressWarnings("try") // the progress renderer only needs closing
    int run(PbsClient pbs, BackupNamespace ns, String snapshot, String serverName, String target, boolean sparse,
            int fetchConcurrency, int workers, CryptConfig crypt) throws IOException {
        BackupSnapshotRef ref = Snapshots.resolve(pbs, ns, snapshot);
        try (RemoteChunkReader reader = RemoteChunkReader.open(pbs, ref)) {
            if (serverName.equals(RestoreCommand.MANIFEST)) {
                return RestoreCommand.writeManifest(ctx, output, reader.manifestJson(), target);
            }
            FileEntry entry = reader.entry(serverName);
            CryptConfig key = RestoreCommand.checkKey(reader.manifest(), entry, crypt, Snapshots.describe(ref));
            if (serverName.endsWith(".blob")) {
                byte[] data = reader.readBlob(serverName, key);
                try (RestoreTarget out = RestoreTarget.open(target, data.length, ctx.rawOut())) {
                    out.writeAll(data);
                    out.commit();
                    output.info(ctx, serverName + " -> " + out.description() + ": " + Units.bytes(data.length) + " ("
                            + data.length + " bytes)");
                } catch (IOException e) {
                    throw RestoreTarget.named(target, e);
                }
                return 0;
            }
            IndexFile index = reader.openIndex(serverName);
            Progress progress = new Progress(index.size());
            PipelinedRestore engine = new PipelinedRestore().fetchConcurrency(fetchConcurrency).workers(workers)
                    .progress(progress).sparse(sparse).crypt(key);
            try (RestoreTarget out = RestoreTarget.open(target, index.size(), ctx.rawOut())) {
                RestoreStats stats;
                try (ProgressRenderer r = output.startProgress(ctx, progress, serverName + ": ")) {
                    if (out.isPositional()) {
                        stats = engine.restore(index, reader, out.channel(), serverName);
                    } else {
                        stats = engine.restore(index, reader, out.stream(), serverName);
                    }
                }
                out.commit();
                output.info(ctx, Summary.restore(serverName, out.description(), stats));
            } catch (IOException e) {
                throw RestoreTarget.named(target, e);
            }
        }
        return 0;
    }
}
