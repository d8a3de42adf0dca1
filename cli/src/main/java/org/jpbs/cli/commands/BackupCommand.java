package org.jpbs.cli.commands;

import org.jpbs.cli.UsageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.keys.CryptOptions;
import org.jpbs.core.crypto.MasterKey;
import org.jpbs.cli.local.BlockDevices;
import org.jpbs.client.backup.BackupStats;
import org.jpbs.client.engine.BackupCrypt;
import org.jpbs.client.engine.BackupEngine;
import org.jpbs.client.engine.ChangeDetectionMode;
import org.jpbs.client.engine.DynamicArchiveStream;
import org.jpbs.client.engine.TreeResult;
import org.jpbs.client.pxar.fs.TreeArchiver;
import org.jpbs.client.remote.RemoteSnapshotTarget;
import org.jpbs.client.progress.Progress;
import org.jpbs.client.progress.ProgressRenderer;
import org.jpbs.client.progress.Summary;
import org.jpbs.client.progress.Units;
import org.jpbs.core.FileFormats;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.LocalSnapshotTarget;
import org.jpbs.datastore.config.Operation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs backup [options] ARCHIVE...}: one new snapshot holding every archive given, in a
 * local datastore or on a server.
 *
 * <p>All arguments are checked first; then the snapshot target is built — a
 * {@link LocalSnapshotTarget} (the datastore locked shared, as a PBS backup writer does) or a
 * {@link RemoteSnapshotTarget} (a backup session) — and the {@link BackupEngine} does the rest:
 * images as fixed indexes of 4 MiB chunks, incremental against the group's last finished
 * snapshot, files as blobs, then the manifest. Any failure aborts the target, so no new
 * snapshot becomes visible (chunks already stored are harmless; GC removes them).
 */
@Command(name = "backup", sortOptions = false,
        description = {"Back up images and files into a new snapshot.", "",
            "ARCHIVE is NAME.img:PATH for a raw image file or block device",
            "(fixed index, 4 MiB chunks), NAME.pxar:DIR for a directory tree",
            "(pxar file archive, dynamic index, listed in catalog.pcat1.didx),",
            "or NAME.EXT:PATH for a file stored as a blob, for example",
            "qemu-server.conf:/etc/pve/qemu-server/100.conf", ""})
