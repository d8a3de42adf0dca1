package org.jpbs.cli.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.keys.CryptOptions;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.cli.local.RestoreTarget;
import org.jpbs.client.progress.Progress;
import org.jpbs.client.progress.ProgressRenderer;
import org.jpbs.client.progress.Summary;
import org.jpbs.client.progress.Units;
import org.jpbs.client.engine.RestoreEngine;
import org.jpbs.client.pxar.fs.NothingMatchedException;
import org.jpbs.client.pxar.fs.TreeExtractor;
import org.jpbs.core.errors.NotFoundException;
import org.jpbs.client.remote.RemoteSnapshotSource;
import org.jpbs.datastore.snapshot.LocalSnapshotSource;
import org.jpbs.client.restore.PipelinedRestore;
import org.jpbs.client.restore.RestoreStats;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.core.pxar.ArchiveNames;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.config.Operation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs restore [options] SNAPSHOT ARCHIVE TARGET}: writes one archive of a snapshot, from
 * a local datastore ({@link LocalSnapshotSource}) or a server ({@link RemoteSnapshotSource}).
 *
 * <p>A {@code .fidx}/{@code .didx} archive is restored as its raw byte stream (an image, or the
 * concatenated chunk stream such as a pxar archive) with the {@link RestoreEngine}: chunks are
 * fetched and decoded in parallel and verified against their digests. A blob is restored as
 * its decoded content. See {@link RestoreTarget} for how TARGET is written.
 */
