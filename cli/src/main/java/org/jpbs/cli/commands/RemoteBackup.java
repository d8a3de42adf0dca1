package org.jpbs.cli.commands;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.keys.CryptOptions;
import org.jpbs.core.crypto.MasterKey;
import org.jpbs.cli.local.BlockDevices;
import org.jpbs.client.backup.BackupStats;
import org.jpbs.client.backup.ImageBackup;
import org.jpbs.client.http.HttpStatusException;
import org.jpbs.client.progress.Progress;
import org.jpbs.client.progress.ProgressRenderer;
import org.jpbs.client.progress.Summary;
import org.jpbs.client.progress.Units;
import org.jpbs.client.remote.BackupClient;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.RemoteSnapshots;
import org.jpbs.client.remote.RemoteBackupWriter;
import org.jpbs.core.FileFormats;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;

/**
 * {@code jpbs backup} to a server ({@code docs/protocol.md#what-a-client-does-step-by-step}): one backup session;
 * for each image the previous snapshot's index of the same archive is downloaded (its chunks are
 * reused without upload), the image is chunked, hashed and compressed by {@link ImageBackup} on
 * all cores and new chunks are uploaded with up to {@code --upload-concurrency} requests in
 * flight; blobs are uploaded whole; then the manifest and {@code finish}. Any failure drops the
 * connection, and the server removes the unfinished snapshot.
 */
final class RemoteBackup {
    private static final String TIME_CONFLICT = "backup timestamp is older than last backup";
    private static final String DIR_EXISTS = "backup directory already exists";

    private final CliContext ctx;
    private final OutputOptions output;
    private final int workers;
    private final int uploadConcurrency;
    private final CryptOptions.Params cp;

    RemoteBackup(CliContext ctx, OutputOptions output, int workers, int uploadConcurrency, CryptOptions.Params cp) {
        this.ctx = ctx;
        this.output = output;
        this.workers = workers;
        this.uploadConcurrency = uploadConcurrency;
        this.cp = cp;
    }

    /** Runs the backup; returns the exit code. */
    int run(PbsClient pbs, BackupGroupRef group, Long backupTime, List<ArchiveSpec> specs) throws IOException {
        long started = System.nanoTime();
        BackupStats total = BackupStats.EMPTY;
        try (BackupClient bc = start(pbs, group, backupTime)) {
            BackupSnapshotRef ref = bc.snapshot();
            BackupManifest manifest = new BackupManifest(group.type(), group.id(), ref.time());
            Optional<BackupManifest> previous = bc.previousManifest();
            for (ArchiveSpec spec : specs) {
                if (spec.image()) {
                    FileEntry[] entry = new FileEntry[1];
                    total = total.plus(backupImage(bc, spec, previous, entry));
                    manifest.addFile(entry[0]);
                } else {
                    manifest.addFile(backupBlob(bc, spec));
                }
            }
            if (cp.master() != null) {
                DataBlob keyBlob = MasterKey.encryptKey(cp.master(), cp.crypt(), cp.keyCreated());
                bc.uploadBlob(MasterKey.BLOB_NAME, keyBlob);
                manifest.addFile(new FileEntry(MasterKey.BLOB_NAME, cp.mode(), keyBlob.rawLength(), Digest.sha256(keyBlob.raw())));
            }
            if (cp.crypt() != null && cp.mode() != CryptMode.NONE) {
                manifest.sign(cp.crypt());
            }
            bc.finish(manifest);
            output.info(ctx, String.format(Locale.ROOT, "snapshot %s on %s: %d archive%s, %s new of %s, %d chunks uploaded (%s), %s",
                    Snapshots.describe(ref), pbs.repository().hostAndPort(), specs.size(), specs.size() == 1 ? "" : "s",
                    Units.bytes(total.newBytes()), Units.bytes(total.totalBytes()), bc.uploadedChunks(),
                    Units.bytes(bc.uploadedBytes()), Units.seconds(System.nanoTime() - started)));
        }
        return 0;
    }

