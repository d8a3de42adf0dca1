package org.jpbs.cli.vma;

import org.jpbs.cli.UsageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.local.BlockDevices;
import org.jpbs.vma.VmaCreator;
import org.jpbs.vma.VmaWriter;
import org.jpbs.vma.format.Vma;
import org.jpbs.vma.stream.Compression;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs vma create OUT [-c CONFIG]... -d NAME=PATH...}: a VMA archive of disk images
 * (files or block devices) and config files, as {@code vma create} ({@code docs/vma.md#the-vma-tool}). Images are read one after the other; all-zero 4 KiB blocks
 * are left out. OUT is written to a temporary name and renamed when complete.
 */
@Command(name = "create", sortOptions = false, description = {"Create an archive from disk images and config files.", "",
    "OUT is a new file (.vma, .vma.zst, .vma.gz or .vma.lzo: compressed",
    "accordingly) or -."})
public final class VmaCreateCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Option(names = {"-c", "--config"}, paramLabel = "CONFIG",
            description = "A config file to store under its file name (at most 65535 bytes); repeatable.")
    List<Path> configs = new ArrayList<>();

    @Option(names = {"-d", "--device"}, paramLabel = "[format=raw:]NAME=PATH", required = true,
            description = "A disk image (file or block device) stored as device NAME, e.g. drive-scsi0=/dev/vg/vm-100-disk-0; repeatable.")
    List<String> devices = new ArrayList<>();

    @Option(names = "--compress", paramLabel = "ALG",
            description = "none, zstd, gzip or lzo (default: from the name of OUT; none for -).")
    String compress;

    @Option(names = "--interleave", paramLabel = "N", defaultValue = "1",
            description = "Write the clusters of N 1 MiB copy tasks round-robin, as a live QEMU backup with N workers does (default: ${DEFAULT-VALUE}, in order).")
    int interleave;

    @Option(names = "--uuid", paramLabel = "UUID", description = "Archive uuid (default: random).")
    UUID uuid;

    @Option(names = "--ctime", paramLabel = "EPOCH", description = "Creation time in seconds since 1970 (default: now).")
    Long ctime;

    @Option(names = {"-v", "--verbose"}, description = "Print progress and a summary per image on stderr.")
    boolean verbose;

    @Parameters(index = "0", paramLabel = "OUT", description = "The new archive, or - for standard output.")
    String out;

    /** Creates the command; {@code ctx} gives its streams. */
    public VmaCreateCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    private record Source(String name, Path path, long size) {}

    @Override
    public Integer call() throws Exception {
        Compression c = compress == null ? null : Compression.parse(compress);
        VmaCreator creator;
        try {
            creator = new VmaCreator().interleave(interleave);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--interleave: " + e.getMessage(), e);
        }
        List<byte[]> configData = new ArrayList<>();
        for (Path p : configs) {
            if (!Files.isRegularFile(p)) {
                throw new NoSuchFileException(p.toString(), null, "config file not found");
            }
            long size = Files.size(p);
            if (size > Vma.MAX_BLOB_SIZE) {
                throw new IllegalArgumentException("config " + p + " is " + size
                        + " bytes; a VMA archive stores configs of at most " + Vma.MAX_BLOB_SIZE + " bytes");
            }
            configData.add(Files.readAllBytes(p));
        }
        List<Source> sources = new ArrayList<>();
        for (String d : devices) {
            sources.add(parseDevice(d));
        }
        long time = ctime != null ? ctime : Instant.now().getEpochSecond();
        try (ArchiveOutput target = ArchiveOutput.open(out, c, ctx.rawOut())) {
            VmaWriter w = new VmaWriter(target.stream(), uuid != null ? uuid : UUID.randomUUID(), time);
            for (int i = 0; i < configs.size(); i++) {
                try {
                    w.addConfig(configs.get(i).getFileName().toString(), configData.get(i));
                } catch (IllegalArgumentException e) {
                    throw new UsageException("-c " + configs.get(i) + ": " + e.getMessage(), e);
                }
            }
            List<Integer> ids = new ArrayList<>();
            for (Source s : sources) {
                try {
                    ids.add(w.addDevice(s.name(), s.size()));
                } catch (IllegalArgumentException e) {
                    throw new UsageException("-d " + s.name() + "=" + s.path() + ": " + e.getMessage(), e);
                }
            }
            long total = sources.stream().mapToLong(Source::size).sum();
            long[] done = {0};
            int[] lastPct = {-1};
            long start = System.nanoTime();
            for (int i = 0; i < sources.size(); i++) {
                Source s = sources.get(i);
                long zeroBefore = w.zeroBytes();
                try (FileChannel in = FileChannel.open(s.path(), StandardOpenOption.READ)) {
                    creator.writeDevice(w, ids.get(i), in, s.size(), s.path().toString(), n -> {
                        done[0] += n;
                        int pct = total == 0 ? 100 : (int) (done[0] * 100 / total);
                        if (verbose && pct != lastPct[0]) {
                            lastPct[0] = pct;
                            ctx.err().println("progress " + pct + "% " + done[0] + "/" + total + " " + w.zeroBytes());
                        }
                    });
                }
                if (verbose) {
                    long zeros = w.zeroBytes() - zeroBefore;
                    ctx.err().println(String.format(Locale.ROOT, "image %s: size=%d zeros=%d saved=%d", s.name(), s.size(),
                            zeros, zeros));
                }
            }
            w.finish();
            target.commit();
            if (verbose) {
                ctx.err().println(String.format(Locale.ROOT, "archive %s: %d bytes uncompressed (%s), %d extents, %.2f s",
                        target.description(), w.bytesWritten(), target.compression().cliName(), w.extentsWritten(),
                        (System.nanoTime() - start) / 1e9));
            }
        }
        return 0;
    }

    /** Parses {@code [format=raw:]NAME=PATH} and finds the image size. */
    private static Source parseDevice(String spec) throws IOException {
        String s = spec;
        if (s.startsWith("format=")) {
            int colon = s.indexOf(':');
            String fmt = colon < 0 ? "" : s.substring("format=".length(), colon);
            if (!fmt.equals("raw")) {
                throw new UsageException("-d " + spec + ": only format=raw images can be read (got '" + fmt + "')");
            }
            s = s.substring(colon + 1);
        }
        int eq = s.indexOf('=');
        if (eq <= 0 || eq == s.length() - 1) {
            throw new UsageException("-d " + spec + ": expected NAME=PATH, e.g. drive-scsi0=/path/to/disk.raw");
        }
        String name = s.substring(0, eq);
        Path path = Path.of(s.substring(eq + 1));
        if (!Files.exists(path)) {
            throw new NoSuchFileException(path.toString());
        }
        if (Files.isDirectory(path)) {
            throw new IllegalArgumentException("-d " + spec + ": " + path + " is a directory");
        }
        return new Source(name, path, BlockDevices.size(path));
    }
}
