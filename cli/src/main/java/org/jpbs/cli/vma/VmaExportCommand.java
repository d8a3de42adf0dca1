package org.jpbs.cli.vma;

import org.jpbs.cli.UsageException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.OutputOptions;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.cli.commands.Snapshots;
import org.jpbs.client.progress.Progress;
import org.jpbs.client.progress.ProgressRenderer;
import org.jpbs.client.progress.Units;
import org.jpbs.client.engine.RestoreEngine;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.errors.EncryptedDataException;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.LocalSnapshotSource;
import org.jpbs.vma.VmaWriter;
import org.jpbs.vma.format.Vma;
import org.jpbs.vma.stream.Compression;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs vma export SNAPSHOT OUT}: writes a snapshot of a local datastore as a VMA
 * archive: every {@code NAME.img.fidx} becomes device NAME (in manifest order), every blob
 * (but the manifest and the client log) config NAME ({@code fw.conf.blob} as vzdump's
 * {@code qemu-server.fw}). Chunks are fetched, checked and decoded in
 * parallel ({@link RestoreEngine}) and written in order. OUT may be a directory: the archive
 * then gets vzdump's name ({@code vzdump-qemu-ID-YYYY_MM_DD-HH_MM_SS.vma.zst}, snapshot time in
 * local time). Encrypted archives and configs over 65,535 bytes cannot be exported.
 */
@Command(name = "export", sortOptions = false, description = {"Write a snapshot of a local datastore as an archive.", "",
    "NAME.img.fidx becomes device NAME, NAME.blob config NAME. OUT is a new",
    "file, -, or a directory (the archive gets a vzdump file name)."})
public final class VmaExportCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    RepositoryOptions repo;

    @Option(names = "--ns", paramLabel = "NS", description = "Namespace of the snapshot (default: root).")
    String ns;

    @Option(names = "--compress", paramLabel = "ALG",
            description = "none, zstd, gzip or lzo (default: from the name of OUT; zstd for a directory; none for -).")
    String compress;

    @Option(names = "--workers", paramLabel = "N", description = "Threads fetching and decoding chunks (default: available processors).")
    Integer workers;

    @Mixin
    OutputOptions output;

    @Parameters(index = "0", paramLabel = "SNAPSHOT", description = "type/id/time, or type/id for the latest.")
    String snapshot;

    @Parameters(index = "1", paramLabel = "OUT", description = "New archive file, a directory, or - for standard output.")
    String out;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public VmaExportCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    private record Device(String name, String archive, FixedIndex index) {}

    private record Config(String name, byte[] data) {}

    @Override
    @SuppressWarnings("try") // the renderer only needs closing
    public Integer call() throws Exception {
        Compression c = compress == null ? null : Compression.parse(compress);
        int threads = workers != null ? workers : Runtime.getRuntime().availableProcessors();
        if (threads < 1) {
            throw new UsageException("--workers must be at least 1, got " + threads);
        }
        Datastore ds = repo.open(ctx, false, Operation.READ);
        BackupSnapshotRef ref = Snapshots.resolve(ds, Snapshots.namespace(ns), snapshot);
        RestoreEngine engine = new RestoreEngine(LocalSnapshotSource.open(ds, ref)).workers(threads);
        SnapshotSource snap = engine.source();
        List<Device> devices = new ArrayList<>();
        List<Config> configs = new ArrayList<>();
        for (FileEntry f : snap.manifest().files()) {
            String name = f.filename();
            if (f.cryptMode() == CryptMode.ENCRYPT) {
                throw new EncryptedDataException(name);
            }
            if (name.endsWith(".img.fidx")) {
                IndexFile idx = snap.openIndex(name);
                if (!(idx instanceof FixedIndex fixed)) {
                    throw new IllegalStateException(name + " is not a fixed index");
                }
                if (fixed.size() == 0) {
                    throw new IllegalArgumentException(name + " is empty; a VMA archive cannot hold an empty device");
                }
                devices.add(new Device(name.substring(0, name.length() - ".img.fidx".length()), name, fixed));
            } else if (name.endsWith(".blob") && !name.equals("index.json.blob") && !name.equals("client.log.blob")) {
                byte[] data = snap.readBlob(name, null);
                String cfg = name.substring(0, name.length() - ".blob".length());
                if (cfg.equals(VmaImportCommand.FIREWALL_PBS)) {
                    cfg = VmaImportCommand.FIREWALL_VMA;
                }
                if (data.length > Vma.MAX_BLOB_SIZE) {
                    throw new IllegalArgumentException(name + " is " + data.length
                            + " bytes; a VMA archive stores configs of at most " + Vma.MAX_BLOB_SIZE + " bytes");
                }
                configs.add(new Config(cfg, data));
            } else {
                output.warn(ctx, name + " is not an image or a config; not exported");
            }
        }
        String target = out;
        Path asDir = Path.of(out);
        if (!out.equals("-") && Files.isDirectory(asDir)) {
            Compression dc = c != null ? c : Compression.ZSTD;
            target = asDir.resolve(VzdumpName.format(ref.group().id(), ref.time(), dc)).toString();
            c = dc;
        }
        long total = devices.stream().mapToLong(d -> d.index().size()).sum();
        long started = System.nanoTime();
        try (ArchiveOutput archive = ArchiveOutput.open(target, c, ctx.rawOut())) {
            VmaWriter w = new VmaWriter(archive.stream(), UUID.randomUUID(), ref.time());
            for (Config cfg : configs) {
                w.addConfig(cfg.name(), cfg.data());
            }
            List<Integer> ids = new ArrayList<>();
            for (Device d : devices) {
                ids.add(w.addDevice(d.name(), d.index().size()));
            }
            Progress progress = new Progress(total);
            try (ProgressRenderer r = output.startProgress(ctx, progress, "export: ")) {
                for (int i = 0; i < devices.size(); i++) {
                    try (OutputStream dev = w.deviceStream(ids.get(i))) {
                        engine.restore(devices.get(i).index(), null, dev, devices.get(i).archive(), progress);
                    }
                }
            }
            w.finish();
            archive.commit();
            output.info(ctx, String.format(Locale.ROOT, "%s -> %s: %d device%s, %d config%s, %s of images, %s archive"
                    + " (%s uncompressed), %s", Snapshots.describe(ref), archive.description(), devices.size(),
                    devices.size() == 1 ? "" : "s", configs.size(), configs.size() == 1 ? "" : "s", Units.bytes(total),
                    archive.compression().cliName(), Units.bytes(w.bytesWritten()),
                    Units.seconds(System.nanoTime() - started)));
        }
        return 0;
    }
}
