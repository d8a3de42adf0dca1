package org.jpbs.cli.commands;

import java.util.Locale;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.client.progress.Units;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.gc.GarbageCollector;
import org.jpbs.datastore.gc.GcFs;
import org.jpbs.datastore.gc.GcResult;
import org.jpbs.datastore.gc.GcStatus;
import org.jpbs.datastore.snapshot.Datastore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jpbs gc [--dry-run]}: garbage collection of a local datastore, or on a server (a
 * task started over the API whose log is followed to its end; exit 1 if it failed) ({@code docs/gc.md#garbage-collection}). Log lines, progress and the summary (with PBS's derived
 * values: original and on-disk usage, deduplication factor, average chunk size, cache hits) go
 * to stderr; {@code jpbs gc status} prints the last {@code .gc-status}.
 */
@Command(name = "gc", description = "Remove chunks no snapshot references (garbage collection).",
        subcommands = {GcStatusCommand.class})
public final class GcCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    RepositoryOptions repo;

    @Mixin
    TuningOptions tuning;

    @Mixin
    OutputOptions output;

    @Mixin
    OutputFormatOption format;

    @Option(names = "--dry-run", description = "Mark and count, but remove nothing and write no status (local datastore only).")
    boolean dryRun;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public GcCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        format.format(ctx); // a bad --output-format is a usage error before anything runs
        if (repo.isRemote(ctx)) {
            if (dryRun) {
                throw new org.jpbs.cli.UsageException("--dry-run works on a local datastore only (the server's gc has none)");
            }
            try (org.jpbs.client.remote.PbsClient pbs = repo.client(ctx)) {
                return RemoteJobs.gc(ctx, pbs, format, output);
            }
        }
        Datastore ds = repo.open(ctx, false, Operation.WRITE);
        GcLog log = new GcLog(ctx, output);
        GcResult r;
        try {
            r = new GarbageCollector(ds, tuning.toTuning(), GcFs.local(), log, dryRun, "root@pam").run();
        } finally {
            log.close();
        }
        Renderer out = format.renderer(ctx);
        if (!out.isText()) {
            out.json(r.status().toJsonNode()); // the .gc-status fields, as the API's gc status
            return 0;
        }
        output.info(ctx, summary(r));
        return 0;
    }

    /** The end-of-run summary (PBS's task log lines, plus jpbs's timings). */
    static String summary(GcResult r) {
        GcStatus s = r.status();
        StringBuilder b = new StringBuilder();
        String removed = r.dryRun() ? "Would remove" : "Removed";
        b.append(removed).append(" garbage: ").append(Units.bytes(s.removedBytes())).append('\n');
        b.append(removed).append(" chunks: ").append(s.removedChunks()).append('\n');
        if (s.pendingBytes() > 0) {
            b.append("Pending removals: ").append(Units.bytes(s.pendingBytes())).append(" (in ")
                    .append(s.pendingChunks()).append(" chunks)\n");
        }
        if (s.removedBad() > 0) {
            b.append(removed).append(" bad chunks: ").append(s.removedBad()).append('\n');
        }
        if (s.stillBad() > 0) {
            b.append("Leftover bad chunks: ").append(s.stillBad()).append('\n');
        }
        b.append("Original data usage: ").append(Units.bytes(s.indexDataBytes())).append('\n');
        if (s.indexDataBytes() > 0) {
            b.append(String.format(Locale.ROOT, "On-Disk usage: %s (%.2f%%)%n", Units.bytes(s.diskBytes()),
                    s.diskBytes() * 100.0 / s.indexDataBytes()));
        } else {
            b.append("On-Disk usage: ").append(Units.bytes(s.diskBytes())).append('\n');
        }
        b.append("On-Disk chunks: ").append(s.diskChunks()).append('\n');
        b.append(String.format(Locale.ROOT, "Deduplication factor: %.2f%n", s.deduplicationFactor()));
        if (s.diskChunks() > 0) {
            b.append("Average chunk size: ").append(Units.bytes(s.diskBytes() / s.diskChunks())).append('\n');
        }
        long lookups = r.cacheHits() + r.cacheMisses();
        b.append(String.format(Locale.ROOT, "Chunk cache: %d hits, %d misses (%.1f%% hit ratio)%n", r.cacheHits(),
                r.cacheMisses(), lookups == 0 ? 0.0 : r.cacheHits() * 100.0 / lookups));
        if (r.missingChunks() > 0) {
            b.append("Missing chunks: ").append(r.missingChunks()).append(" (see the warnings)\n");
        }
        if (r.removedTempDirs() + r.removedTempFiles() > 0) {
            b.append(removed).append(" stale temporary files: ").append(r.removedTempDirs())
                    .append(" snapshot directories, ").append(r.removedTempFiles()).append(" chunk files\n");
        }
        b.append(String.format(Locale.ROOT, "Phase 1: %s, %d index entries, %d touches (%.0f chunks/s); "
                        + "phase 2: %s, %d chunk files (%.0f chunks/s)%n",
                Units.seconds(r.markNanos()), r.indexEntries(), r.touches(), rate(r.indexEntries(), r.markNanos()),
                Units.seconds(r.sweepNanos()), r.sweptEntries(), rate(r.sweptEntries(), r.sweepNanos())));
        return b.toString();
    }

    private static double rate(long n, long nanos) {
        return nanos <= 0 ? 0 : n * 1e9 / nanos;
    }
}
