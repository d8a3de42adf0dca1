package org.jpbs.cli.commands;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.keys.CryptOptions;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.crypto.Fingerprint;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.cli.local.RestoreTarget;
import org.jpbs.client.progress.Progress;
import org.jpbs.client.progress.ProgressRenderer;
import org.jpbs.client.progress.Summary;
import org.jpbs.client.progress.Units;
import org.jpbs.client.restore.ImageRestore;
import org.jpbs.client.restore.PipelinedRestore;
import org.jpbs.client.restore.RestoreStats;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.errors.EncryptedDataException;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotReader;
import org.jpbs.datastore.config.Operation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs restore [options] SNAPSHOT ARCHIVE TARGET}: writes one archive of a snapshot, from
 * a local datastore or a server ({@link RemoteRestore}).
 *
 * <p>A {@code .fidx}/{@code .didx} archive is restored as its raw byte stream (an image, or the
 * concatenated chunk stream such as a pxar archive) with {@link ImageRestore}: chunks are
 * fetched and decoded in parallel and verified against their digests. A blob is restored as
 * its decoded content. See {@link RestoreTarget} for how TARGET is written.
 */
@Command(name = "restore", sortOptions = false,
        description = {"Restore one archive of a snapshot.", "",
            "SNAPSHOT is type/id/time, or a group type/id for its latest finished snapshot.",
            "ARCHIVE is the name used at backup (disk.img, qemu-server.conf) or the file",
            "name in the snapshot (disk.img.fidx, root.pxar.didx, qemu-server.conf.blob).",
            "Indexes are restored as their raw byte stream, blobs as their content.",
            "TARGET is a file, a block device, or - for standard output. A file is written",
            "as TARGET.tmp-jpbs-XXXX and renamed over TARGET when complete. A symbolic",
            "link is followed: the file it points to is replaced, the link stays.", ""})