public final class BackupCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    RepositoryOptions repo;

    @Option(names = "--ns", paramLabel = "NS", description = "Namespace, e.g. a/b (default: the root namespace).")
    String ns;

    @Option(names = "--backup-type", paramLabel = "TYPE", defaultValue = "host",
            description = "vm, ct or host (default: ${DEFAULT-VALUE}).")
    String backupType;

    @Option(names = "--backup-id", paramLabel = "ID", description = "Backup id (default: the short host name).")
    String backupId;

    @Option(names = "--backup-time", paramLabel = "EPOCH",
            description = {"Snapshot time in epoch seconds, at least 1; must be after the group's last snapshot.",
                "Default: now, or one second after the group's last snapshot if that is later",
                "(the same for a local datastore and a server)."})
    Long backupTime;

    @Option(names = "--workers", paramLabel = "N",
            description = "Threads hashing and compressing chunks (default: available processors).")
    Integer workers;

    @Option(names = "--upload-concurrency", paramLabel = "N", defaultValue = "16",
            description = "Chunk uploads in flight to a server (default: ${DEFAULT-VALUE}).")
    int uploadConcurrency;

    @Option(names = "--exclude", paramLabel = "PATTERN",
            description = {"Leave out paths of file archives matching PATTERN (gitignore-like, as .pxarexclude;",
                "'!' re-includes); repeatable. Stored in the archive as /.pxarexclude-cli."})
    List<String> excludes = List.of();

    @Option(names = "--all-file-systems",
            description = "File archives: include mounted file systems (default: stay on the root's file system).")
    boolean allFileSystems;

    @Option(names = "--include-dev", paramLabel = "PATH",
            description = "File archives: also include the file system mounted at PATH; repeatable.")
    List<Path> includeDevs = List.of();

    @Option(names = "--skip-lost-and-found", description = "File archives: leave out directories named lost+found.")
    boolean skipLostAndFound;

    @Option(names = "--entries-max", paramLabel = "N", defaultValue = "1048576",
            description = "File archives: most directory entries held in memory at once (default: ${DEFAULT-VALUE}).")
    long entriesMax;

    @Option(names = "--change-detection-mode", paramLabel = "MODE", defaultValue = "legacy",
            description = {"File archives: legacy (one NAME.pxar.didx), data (split into NAME.mpxar.didx",
                "and NAME.ppxar.didx, every file read) or metadata (split; files whose size and",
                "metadata equal the previous snapshot's are not read, their chunks are reused).",
                "Default: ${DEFAULT-VALUE}."})
    String changeDetectionMode;

    @Mixin
    CryptOptions crypto;

    @Mixin
    CryptOptions.MasterKeyOptions masterKey;

    @Mixin
    OutputOptions output;

    @Parameters(arity = "1..*", paramLabel = "ARCHIVE", description = "NAME.img:PATH or NAME.EXT:PATH, one or more.")
    List<String> archives;

    private ChangeDetectionMode mode;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public BackupCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        BackupType type;
        try {
            type = BackupType.parse(backupType);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--backup-type: " + e.getMessage(), e);
        }
        BackupNamespace namespace = Snapshots.namespace(ns);
        String id = backupId != null ? backupId : Hostnames.shortName();
        BackupGroupRef group;
        try {
            group = new BackupGroupRef(namespace, type, id);
        } catch (IllegalArgumentException e) {
            throw backupId != null ? new UsageException("--backup-id: " + e.getMessage(), e) : e;
        }
        int threads = workers != null ? workers : Runtime.getRuntime().availableProcessors();
        if (threads < 1) {
            throw new UsageException("--workers must be at least 1, got " + threads);
        }
        if (backupTime != null) {
            if (backupTime < 1) {
                // the backup protocol requires backup-time >= 1 (docs/protocol.md#backup-upgrade)
                throw new UsageException("--backup-time must be at least 1 (seconds since 1970), got " + backupTime);
            }
            try {
                BackupSnapshotRef.formatTime(backupTime);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--backup-time: " + e.getMessage(), e);
            }
        }
        if (uploadConcurrency < 1) {
            throw new UsageException("--upload-concurrency must be at least 1, got " + uploadConcurrency);
        }
        try {
            mode = ChangeDetectionMode.parse(changeDetectionMode);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--change-detection-mode: " + e.getMessage(), e);
        }
        List<ArchiveSpec> specs = ArchiveSpec.parseAll(archives);
        TreeArchiver.Options treeOptions = TreeOptions.backup(excludes, allFileSystems, includeDevs, skipLostAndFound,
                entriesMax);
        CryptOptions.Params cp = crypto.forBackup(ctx, masterKey);
        if (cp.crypt() != null) {
            output.info(ctx, "Using encryption key " + cp.keySource() + " (fingerprint " + cp.crypt().fingerprint().shortForm()
                    + "), crypt mode " + cp.mode());
        }

        BackupCrypt bc = new BackupCrypt(cp.mode(), cp.crypt(), cp.master() == null ? null
                : MasterKey.encryptKey(cp.master(), cp.crypt(), cp.keyCreated()));
        long started = System.nanoTime();
        if (repo.isRemote(ctx)) {
            try (var pbs = repo.client(ctx);
                    RemoteSnapshotTarget target = RemoteSnapshotTarget.begin(pbs, group, backupTime, uploadConcurrency)) {
                BackupStats total = backup(new BackupEngine(target, bc, w -> output.warn(ctx, w)), specs, threads, "uploaded",
                        treeOptions);
                output.info(ctx, String.format(Locale.ROOT, "snapshot %s on %s: %d archive%s, %s new of %s, %d chunks uploaded (%s), %s",
                        Snapshots.describe(target.snapshot()), target.server(), specs.size(), specs.size() == 1 ? "" : "s",
                        Units.bytes(total.newBytes()), Units.bytes(total.totalBytes()), target.client().uploadedChunks(),
                        Units.bytes(target.client().uploadedBytes()), Units.seconds(System.nanoTime() - started)));
            }
            return 0;
        }
        Datastore ds = repo.open(ctx, true, Operation.WRITE);
        S3Requests requests = S3Requests.start(ds);
        BackupSnapshotRef ref = new BackupSnapshotRef(group, chooseTime(ds.lastFinishedSnapshot(group), group));
        // holds the shared datastore lock until finish/abort (as a PBS backup writer)
        BackupStats total;
        try (LocalSnapshotTarget target = LocalSnapshotTarget.begin(ds, ref, owner(), true)) {
            total = backup(new BackupEngine(target, bc, w -> output.warn(ctx, w)), specs,
                    threads, "stored", treeOptions);
        }
        output.info(ctx, String.format(Locale.ROOT, "snapshot %s: %d archive%s, %s new of %s, %s",
                Snapshots.describe(ref), specs.size(), specs.size() == 1 ? "" : "s", Units.bytes(total.newBytes()),
                Units.bytes(total.totalBytes()), Units.seconds(System.nanoTime() - started)));
        String s3 = requests.summary(total.chunks());
        if (s3 != null) {
            output.info(ctx, s3);
        }
        return 0;
    }

    /** Backs up every archive through the engine and finishes the snapshot; returns the image counters. */
    private BackupStats backup(BackupEngine engine, List<ArchiveSpec> specs, int threads, String stored,
            TreeArchiver.Options treeOptions) throws IOException {
        engine.workers(threads);
        BackupStats total = BackupStats.EMPTY;
        for (ArchiveSpec spec : specs) {
            switch (spec.kind()) {
                case IMAGE -> total = total.plus(backupImage(engine, spec));
                case TREE -> total = total.plus(backupTree(engine, spec, treeOptions));
                case BLOB -> backupBlob(engine, spec, stored);
            }
        }
        engine.finish();
        return total;
    }

    private long chooseTime(Optional<BackupSnapshotRef> last, BackupGroupRef group) {
        if (backupTime != null) {
            if (last.isPresent() && backupTime <= last.get().time()) {
                throw new IllegalArgumentException("--backup-time " + backupTime + " ("
                        + BackupSnapshotRef.formatTime(backupTime) + ") is not after the last snapshot "
                        + last.get() + " of group " + Snapshots.describe(group));
            }
            return backupTime;
        }
        long now = Instant.now().getEpochSecond();
        return last.isPresent() && last.get().time() >= now ? last.get().time() + 1 : now;
    }

    @SuppressWarnings("try") // the renderer only needs closing
    private BackupStats backupImage(BackupEngine engine, ArchiveSpec spec) throws IOException {
        Path path = spec.path();
        long size = BlockDevices.size(path);
        Progress progress = new Progress(size);
        BackupEngine.ImageResult result;
        try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ);
                ProgressRenderer renderer = output.startProgress(ctx, progress, spec.cliName() + ": ")) {
            result = engine.backupImage(spec.serverName(), in, size, path.toString(), progress);
        }
        output.info(ctx, Summary.backup(spec.serverName(), result.stats()));
        return result.stats();
    }

    private BackupStats backupTree(BackupEngine engine, ArchiveSpec spec, TreeArchiver.Options options)
            throws IOException {
        output.info(ctx, "Upload directory '" + spec.path() + "' as " + spec.serverName()
                + (mode.split() ? " (change detection mode " + mode.cliName() + ")" : ""));
        TreeResult r = engine.backupTree(spec.serverName(), spec.path(), options, mode,
                w -> output.warn(ctx, spec.cliName() + ": " + w));
        for (DynamicArchiveStream.Result a : r.archives()) {
            output.info(ctx, Summary.backup(a.entry().filename(), a.stats()));
        }
        if (mode.split()) {
            output.info(ctx, String.format(Locale.ROOT,
                    "%s: %d files read (%s), %d unchanged files reused (%s) in %d chunks, %s padding",
                    spec.cliName(), r.filesRead(), Units.bytes(r.bytesRead()), r.filesReused(),
                    Units.bytes(r.bytesReused()), r.reusedChunks(), Units.bytes(r.padding())));
        }
        return r.stats();
    }

    private void backupBlob(BackupEngine engine, ArchiveSpec spec, String stored) throws IOException {
        byte[] data = Files.readAllBytes(spec.path());
        if (data.length > FileFormats.MAX_BLOB_SIZE) {
            throw new IllegalArgumentException("archive '" + spec.cliName() + "': " + spec.path()
                    + " is too large for a blob (" + data.length + " bytes)");
        }
        FileEntry e = engine.backupBlob(spec.serverName(), data);
        output.info(ctx, spec.serverName() + ": " + Units.bytes(data.length) + " (" + data.length + " bytes), " + stored
                + " " + Units.bytes(e.size()));
    }

    private static String owner() {
        String user = System.getProperty("user.name", "root");
        return (user.isEmpty() ? "root" : user) + "@pam";
    }
}
