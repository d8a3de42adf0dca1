package org.jpbs.cli.vma;

import org.jpbs.cli.UsageException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.OutputOptions;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.cli.commands.Snapshots;
import org.jpbs.client.engine.BackupCrypt;
import org.jpbs.client.engine.BackupEngine;
import org.jpbs.client.progress.Progress;
import org.jpbs.client.progress.ProgressRenderer;
import org.jpbs.client.progress.Summary;
import org.jpbs.client.progress.Units;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.LocalSnapshotTarget;
import org.jpbs.vma.VmaReader;
import org.jpbs.vma.format.VmaConfig;
import org.jpbs.vma.format.VmaDevice;
import org.jpbs.vma.format.VmaHeader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs vma import ARCHIVE --backup-id ID}: stores a VMA archive as a new snapshot of a
 * local datastore, streaming (no temporary copy): each device becomes {@code NAME.img.fidx}
 * (4 MiB chunks, zero chunks stored once), each config {@code NAME.blob} ({@code qemu-server.fw}
 * as {@code fw.conf.blob}, the name PVE uses with PBS). The snapshot time
 * is the archive's creation time unless {@code --backup-time} is given; the backup id defaults
 * to the VM id of a vzdump file name. Like a backup, the snapshot becomes visible only when
 * complete; on any error nothing is added to the datastore but unreferenced chunks.
 */
@Command(name = "import", sortOptions = false, description = {"Store an archive as a snapshot of a local datastore.", "",
    "NAME.img.fidx per device (4 MiB chunks), NAME.blob per config."})
public final class VmaImportCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    RepositoryOptions repo;

    @Option(names = "--ns", paramLabel = "NS", description = "Namespace (default: root).")
    String ns;

    @Option(names = "--backup-type", paramLabel = "TYPE", defaultValue = "vm", description = "Backup type (default: ${DEFAULT-VALUE}).")
    String backupType;

    @Option(names = "--backup-id", paramLabel = "ID",
            description = "Backup id (default: the VM id of a vzdump-qemu-ID-... file name).")
    String backupId;

    @Option(names = "--backup-time", paramLabel = "EPOCH", description = "Snapshot time (default: the archive's creation time).")
    Long backupTime;

    @Option(names = "--workers", paramLabel = "N", description = "Threads hashing and compressing chunks (default: available processors).")
    Integer workers;

    @Mixin
    OutputOptions output;

    @Parameters(index = "0", paramLabel = "ARCHIVE", description = "The archive, or - for standard input.")
    String archive;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public VmaImportCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    @SuppressWarnings("try") // the renderer only needs closing
    public Integer call() throws Exception {
        if (repo.isRemote(ctx)) {
            throw new UsageException("vma import writes to a local datastore; the repository " + repo.resolve(ctx)
                    + " is a server: this command works on a local datastore only");
        }
        BackupType type = BackupType.parse(backupType);
        BackupNamespace namespace = Snapshots.namespace(ns);
        String id = backupId != null ? backupId : VzdumpName.vmid(archive).orElseThrow(() -> new IllegalArgumentException(
                "--backup-id is needed (" + archive + " is not named vzdump-qemu-ID-YYYY_MM_DD-HH_MM_SS.vma...)"));
        int threads = workers != null ? workers : Runtime.getRuntime().availableProcessors();
        if (threads < 1) {
            throw new UsageException("--workers must be at least 1, got " + threads);
        }
        Datastore ds = repo.open(ctx, true, Operation.WRITE);
        long started = System.nanoTime();
        try (VmaReader reader = ArchiveInput.open(archive)) {
            VmaHeader header = reader.header();
            long time = backupTime != null ? backupTime : header.ctime();
            if (time < 1) {
                throw new IllegalArgumentException("backup time must be at least 1, got " + time
                        + (backupTime == null ? " (the archive's creation time; give --backup-time)" : ""));
            }
            BackupSnapshotRef ref = new BackupSnapshotRef(new BackupGroupRef(namespace, type, id), time);
            List<VmaDevice> devices = VmaImporter.importable(header.devices());
            for (VmaDevice d : header.devices()) {
                if (d.isVmstate()) {
                    output.warn(ctx, "the vmstate stream (" + d.size() + " bytes) is not imported");
                }
            }
            if (!namespace.isRoot() && !ds.namespaceExists(namespace)) {
                throw new IllegalArgumentException("namespace " + namespace + " does not exist in " + ds.root());
            }
            try (LocalSnapshotTarget target = LocalSnapshotTarget.begin(ds, ref, owner(), false)) {
                BackupEngine engine = new BackupEngine(target, BackupCrypt.NONE, w -> output.warn(ctx, w)).workers(threads);
                for (VmaConfig c : header.configs()) {
                    engine.backupBlob(blobName(c.name()), c.data());
                }
                Map<String, BackupEngine.Archive> archives = new LinkedHashMap<>();
                for (VmaDevice d : devices) {
                    archives.put(d.name(), engine.openFixedIndex(d.name() + ".img.fidx", d.size()));
                }
                Progress progress = new Progress(devices.stream().mapToLong(VmaDevice::size).sum());
                VmaImporter.Result result;
                try (ProgressRenderer r = output.startProgress(ctx, progress, "import: ")) {
                    result = new VmaImporter(d -> archives.get(d.name()).processor(), threads)
                            .run(reader, devices, progress::advance);
                }
                for (Map.Entry<String, FixedIndex> e : result.indexes().entrySet()) {
                    archives.get(e.getKey()).close(e.getValue());
                }
                engine.finish();
                output.info(ctx, Summary.backup(String.join(", ", result.indexes().keySet().stream()
                        .map(n -> n + ".img.fidx").toList()), result.stats()));
                output.info(ctx, String.format(Locale.ROOT, "snapshot %s: %d device%s, %d config%s from %s, %s",
                        Snapshots.describe(ref), devices.size(), devices.size() == 1 ? "" : "s", header.configs().size(),
                        header.configs().size() == 1 ? "" : "s", reader.resource(),
                        Units.seconds(System.nanoTime() - started)));
            }
        }
        return 0;
    }

    /**
     * The blob name of a config: {@code NAME.blob}, except vzdump's firewall config
     * {@code qemu-server.fw}, which a PVE backup to PBS stores as {@code fw.conf.blob}
     * ({@code docs/vma.md#vzdump-archives}).
     */
    static String blobName(String config) {
        return (config.equals(FIREWALL_VMA) ? FIREWALL_PBS : config) + ".blob";
    }

    /** vzdump's name of the firewall config in a VMA archive. */
    static final String FIREWALL_VMA = "qemu-server.fw";
    /** The name PVE gives the firewall config in a PBS snapshot (without {@code .blob}). */
    static final String FIREWALL_PBS = "fw.conf";

    private static String owner() {
        String user = System.getProperty("user.name", "root");
        return (user.isEmpty() ? "root" : user) + "@pam";
    }
}
