package org.jpbs.cli.manage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.cli.keys.CryptOptions;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.manifest.CryptMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs snapshot upload-log SNAPSHOT LOGFILE}: uploads a client log to a finished snapshot
 * ({@code POST .../upload-backup-log?SNAP}, body: the file as a compressed DataBlob, encrypted
 * with {@code --keyfile} in crypt mode encrypt, as the PBS client; a sign-only mode uploads it
 * unencrypted). The server keeps it as {@code client.log.blob}; a second upload is refused.
 */
@Command(name = "upload-log", description = "Attach a log file to a snapshot on a server (as client.log.blob).")
public final class SnapshotUploadLogCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @Mixin
    RepositoryOptions repo;

    @Mixin
    SnapshotArgs snap;

    @Parameters(index = "1", paramLabel = "LOGFILE", description = "The log file to upload.")
    Path logfile;

    @Mixin
    CryptOptions crypt;

    private final CliContext ctx;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public SnapshotUploadLogCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        var ref = snap.ref();
        byte[] data;
        try {
            data = Files.readAllBytes(logfile);
        } catch (NoSuchFileException e) {
            throw new IOException("LOGFILE: " + logfile + " does not exist", e);
        }
        CryptOptions.Params p = crypt.forBackup(ctx);
        DataBlob blob = p.mode() == CryptMode.ENCRYPT
                ? DataBlob.encodeEncrypted(data, 0, data.length, true, p.crypt())
                : DataBlob.encode(data, 0, data.length, true);
        try (PbsClient pbs = repo.serverClient(ctx, "snapshot upload-log")) {
            pbs.upload(pbs.datastorePath() + "/upload-backup-log", Api.snapshot(ref), "application/octet-stream",
                    blob.raw());
        }
        return 0;
    }
}