    /**
     * Opens the session. Without {@code --backup-time} the time is now, or one second after the
     * group's last snapshot if that is later (as for a local datastore): when the server says the
     * group already has a snapshot at or after that second, the group's snapshots are listed and
     * the next try uses one second after the newest (or, if the listing fails, the next second);
     * three tries at most.
     */
    private BackupClient start(PbsClient pbs, BackupGroupRef group, Long backupTime) throws IOException {
        long time = backupTime != null ? backupTime : Instant.now().getEpochSecond();
        for (int attempt = 0; ; attempt++) {
            try {
                return BackupClient.start(pbs, new BackupSnapshotRef(group, time), uploadConcurrency);
            } catch (HttpStatusException e) {
                boolean conflict = e.serverMessage().contains(TIME_CONFLICT) || e.serverMessage().contains(DIR_EXISTS);
                if (backupTime != null || !conflict || attempt >= 2) {
                    throw e;
                }
                long newest = newestSnapshotTime(pbs, group);
                if (newest < time) {
                    sleepToNextSecond();
                }
                time = Math.max(Math.max(time, newest) + 1, Instant.now().getEpochSecond());
            }
        }
    }

    /** The time of the group's newest snapshot on the server (finished or not), or -1 if none or not listable. */
    private static long newestSnapshotTime(PbsClient pbs, BackupGroupRef group) {
        try {
            long newest = -1;
            for (RemoteSnapshots.Snapshot s : RemoteSnapshots.list(pbs, group.ns(), group)) {
                newest = Math.max(newest, s.ref().time());
            }
            return newest;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static void sleepToNextSecond() throws IOException {
        try {
            Thread.sleep(1000 - System.currentTimeMillis() % 1000 + 5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted");
        }
    }

    @SuppressWarnings("try") // the renderer only needs closing
    private BackupStats backupImage(BackupClient bc, ArchiveSpec spec, Optional<BackupManifest> previous,
            FileEntry[] entry) throws IOException {
        Path path = spec.path();
        long size = BlockDevices.size(path);
        Set<Digest> known = knownDigests(bc, spec, previous);
        int wid = bc.createFixedIndex(spec.serverName(), size, null);
        RemoteBackupWriter sink = new RemoteBackupWriter(bc, wid, known);
        ImageBackup engine = new ImageBackup().workers(workers).crypt(cp.chunkKey());
        Progress progress = new Progress(size);
        ImageBackup.Result result;
        try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ);
                ProgressRenderer renderer = output.startProgress(ctx, progress, spec.cliName() + ": ")) {
            engine.progress(progress);
            result = engine.run(in, size, sink, UUID.randomUUID(), Instant.now().getEpochSecond(), path.toString());
            entry[0] = sink.finish(spec.serverName(), result.index(), cp.mode());
        }
        BackupStats stats = result.stats();
        output.info(ctx, Summary.backup(spec.serverName(), stats));
        return stats;
    }

    /** Digests of the previous snapshot's index of the same archive (downloaded, so the server knows them). */
    private Set<Digest> knownDigests(BackupClient bc, ArchiveSpec spec, Optional<BackupManifest> previous) {
        if (previous.isEmpty()) {
            return Set.of();
        }
        Optional<FileEntry> e = previous.get().file(spec.serverName());
        if (e.isEmpty() || !BackupCommand.reusable(previous.get(), e.get(), cp)) {
            return Set.of();
        }
        try {
            FixedIndex idx = bc.previousFixedIndex(e.get());
            if (idx.chunkSize() != FileFormats.DEFAULT_FIXED_CHUNK_SIZE) {
                return Set.of();
            }
            Set<Digest> known = new HashSet<>(idx.chunkCount() * 2);
            for (int i = 0; i < idx.chunkCount(); i++) {
                known.add(idx.digest(i));
            }
            return known;
        } catch (IOException ex) {
            output.warn(ctx, "cannot use " + spec.serverName() + " of the previous snapshot, backing it up fully: "
                    + ex.getMessage());
            return Set.of();
        }
    }

    private FileEntry backupBlob(BackupClient bc, ArchiveSpec spec) throws IOException {
        byte[] data = Files.readAllBytes(spec.path());
        if (data.length > FileFormats.MAX_BLOB_SIZE) {
            throw new IllegalArgumentException("archive '" + spec.cliName() + "': " + spec.path()
                    + " is too large for a blob (" + data.length + " bytes)");
        }
        DataBlob blob = DataBlob.encode(data, 0, data.length, true, cp.chunkKey());
        bc.uploadBlob(spec.serverName(), blob);
        output.info(ctx, spec.serverName() + ": " + Units.bytes(data.length) + " (" + data.length + " bytes), uploaded "
                + Units.bytes(blob.rawLength()));
        return new FileEntry(spec.serverName(), cp.mode(), blob.rawLength(), Digest.sha256(blob.raw()));
    }
}