@Command(name = "restore", sortOptions = false,
        description = {"Restore one archive of a snapshot.", "",
            "SNAPSHOT is type/id/time, or a group type/id for its latest finished snapshot.",
            "ARCHIVE is the name used at backup (disk.img, qemu-server.conf) or the file",
            "name in the snapshot (disk.img.fidx, root.pxar.didx, qemu-server.conf.blob).",
            "A file archive (NAME.pxar) is extracted into the directory TARGET (created",
            "if missing) with its metadata; to - or a block device it is written as its",
            "raw pxar stream (an existing regular file is refused). Other indexes are",
            "restored as their raw byte stream,",
            "blobs as their content.",
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

    @Option(names = "--pattern", paramLabel = "PATTERN",
            description = "File archives: restore only paths matching PATTERN ('!' excludes); repeatable.")
    List<String> patterns = List.of();

    @Option(names = "--overwrite", description = "File archives: replace existing files in TARGET.")
    boolean overwrite;

    @Option(names = "--ignore-acls", description = "File archives: do not restore ACLs.")
    boolean ignoreAcls;

    @Option(names = "--ignore-xattrs", description = "File archives: do not restore xattrs and file capabilities.")
    boolean ignoreXattrs;

    @Option(names = "--ignore-ownership", description = "File archives: do not restore owners and groups.")
    boolean ignoreOwnership;

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
        TreeExtractor.Options extract = extractOptions(serverName);
        CryptConfig crypt = crypto.forRestore(ctx);
        BackupNamespace namespace = Snapshots.namespace(ns);
        if (repo.isRemote(ctx)) {
            try (var pbs = repo.client(ctx);
                    SnapshotSource source = RemoteSnapshotSource.open(pbs, Snapshots.resolve(pbs, namespace, snapshot))) {
                return restore(new RestoreEngine(source).workers(threads).fetchConcurrency(fetches).sparse(sparse),
                        serverName, crypt, extract);
            }
        }
        Datastore ds = repo.open(ctx, false, Operation.READ);
        S3Requests requests = S3Requests.start(ds);
        int exit;
        try (SnapshotSource source = LocalSnapshotSource.open(ds, Snapshots.resolve(ds, namespace, snapshot))) {
            int w = S3Requests.workers(ds, fetchWorkers != null || ctx.getenv("PBS_RESTORE_MAX_THREADS") != null, threads);
            exit = restore(new RestoreEngine(source).workers(w).sparse(sparse), serverName, crypt, extract);
        }
        String s3 = requests.summary(-1);
        if (s3 != null) {
            output.info(ctx, s3);
        }
        return exit;
    }

    /** Restores one archive (or the manifest's JSON) of the engine's snapshot to TARGET. */
    @SuppressWarnings("try") // the progress renderer only needs closing
    private int restore(RestoreEngine engine, String serverName, CryptConfig crypt, TreeExtractor.Options extract)
            throws IOException {
        BackupSnapshotRef ref = engine.source().snapshot();
        if (serverName.equals(MANIFEST)) {
            return writeAll(engine.source().manifestJson(), MANIFEST);
        }
        String label = Snapshots.describe(ref);
        serverName = splitName(engine.source().manifest(), serverName);
        FileEntry entry = Snapshots.archive(engine.source().manifest(), label, archive, serverName);
        CryptConfig key = engine.keyFor(entry, crypt, label);
        if (serverName.endsWith(".blob")) {
            return writeAll(engine.readBlob(serverName, key), serverName);
        }
        IndexFile index = engine.openIndex(serverName);
        if (extract != null) {
            IndexFile payload = null;
            if (serverName.endsWith(MPXAR)) {
                String payloadName = ArchiveNames.resolve(serverName, engine.source().manifest()).payload();
                engine.keyFor(Snapshots.archive(engine.source().manifest(), label, payloadName, payloadName), crypt, label);
                payload = engine.openIndex(payloadName);
            }
            return extract(engine, index, payload, key, serverName, extract);
        }
        Progress progress = new Progress(index.size());
        try (RestoreTarget out = RestoreTarget.open(target, index.size(), ctx.rawOut())) {
            RestoreStats stats;
            try (ProgressRenderer r = output.startProgress(ctx, progress, serverName + ": ")) {
                stats = out.isPositional() ? engine.restore(index, key, out.channel(), serverName, progress)
                        : engine.restore(index, key, out.stream(), serverName, progress);
            }
            out.commit();
            output.info(ctx, Summary.restore(serverName, out.description(), stats));
        } catch (IOException e) {
            throw RestoreTarget.named(target, e);
        }
        return 0;
    }

    /**
     * The extractor's options if ARCHIVE is a file archive to extract (TARGET is not {@code -}
     * nor an existing file or block device), else null; the file-archive options are refused
     * for anything else.
     */
    private TreeExtractor.Options extractOptions(String serverName) {
        boolean fileArchive = serverName.endsWith(".pxar.didx") || serverName.endsWith(MPXAR);
        if (fileArchive && !target.equals("-") && Files.isRegularFile(Path.of(target))) {
            // as the PBS client (it extracts into a directory only): never replace a file with the raw stream
            throw new UsageException("TARGET " + target + " is an existing file: a file archive is extracted into a "
                    + "directory (give '-' for its raw pxar stream)");
        }
        boolean tree = fileArchive && !target.equals("-")
                && (!Files.exists(Path.of(target)) || Files.isDirectory(Path.of(target)));
        boolean given = !patterns.isEmpty() || overwrite || ignoreAcls || ignoreXattrs || ignoreOwnership;
        if (!tree) {
            if (given) {
                throw new UsageException("--pattern, --overwrite and --ignore-* need a file archive (NAME.pxar)"
                        + " extracted to a directory");
            }
            return null;
        }
        return new TreeExtractor.Options(overwrite, ignoreOwnership, ignoreAcls, ignoreXattrs,
                TreeOptions.patterns("--pattern", patterns, true));
    }

    @SuppressWarnings("try") // the progress renderer only needs closing
    private int extract(RestoreEngine engine, IndexFile index, IndexFile payload, CryptConfig key, String serverName,
            TreeExtractor.Options options) throws IOException {
        Progress progress = new Progress(index.size());
        Path dir = Path.of(target);
        Path made = firstMissing(dir); // TARGET and the parents the restore makes for it, or null
        RestoreStats stats;
        try (ProgressRenderer r = output.startProgress(ctx, progress, serverName + ": ")) {
            stats = payload == null
                    ? engine.extractTree(index, key, dir, options, w -> output.warn(ctx, w), serverName, progress)
                    : engine.extractSplitTree(index, payload, key, dir, options, w -> output.warn(ctx, w), serverName,
                            progress);
        } catch (NothingMatchedException e) {
            // PBS's client ends silently with an empty directory; say so, and leave no directory made for it
            if (made != null) {
                Path stop = made.getParent();
                for (Path p = dir.toAbsolutePath().normalize(); p != null && !p.equals(stop); p = p.getParent()) {
                    try {
                        Files.deleteIfExists(p); // only if still empty
                    } catch (IOException left) { // not empty: something else wrote there meanwhile
                        break; // keep it and its parents; the "matched nothing" error is what counts
                    }
                }
            }
            throw new NotFoundException(null, "--pattern " + patterns.stream().map(p -> "'" + p + "'")
                    .collect(java.util.stream.Collectors.joining(" ")) + " matched nothing in " + archive
                    + ": nothing restored");
        }
        output.info(ctx, Summary.restore(serverName, dir.toString(), stats));
        return 0;
    }

    /**
     * The outermost of {@code dir} and its parents that does not exist yet (the restore makes it
     * and everything below it down to {@code dir}), or null if {@code dir} exists.
     */
    private static Path firstMissing(Path dir) {
        Path missing = null;
        for (Path p = dir.toAbsolutePath().normalize(); p != null && !Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS);
                p = p.getParent()) {
            missing = p;
        }
        return missing;
    }

    /** Writes decoded content (a blob, the manifest's JSON) to TARGET. */
    private int writeAll(byte[] data, String name) throws IOException {
        try (RestoreTarget out = RestoreTarget.open(target, data.length, ctx.rawOut())) {
            out.writeAll(data);
            out.commit();
            output.info(ctx, name + " -> " + out.description() + ": " + Units.bytes(data.length) + " ("
                    + data.length + " bytes)");
        } catch (IOException e) {
            throw RestoreTarget.named(target, e);
        }
        return 0;
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

    private static final String MPXAR = ".mpxar.didx";

    /**
     * {@code NAME.pxar.didx} of a snapshot that has the split archive {@code NAME.mpxar.didx}
     * instead (written with --change-detection-mode data or metadata), or either half of it,
     * stands for its metadata half, as in the PBS client ({@link ArchiveNames}); any other name
     * is returned as is.
     */
    private static String splitName(BackupManifest manifest, String serverName) {
        if (!serverName.endsWith(".pxar.didx") && !serverName.endsWith(MPXAR)) {
            return serverName;
        }
        ArchiveNames names;
        try {
            names = ArchiveNames.resolve(serverName, manifest);
        } catch (IllegalArgumentException e) {
            return serverName; // not in the snapshot: reported by name
        }
        return names.isSplit() && manifest.file(names.metadata()).isPresent() ? names.metadata() : serverName;
    }

    /** The manifest's file name: {@code restore SNAPSHOT index.json TARGET} writes it, as the PBS client does. */
    static final String MANIFEST = "index.json.blob";
}
