package org.jpbs.cli.vma;

import org.jpbs.cli.UsageException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.local.BlockDevices;
import org.jpbs.vma.VmaReader;
import org.jpbs.vma.format.Vma;
import org.jpbs.vma.format.VmaConfig;
import org.jpbs.vma.format.VmaDevice;
import org.jpbs.vma.format.VmaHeader;
import org.jpbs.vma.restore.DeviceTarget;
import org.jpbs.vma.restore.VmaRestore;
import org.jpbs.vma.restore.WriteMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs vma extract ARCHIVE DIR [-r READMAP] [-d DEVS] [-v]}: restores the configs and
 * devices of an archive, as {@code vma extract} ({@code docs/vma.md#the-vma-tool}).
 *
 * <p>DIR must not exist; it is created and gets every config under its name. Without
 * {@code -r} each device becomes the sparse file {@code DIR/tmp-disk-NAME.raw}, renamed to
 * {@code disk-NAME.raw} when the whole archive was read and every cluster was present
 * ({@code DEVINFO PATH SIZE} is printed per device). With {@code -r} the listing is printed
 * first, then device targets (files or block devices) are read from the map; a target may be
 * up to 4 MiB larger than the device, never smaller. Writes are merged and sorted by default
 * ({@code --writes}); {@code --direct} opens targets with {@code O_DIRECT};
 * {@code --write-zeroes} writes absent blocks as zeros instead of leaving them to a
 * pre-zeroed or sparse target. If anything fails, DIR and everything in it is removed
 * (targets named in a map are left as they are).
 */
@Command(name = "extract", sortOptions = false, description = {"Restore the configs and disks of an archive.", "",
    "DIR is a new directory; it gets the configs and disk-NAME.raw per device,",
    "or the disks go to the targets of a device map (-r)."})
public final class VmaExtractCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Option(names = {"-r", "--readmap"}, paramLabel = "READMAP",
            description = "Device map file or FIFO: lines [cache=MODE:]0|1:DEVNAME=TARGET or skip=DEVNAME, ended by done.")
    Path readmap;

    @Option(names = {"-d", "--devices"}, paramLabel = "DEV[,DEV...]", split = ",",
            description = "Extract only these devices (without -r).")
    List<String> only;

    @Option(names = "--direct", description = "Open targets with O_DIRECT (no page cache; not on tmpfs).")
    boolean direct;

    @Option(names = "--write-zeroes", description = "Write absent (zero) blocks as zeros; default: leave them to the sparse or pre-zeroed target.")
    boolean writeZeroes;

    @Option(names = "--writes", paramLabel = "MODE", defaultValue = "sorted",
            description = "cluster (one request per cluster, as upstream), merged (contiguous writes merged),"
                    + " sorted (merged after sorting each extent by device and cluster; default).")
    String writes;

    @Option(names = {"-v", "--verbose"}, description = "Print progress and totals (stderr) and write statistics.")
    boolean verbose;

    @Parameters(index = "0", paramLabel = "ARCHIVE", description = "The archive, or - for standard input.")
    String archive;

    @Parameters(index = "1", paramLabel = "DIR", description = "New directory for the configs and disks.")
    Path dir;

    /** Creates the command; {@code ctx} gives its streams. */
    public VmaExtractCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        WriteMode mode;
        try {
            mode = WriteMode.parse(writes);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--writes: " + e.getMessage(), e);
        }
        if (readmap != null && only != null) {
            throw new UsageException("-d and -r cannot be combined (skip devices in the map instead)");
        }
        if (Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(dir.toString(), null, "DIR must not exist");
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new IllegalArgumentException("DIR " + dir + ": directory " + parent + " does not exist");
        }
        try (VmaReader reader = ArchiveInput.open(archive)) {
            VmaHeader header = reader.header();
            checkNames(header, reader.resource());
            Set<String> selected = select(header);
            ReadMap map = null;
            if (readmap != null) {
                VmaListing.print(header, ctx.out());
                map = ReadMap.read(readmap, header.devices());
                map.warnings().forEach(w -> ctx.err().println("jpbs: warning: " + w));
            }
            Files.createDirectory(dir);
            List<Path> created = new ArrayList<>();
            Map<Integer, DeviceTarget> targets = new LinkedHashMap<>();
            Map<Path, Path> renames = new LinkedHashMap<>();
            boolean ok = false;
            try {
                for (VmaConfig c : header.configs()) {
                    Path p = dir.resolve(c.name());
                    created.add(p);
                    Files.write(p, c.data(), java.nio.file.StandardOpenOption.CREATE_NEW,
                            java.nio.file.StandardOpenOption.WRITE);
                }
                for (VmaDevice d : header.devices()) {
                    openTarget(d, map, selected, created, renames, targets);
                }
                Progress progress = new Progress(targets.values().stream().mapToLong(DeviceTarget::size).sum());
                VmaRestore.Result r = new VmaRestore().mode(mode).progress(progress::advance).run(reader, targets, true);
                for (DeviceTarget t : targets.values()) {
                    t.close();
                }
                for (Map.Entry<Path, Path> e : renames.entrySet()) {
                    Files.move(e.getKey(), e.getValue(), StandardCopyOption.ATOMIC_MOVE);
                }
                ok = true;
                if (verbose) {
                    report(r);
                }
            } finally {
                for (DeviceTarget t : targets.values()) {
                    try {
                        t.close();
                    } catch (IOException e) {
                        // reported by the main failure
                    }
                }
                if (!ok) {
                    for (Path p : created) {
                        Files.deleteIfExists(p);
                    }
                    for (Path p : renames.values()) {
                        Files.deleteIfExists(p);
                    }
                    Files.deleteIfExists(dir);
                }
            }
        }
        return 0;
    }

    /** Config and device names become file names in DIR: nothing may point outside it. */
    private static void checkNames(VmaHeader h, String resource) {
        for (VmaConfig c : h.configs()) {
            if (!safeName(c.name())) {
                throw new IllegalArgumentException(resource + ": config name '" + c.name()
                        + "' is not a plain file name; refusing to write it");
            }
        }
        for (VmaDevice d : h.devices()) {
            if (!safeName(d.name())) {
                throw new IllegalArgumentException(resource + ": device name '" + d.name()
                        + "' is not a plain file name; refusing to write it");
            }
        }
    }

    private static boolean safeName(String n) {
        return !n.isEmpty() && !n.equals(".") && !n.equals("..") && n.indexOf('/') < 0 && n.indexOf('\0') < 0;
    }

    private Set<String> select(VmaHeader h) {
        if (only == null) {
            return null;
        }
        Set<String> names = new HashSet<>();
        h.devices().forEach(d -> names.add(d.name()));
        for (String n : only) {
            if (!names.contains(n)) {
                throw new IllegalArgumentException("-d: the archive has no device '" + n + "' (it has: "
                        + String.join(", ", names.stream().sorted().toList()) + ")");
            }
        }
        return new HashSet<>(only);
    }

    private void openTarget(VmaDevice d, ReadMap map, Set<String> selected, List<Path> created, Map<Path, Path> renames,
            Map<Integer, DeviceTarget> targets) throws IOException {
        if (map != null) {
            ReadMap.Mapping m = map.mapping(d.name());
            if (m == null) {
                return; // skipped
            }
            Path p = m.path();
            if (!Files.exists(p)) {
                createSized(p, d.size());
            } else {
                long have = BlockDevices.size(p);
                if (have < d.size() || have > d.size() + Vma.TARGET_SIZE_SLACK) {
                    throw new IllegalArgumentException("target " + p + " for device " + d.name() + " has " + have
                            + " bytes; it must have " + d.size() + " bytes (up to 4 MiB more)");
                }
            }
            targets.put(d.id(), DeviceTarget.open(d.name() + " -> " + p, p, d.size(), direct || m.direct(),
                    writeZeroes || m.writeZero()));
            return;
        }
        if (selected != null && !selected.contains(d.name())) {
            return;
        }
        String finalName = d.isVmstate() ? "vmstate.bin" : "disk-" + d.name() + ".raw";
        Path tmp = dir.resolve("tmp-" + finalName);
        Path fin = dir.resolve(finalName);
        created.add(tmp);
        createSized(tmp, d.size());
        renames.put(tmp, fin);
        targets.put(d.id(), DeviceTarget.open(d.name() + " -> " + fin, tmp, d.size(), direct, writeZeroes));
        ctx.out().println("DEVINFO " + fin + " " + d.size());
        ctx.out().flush();
    }

    private static void createSized(Path p, long size) throws IOException {
        Path parent = p.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new IllegalArgumentException("target " + p + ": directory " + parent + " does not exist");
        }
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.setLength(size); // sparse: reads as zeros
        } catch (java.io.FileNotFoundException e) {
            throw new IOException(p + ": cannot create (" + e.getMessage() + ")", e);
        }
    }

    private void report(VmaRestore.Result r) {
        long total = r.dataBytes() + r.zeroBytes();
        ctx.err().println(String.format(Locale.ROOT, "total bytes read %d, sparse bytes %d (%.3g%%)", total,
                r.zeroBytes(), total == 0 ? 0.0 : r.zeroBytes() * 100.0 / total));
        ctx.err().println(String.format(Locale.ROOT, "space reduction due to 4K zero blocks %.3g%%",
                total == 0 ? 0.0 : r.zeroBytes() * 100.0 / total));
        double secs = r.nanos() / 1e9;
        ctx.err().println(String.format(Locale.ROOT,
                "restore: writes=%s direct=%s write-zeroes=%s requests=%d avg-request=%.0f written=%d seconds=%.3f"
                        + " MiB/s=%.1f", WriteMode.parse(writes).cliName(), direct ? "yes" : "no",
                writeZeroes ? "yes" : "no", r.writeRequests(), r.averageRequest(), r.writtenBytes(), secs,
                secs <= 0 ? 0.0 : total / 1048576.0 / secs));
        ctx.err().flush();
    }

    /** Progress lines as {@code vma extract -v}: {@code progress N% (read B bytes, duration S sec)}. */
    private final class Progress {
        private final long total;
        private final long start = System.nanoTime();
        private long done;
        private int last = -1;

        Progress(long total) {
            this.total = total;
        }

        void advance(long n) {
            done += n;
            int pct = total == 0 ? 100 : (int) (done * 100 / total);
            if (verbose && pct != last) {
                last = pct;
                ctx.err().println("progress " + pct + "% (read " + done + " bytes, duration "
                        + (System.nanoTime() - start) / 1_000_000_000L + " sec)");
            }
        }
    }
}
