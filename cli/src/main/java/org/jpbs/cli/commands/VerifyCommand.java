package org.jpbs.cli.commands;

import org.jpbs.cli.UsageException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.tuning.Tuning;
import org.jpbs.datastore.verify.SnapshotVerifyResult;
import org.jpbs.datastore.verify.Verifier;
import org.jpbs.datastore.verify.VerifyOptions;
import org.jpbs.datastore.verify.VerifyProblem;
import org.jpbs.datastore.verify.VerifyReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs verify [SNAPSHOT] [--ignore-verified] [--outdated-after DAYS]}: verifies one
 * snapshot, a group's snapshots ({@code type/id}) or, without argument, every snapshot of the
 * datastore ({@code docs/gc.md#verify}). Prints one line per snapshot (ok, failed,
 * skipped) to stdout — with {@code -q} only the failed ones — and each problem to stderr; exits
 * 1 if any snapshot failed.
 */
@Command(name = "verify", description = {"Check the chunks and files of snapshots, locally or on a server.",
        "On a local datastore a corrupt chunk is renamed to end in .bad."})
public final class VerifyCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    RepositoryOptions repo;

    @Mixin
    OutputOptions output;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SNAPSHOT",
            description = "type/id/time, or a group type/id for all its snapshots; default: every snapshot.")
    String snapshot;

    @Option(names = "--ns", paramLabel = "NS", description = "Namespace of SNAPSHOT (default: root); without SNAPSHOT: this namespace and those below it.")
    String ns;

    @Mixin
    OutputFormatOption format;

    @Option(names = "--ignore-verified", description = "Skip snapshots verified before (see --outdated-after).")
    boolean ignoreVerified;

    @Option(names = "--outdated-after", paramLabel = "DAYS",
            description = "With --ignore-verified: verify again if the last verification is older than DAYS days.")
    Integer outdatedAfter;

    @Option(names = "--chunk-order", paramLabel = "ORDER", description = "inode (default) or none.")
    String chunkOrder;

    @Option(names = "--threads", paramLabel = "N", description = "Parallel chunk readers (default: 4).")
    Integer threads;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public VerifyCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        format.format(ctx); // a bad --output-format is a usage error before anything runs
        if (outdatedAfter != null && outdatedAfter < 0) {
            throw new UsageException("--outdated-after must be >= 0 days, got " + outdatedAfter);
        }
        if (repo.isRemote(ctx)) {
            if (chunkOrder != null || threads != null) {
                throw new UsageException("--chunk-order and --threads work on a local datastore only");
            }
            try (org.jpbs.client.remote.PbsClient pbs = repo.client(ctx)) {
                return RemoteJobs.verify(ctx, pbs, Snapshots.namespace(ns), snapshot, ignoreVerified, outdatedAfter,
                        format, output);
            }
        }
        TuningOptions to = new TuningOptions();
        to.chunkOrder = chunkOrder;
        to.threads = threads;
        Tuning tuning = to.toTuning();
        VerifyOptions opts = new VerifyOptions(ignoreVerified, outdatedAfter, tuning.threads(), tuning.chunkOrder(),
                Instant.now());
        Datastore ds = repo.open(ctx, false, Operation.WRITE);
        VerifyReport report;
        try (Verifier v = new Verifier(ds, opts, "root@pam", new Verifier.Listener() {
            @Override
            public void snapshotDone(SnapshotVerifyResult r) {
                print(r);
            }
        })) {
            BackupNamespace n = Snapshots.namespace(ns);
            if (!n.isRoot() && !ds.namespaceExists(n)) {
                throw new IllegalArgumentException("--ns: namespace '" + n + "' not found in " + ds.root());
            }
            if (snapshot == null) {
                report = v.verifyNamespace(n);
            } else {
                List<BackupSnapshotRef> refs;
                if (snapshot.chars().filter(c -> c == '/').count() == 1) {
                    var g = Snapshots.group(n, snapshot);
                    refs = ds.listSnapshots(g).stream().map(s -> s.ref()).sorted(
                            java.util.Comparator.comparingLong(BackupSnapshotRef::time).reversed()).toList();
                    if (refs.isEmpty()) {
                        throw new IllegalArgumentException("group " + Snapshots.describe(g) + " has no snapshots");
                    }
                } else {
                    BackupSnapshotRef ref = Snapshots.resolve(ds, n, snapshot);
                    if (!java.nio.file.Files.isDirectory(ds.snapshotDir(ref))) {
                        throw new IllegalArgumentException("snapshot " + Snapshots.describe(ref) + " not found");
                    }
                    refs = List.of(ref);
                }
                report = v.verify(refs);
            }
        }
        long ok = report.results().stream().filter(r -> r.state() == SnapshotVerifyResult.State.OK).count();
        long skipped = report.results().stream().filter(r -> r.state() == SnapshotVerifyResult.State.SKIPPED).count();
        int failed = report.failed().size();
        if (!format.renderer(ctx).isText()) {
            var o = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            o.put("upid", report.upid());
            o.put("exitstatus", failed > 0 ? failed + " snapshot(s) failed verification" : "OK");
            format.renderer(ctx).json(o);
        }
        output.info(ctx, "verified " + report.results().size() + " snapshot(s): " + ok + " ok, " + failed + " failed, "
                + skipped + " skipped (task " + report.upid() + ")");
        if (failed > 0) {
            throw new IllegalStateException(failed + " snapshot(s) failed verification: "
                    + String.join(", ", report.failed().stream().map(r -> Snapshots.describe(r.snapshot())).toList()));
        }
        int unrecorded = report.unrecorded().size();
        if (unrecorded > 0) {
            throw new IllegalStateException("verify state of " + unrecorded + " snapshot(s) could not be recorded"
                    + " (the results above stand; free space on the datastore and verify again)");
        }
        return 0;
    }

    private void print(SnapshotVerifyResult r) {
        String state = switch (r.state()) {
            case OK -> "ok";
            case FAILED -> "FAILED";
            case SKIPPED -> "skipped (" + r.skipReason() + ")";
        };
        if (output.verbose() || r.state() == SnapshotVerifyResult.State.FAILED) { // -q: only failures
            // with a JSON format stdout carries only the JSON: the lines go to stderr
            java.io.PrintStream o = format.renderer(ctx).isText() ? ctx.out() : ctx.err();
            o.println(Snapshots.describe(r.snapshot()) + ": " + state);
            o.flush();
        }
        for (VerifyProblem p : r.problems()) {
            String where = p.archive() == null ? "" : "/" + p.archive();
            String msg = p.message();
            String echo = r.snapshot() + where + ": "; // the message may already start with the file
            if (msg.startsWith(echo)) {
                msg = msg.substring(echo.length());
            }
            ctx.err().println("jpbs: " + Snapshots.describe(r.snapshot()) + where + ": " + msg);
        }
        if (r.recordError() != null) { // printed even with -q: the result is not kept
            ctx.err().println("jpbs: warning: " + r.recordError());
        }
        ctx.err().flush();
    }
}
