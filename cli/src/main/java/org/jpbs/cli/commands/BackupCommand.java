package org.jpbs.cli.commands;

import org.jpbs.cli.UsageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.keys.CryptOptions;
import org.jpbs.core.crypto.MasterKey;
import org.jpbs.cli.local.BlockDevices;
import org.jpbs.cli.local.LocalChunkSink;
import org.jpbs.client.backup.BackupStats;
import org.jpbs.client.backup.ImageBackup;
import org.jpbs.client.progress.Progress;
import org.jpbs.client.progress.ProgressRenderer;
import org.jpbs.client.progress.Summary;
import org.jpbs.client.progress.Units;
import org.jpbs.core.FileFormats;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotReader;
import org.jpbs.datastore.snapshot.SnapshotWriter;
import org.jpbs.datastore.config.Operation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs backup [options] ARCHIVE...}: one new snapshot holding every archive given, in a
 * local datastore or on a server ({@link RemoteBackup}).
 *
 * <p>All arguments are checked first; then the datastore is locked shared (as a PBS backup
 * writer does), a snapshot writer is opened, images are backed up with {@link ImageBackup}
 * (fixed index, 4 MiB chunks, incremental against the group's last finished snapshot), blobs
 * are encoded (zstd), and the manifest is committed. Any failure aborts the writer, so no new
 * snapshot becomes visible (chunks already stored are harmless; GC removes them).
 */
@Command(name = "backup", sortOptions = false,
        description = {"Back up images and files into a new snapshot.", "",
            "ARCHIVE is NAME.img:PATH for a raw image file or block device",
            "(fixed index, 4 MiB chunks), or NAME.EXT:PATH for a file stored as a blob,",
            "e.g. qemu-server.conf:/etc/pve/qemu-server/100.conf.", ""})
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

    @Mixin
    CryptOptions crypto;

    @Mixin
    CryptOptions.MasterKeyOptions masterKey;

    @Mixin
    OutputOptions output;

    @Parameters(arity = "1..*", paramLabel = "ARCHIVE", description = "NAME.img:PATH or NAME.EXT:PATH, one or more.")
    List<String> archives;

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
        List<ArchiveSpec> specs = ArchiveSpec.parseAll(archives);
        CryptOptions.Params cp = crypto.forBackup(ctx, masterKey);
        if (cp.crypt() != null) {
            output.info(ctx, "Using encryption key " + cp.keySource() + " (fingerprint " + cp.crypt().fingerprint().shortForm()
                    + "), crypt mode " + cp.mode());
        }

        if (repo.isRemote(ctx)) {
            try (var pbs = repo.client(ctx)) {
                return new RemoteBackup(ctx, output, threads, uploadConcurrency, cp).run(pbs, group, backupTime, specs);
            }
        }
        Datastore ds = repo.open(ctx, true, Operation.WRITE);
        long started = System.nanoTime();
        Optional<BackupSnapshotRef> last = ds.lastFinishedSnapshot(group);
        BackupSnapshotRef ref = new BackupSnapshotRef(group, chooseTime(last, group));
        SnapshotReader previous = openPrevious(ds, last);
        List<Path> createdNs = createNamespace(ds, namespace);
        BackupStats total = BackupStats.EMPTY;
        boolean done = false;
        // beginSnapshot holds the shared datastore lock until commit/abort (as a PBS backup writer)
        try (SnapshotWriter writer = ds.beginSnapshot(ref, owner())) {
            if (previous != null) {
                writer.lockBase(previous.ref()); // not prunable while its chunks are reused
            }
            for (ArchiveSpec spec : specs) {
                if (spec.image()) {
                    total = total.plus(backupImage(ds, writer, spec, knownDigests(previous, spec, cp), threads, cp));
                } else {
                    backupBlob(writer, spec, cp);
                }
            }
            if (cp.master() != null) {
                writer.addBlob(MasterKey.BLOB_NAME, MasterKey.encryptKey(cp.master(), cp.crypt(), cp.keyCreated()));
            }
            writer.commit(manifest(type, id, ref.time(), writer.files(), cp));
            done = true;
        } finally {
            if (!done) {
                removeEmpty(createdNs);
            }
        }
        output.info(ctx, String.format(java.util.Locale.ROOT, "snapshot %s: %d archive%s, %s new of %s, %s",
                Snapshots.describe(ref), specs.size(), specs.size() == 1 ? "" : "s", Units.bytes(total.newBytes()),
                Units.bytes(total.totalBytes()), Units.seconds(System.nanoTime() - started)));
        return 0;
    }

    /**
     * Creates the namespace directories if missing (a local datastore needs no separate
     * namespace setup); returns the directories created, deepest last.
     */
    private static List<Path> createNamespace(Datastore ds, BackupNamespace ns) throws IOException {
        List<Path> created = new java.util.ArrayList<>();
        if (ns.isRoot() || ds.namespaceExists(ns)) {
            return created;
        }
        for (Path p = ds.namespaceDir(ns); p != null && !p.equals(ds.root()) && !Files.exists(p); p = p.getParent()) {
            created.addFirst(p);
        }
        ds.createNamespace(ns);
        return created;
    }

    /** Removes directories created for a backup that failed, deepest first, if they are empty. */
    private static void removeEmpty(List<Path> dirs) {
        for (Path p : dirs.reversed()) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                return; // not empty or not removable: leave it
            }
        }
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

    private SnapshotReader openPrevious(Datastore ds, Optional<BackupSnapshotRef> last) {
        if (last.isEmpty()) {
            return null;
        }
        try {
            return ds.openSnapshot(last.get());
        } catch (IOException e) {
            output.warn(ctx, "cannot read the previous snapshot " + Snapshots.describe(last.get())
                    + ", backing up everything: " + e.getMessage());
            return null;
        }
    }

    /**
     * The manifest of the new snapshot: every added file with the backup's crypt mode, signed
     * (signature and key fingerprint) unless the mode is {@code none} ({@code docs/formats.md#manifest-indexjsonblob}).
     */
    static BackupManifest manifest(BackupType type, String id, long time, List<FileEntry> files, CryptOptions.Params cp) {
        BackupManifest m = new BackupManifest(type, id, time);
        for (FileEntry f : files) {
            m.addFile(new FileEntry(f.filename(), cp.mode(), f.size(), f.csum()));
        }
        if (cp.crypt() != null && cp.mode() != CryptMode.NONE) {
            m.sign(cp.crypt());
        }
        return m;
    }

    /**
     * True if chunks of a previous snapshot's archive may be reused: same key (fingerprint, or
     * both without) and the same kind of chunks (encrypted or not), as the PBS client checks.
     */
    static boolean reusable(BackupManifest previous, FileEntry entry, CryptOptions.Params cp) {
        try {
            previous.checkFingerprint(cp.mode() == CryptMode.NONE ? null : cp.crypt(), "previous snapshot");
        } catch (IOException e) {
            return false;
        }
        return (entry.cryptMode() == CryptMode.ENCRYPT) == (cp.mode() == CryptMode.ENCRYPT);
    }

    /** Digests of the previous snapshot's index of the same archive (same key and kind, same chunk size), else empty. */
    private Set<Digest> knownDigests(SnapshotReader previous, ArchiveSpec spec, CryptOptions.Params cp) {
        if (previous == null) {
            return Set.of();
        }
        Optional<FileEntry> entry = previous.manifest().file(spec.serverName());
        if (entry.isEmpty() || !reusable(previous.manifest(), entry.get(), cp)) {
            return Set.of();
        }
        try {
            IndexFile idx = previous.openIndex(spec.serverName());
            if (!(idx instanceof FixedIndex fixed) || fixed.chunkSize() != FileFormats.DEFAULT_FIXED_CHUNK_SIZE) {
                return Set.of();
            }
            Set<Digest> known = new HashSet<>(fixed.chunkCount() * 2);
            for (int i = 0; i < fixed.chunkCount(); i++) {
                known.add(fixed.digest(i));
            }
            return known;
        } catch (IOException e) {
            output.warn(ctx, "cannot use " + spec.serverName() + " of the previous snapshot, backing it up fully: "
                    + e.getMessage());
            return Set.of();
        }
    }

    @SuppressWarnings("try") // the renderer only needs closing
    private BackupStats backupImage(Datastore ds, SnapshotWriter writer, ArchiveSpec spec, Set<Digest> known,
            int threads, CryptOptions.Params cp) throws IOException {
        Path path = spec.path();
        long size = BlockDevices.size(path);
        ImageBackup engine = new ImageBackup().workers(threads).crypt(cp.chunkKey());
        Progress progress = new Progress(size);
        ImageBackup.Result result;
        try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ);
                ProgressRenderer renderer = output.startProgress(ctx, progress, spec.cliName() + ": ")) {
            engine.progress(progress);
            result = engine.run(in, size, new LocalChunkSink(ds.chunkStore(), known), UUID.randomUUID(),
                    Instant.now().getEpochSecond(), path.toString());
        }
        writer.addFixedIndex(spec.serverName(), result.index(), cp.mode());
        output.info(ctx, Summary.backup(spec.serverName(), result.stats()));
        return result.stats();
    }

    private void backupBlob(SnapshotWriter writer, ArchiveSpec spec, CryptOptions.Params cp) throws IOException {
        byte[] data = Files.readAllBytes(spec.path());
        if (data.length > FileFormats.MAX_BLOB_SIZE) {
            throw new IllegalArgumentException("archive '" + spec.cliName() + "': " + spec.path()
                    + " is too large for a blob (" + data.length + " bytes)");
        }
        DataBlob blob = DataBlob.encode(data, 0, data.length, true, cp.chunkKey());
        writer.addBlob(spec.serverName(), blob);
        output.info(ctx, spec.serverName() + ": " + Units.bytes(data.length) + " (" + data.length + " bytes), stored "
                + Units.bytes(blob.rawLength()));
    }

    private static String owner() {
        String user = System.getProperty("user.name", "root");
        return (user.isEmpty() ? "root" : user) + "@pam";
    }
}
