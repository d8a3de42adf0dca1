package org.jpbs.cli.commands;

import org.jpbs.cli.UsageException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.client.progress.Units;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.gc.GcStatus;
import org.jpbs.datastore.snapshot.Datastore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jpbs gc status [--output-format text|json]}: the last garbage collection's result, the
 * datastore's {@code .gc-status} (written by jpbs or PBS). Text: one {@code key: value} line per
 * field; json: the file's JSON object.
 */
@Command(name = "status", description = "Show the result of the last garbage collection.")
public final class GcStatusCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    RepositoryOptions repo;

    @Mixin
    OutputFormatOption format;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public GcStatusCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        Renderer out = format.renderer(ctx);
        Datastore ds = repo.open(ctx, false, Operation.READ);
        Optional<GcStatus> st = GcStatus.read(ds.root());
        if (st.isEmpty()) {
            throw new IllegalStateException("no garbage collection has run on " + ds.root() + " (no "
                    + GcStatus.FILE + ")");
        }
        GcStatus s = st.get();
        if (!out.isText()) {
            out.json(s.toJsonNode());
            return 0;
        }
        String when = "";
        if (s.upid() != null) {
            try {
                when = java.time.Instant.ofEpochSecond(Upid.parse(s.upid()).startTime()).toString();
            } catch (IllegalArgumentException e) {
                when = "";
            }
        }
        List<String[]> rows = List.of(
                new String[] {"upid", s.upid() == null ? "-" : s.upid()},
                new String[] {"started", when.isEmpty() ? "-" : when},
                new String[] {"index-file-count", Long.toString(s.indexFileCount())},
                new String[] {"index-data-bytes", bytes(s.indexDataBytes())},
                new String[] {"disk-bytes", bytes(s.diskBytes())},
                new String[] {"disk-chunks", Long.toString(s.diskChunks())},
                new String[] {"removed-bytes", bytes(s.removedBytes())},
                new String[] {"removed-chunks", Long.toString(s.removedChunks())},
                new String[] {"pending-bytes", bytes(s.pendingBytes())},
                new String[] {"pending-chunks", Long.toString(s.pendingChunks())},
                new String[] {"removed-bad", Long.toString(s.removedBad())},
                new String[] {"still-bad", Long.toString(s.stillBad())},
                new String[] {"deduplication-factor", String.format(Locale.ROOT, "%.2f", s.deduplicationFactor())});
        for (String[] r : rows) {
            ctx.out().printf(Locale.ROOT, "%-21s %s%n", r[0] + ":", r[1]);
        }
        ctx.out().flush();
        return 0;
    }

    private static String bytes(long n) {
        return n + " (" + Units.bytes(n) + ")";
    }
}