public final class RestoreCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    RepositoryOptions repo;

    @Option(names = "--ns", paramLabel = "NS", description = "Namespace of the snapshot (default: root).")
    String ns;

    @Option(names = "--sparse",
            description = "Do not write zero chunks: a new file gets holes there; a block device must already read as zeros.")
    boolean sparse;

    @Option(names = "--fetch-workers", paramLabel = "N",
            description = "Threads fetching and decoding chunks (default: $PBS_RESTORE_MAX_THREADS, else available processors).")
    Integer fetchWorkers;

    @Option(names = "--fetch-concurrency", paramLabel = "N",
            description = "Chunk downloads in flight from a server (default: $PBS_RESTORE_FETCH_CONCURRENCY, else "
                    + PipelinedRestore.DEFAULT_FETCH_CONCURRENCY + ").")
    Integer fetchConcurrency;

    @Mixin
    CryptOptions crypto;

    @Mixin
    OutputOptions output;

    @Parameters(index = "0", paramLabel = "SNAPSHOT", description = "type/id/time or type/id (latest).")
    String snapshot;

    @Parameters(index = "1", paramLabel = "ARCHIVE", description = "Archive name, e.g. disk.img or disk.img.fidx.")
    String archive;

    @Parameters(index = "2", paramLabel = "TARGET", description = "File, block device, or - for standard output.")
    String target;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public RestoreCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    @SuppressWarnings("try") // the progress renderer only needs closing
    public Integer call() throws Exception {
        int threads = positive("--fetch-workers", fetchWorkers, "PBS_RESTORE_MAX_THREADS",
                Runtime.getRuntime().availableProcessors());
        int fetches = positive("--fetch-concurrency", fetchConcurrency, "PBS_RESTORE_FETCH_CONCURRENCY",
                PipelinedRestore.DEFAULT_FETCH_CONCURRENCY);
        String serverName;
        try {
            serverName = ArchiveName.toServerName(archive);
        } catch (IllegalArgumentException e) {
            throw new UsageException("ARCHIVE: " + e.getMessage(), e);
        }
        CryptConfig crypt = crypto.forRestore(ctx);
        if (repo.isRemote(ctx)) {
            try (var pbs = repo.client(ctx)) {
                return new RemoteRestore(ctx, output).run(pbs, Snapshots.namespace(ns), snapshot, serverName, target,
                        sparse, fetches, threads, crypt);
            }
        }
        Datastore ds = repo.open(ctx, false, Operation.READ);
        BackupSnapshotRef ref = Snapshots.resolve(ds, Snapshots.namespace(ns), snapshot);
        SnapshotReader reader = ds.openSnapshot(ref);
        if (serverName.equals(MANIFEST)) {
            Path file = ds.snapshotDir(ref).resolve(MANIFEST);
            byte[] json = org.jpbs.core.blob.DataBlob.wrap(java.nio.file.Files.readAllBytes(file), MANIFEST)
                    .decode(Snapshots.describe(ref) + "/" + MANIFEST, -1);
            return writeManifest(ctx, output, json, target);
        }
        FileEntry entry = findEntry(reader, ref, serverName);
        CryptConfig key = checkKey(reader.manifest(), entry, crypt, Snapshots.describe(ref));
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
        ImageRestore engine = new ImageRestore().workers(threads).progress(progress).crypt(key);
        try (RestoreTarget out = RestoreTarget.open(target, index.size(), ctx.rawOut())) {
            RestoreStats stats;
            try (ProgressRenderer r = output.startProgress(ctx, progress, serverName + ": ")) {
                if (out.isPositional()) {
                    stats = engine.sparse(sparse).restore(index, ds.chunkStore(), out.channel(), serverName);
                } else {
                    stats = engine.restore(index, ds.chunkStore(), out.stream(), serverName);
                }
            }
            out.commit();
            output.info(ctx, Summary.restore(serverName, out.description(), stats));
        } catch (IOException e) {
            throw RestoreTarget.named(target, e);
        }
        return 0;
    }

    /**
     * Checks the key against a snapshot before anything is written, as the PBS client does:
     * an encrypted archive needs a key; a manifest naming a key fingerprint needs that key
     * ({@code wrong key - manifest's key A does not match provided key B}); a signed manifest
     * must verify with it. Without a key, a signed manifest of plain (sign-only) archives is not
     * checked, as in PBS (its {@code check_fingerprint} runs only with a key). {@code rsa-encrypted.key.blob} restores without a key (PBS: "skipping
     * manifest fingerprint check"), so a lost key can be recovered with the master key.
     *
     * @param crypt    the key given (or the default key), or null
     * @param snapshot the snapshot, for messages
     * @return the key to decrypt the archive with (null for an unencrypted one)
     * @throws EncryptedDataException if the archive is encrypted and there is no key
     * @throws org.jpbs.core.errors.CryptoException on a key mismatch or a bad signature
     */
    static CryptConfig checkKey(BackupManifest manifest, FileEntry entry, CryptConfig crypt, String snapshot)
            throws java.io.IOException {
        if (crypt == null && entry.filename().equals(org.jpbs.core.crypto.MasterKey.BLOB_NAME)) {
            // as the PBS client: the master-key-wrapped key is restored without the key (that is its
            // purpose); the manifest lists it with the backup's crypt mode, but the blob is plain
            return null;
        }
        if (entry.cryptMode() == CryptMode.ENCRYPT && crypt == null) {
            Optional<Fingerprint> fp = manifest.keyFingerprint();
            String where = snapshot + ": " + entry.filename();
            throw fp.isPresent() ? new EncryptedDataException(where, "manifest was created with key " + fp.get()
                    + " (give it with --keyfile)") : new EncryptedDataException(where);
        }
        // as the PBS client: the fingerprint and signature are checked only when a key is given, so a
        // sign-only snapshot (plain chunks) restores without its key, unchecked
        manifest.verify(crypt, snapshot);
        return entry.cryptMode() == CryptMode.ENCRYPT ? crypt : null;
    }

    /**
     * The option's value if given, else the environment variable's if set, else {@code dflt};
     * at least 1. An error names the option or the variable that was actually wrong.
     *
     * @throws UsageException if the value used is not a positive integer
     */
    private int positive(String option, Integer value, String variable, int dflt) {
        if (value != null) {
            if (value < 1) {
                throw new UsageException(option + " must be at least 1, got " + value);
            }
            return value;
        }
        String v = ctx.getenv(variable);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        int n;
        try {
            n = Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(variable + ": not a number: '" + v + "' (stands for " + option + ")");
        }
        if (n < 1) {
            throw new UsageException(variable + " must be at least 1, got " + n + " (stands for " + option + ")");
        }
        return n;
    }

    /** The manifest's file name: {@code restore SNAPSHOT index.json TARGET} writes it, as the PBS client does. */
    static final String MANIFEST = "index.json.blob";

    /**
     * Writes the manifest's JSON as stored (the decoded {@code index.json.blob}, which is in no
     * file list) to {@code target}, as the PBS client does for the archive name {@code index.json}.
     */
    static int writeManifest(CliContext ctx, OutputOptions output, byte[] json, String target) throws java.io.IOException {
        try (RestoreTarget out = RestoreTarget.open(target, json.length, ctx.rawOut())) {
            out.writeAll(json);
            out.commit();
            output.info(ctx, MANIFEST + " -> " + out.description() + ": " + Units.bytes(json.length) + " ("
                    + json.length + " bytes)");
        } catch (IOException e) {
            throw RestoreTarget.named(target, e);
        }
        return 0;
    }

    private static FileEntry findEntry(SnapshotReader reader, BackupSnapshotRef ref, String serverName) {
        Optional<FileEntry> entry = reader.manifest().file(serverName);
        if (entry.isPresent()) {
            return entry.get();
        }
        List<String> names = reader.manifest().files().stream().map(FileEntry::filename).toList();
        throw new IllegalArgumentException("archive '" + serverName + "' is not in snapshot " + Snapshots.describe(ref)
                + " (it has: " + String.join(", ", names) + ")");
    }
}
