package org.jpbs.server.api;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.pipeline.ThreadBudget;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.gc.GarbageCollector;
import org.jpbs.datastore.gc.GcFs;
import org.jpbs.datastore.gc.GcListener;
import org.jpbs.datastore.gc.GcResult;
import org.jpbs.datastore.prune.PruneDecision;
import org.jpbs.datastore.prune.PruneMark;
import org.jpbs.datastore.prune.PruneOptions;
import org.jpbs.datastore.prune.Pruner;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.task.TaskJob;
import org.jpbs.datastore.task.TaskLog;
import org.jpbs.datastore.tuning.ChunkOrder;
import org.jpbs.datastore.tuning.Tuning;
import org.jpbs.datastore.verify.SnapshotVerifyResult;
import org.jpbs.datastore.verify.Verifier;
import org.jpbs.datastore.verify.VerifyOptions;
import org.jpbs.datastore.verify.VerifyReport;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.server.http.ApiException;

/**
 * The jobs {@code jpbs serve} runs for the admin API ({@code docs/gc.md#garbage-collection}, {@code docs/gc.md#prune}, {@code docs/gc.md#verify}):
 * garbage collection with the tuning of the datastore's {@code datastore.cfg} entry, prune of a
 * group or of a namespace tree, and verify of a snapshot, group or namespace tree. Each runs as
 * a task whose UPID is the one recorded in {@code .gc-status} and {@code verify_state}. The
 * parameters were validated by {@link DatastoreJobsApi}; here they are only read. GC and prune
 * hold one slot of the server's {@link ThreadBudget} while they run, verify checks chunks on a lane
 * of it ({@code docs/design.md#thread-budget}).
 */
public final class LocalDatastoreJobs implements DatastoreJobs {
    /** The auth id recorded in the GC status (the API checked the caller's privileges already). */
    private final String authId;
    private final ThreadBudget budget;

    /**
     * @param authId recorded as the GC's owner in {@code .gc-status}, e.g. {@code root@pam}
     * @param budget the server's CPU threads ({@link org.jpbs.server.ServerServices#budget()})
     */
    public LocalDatastoreJobs(String authId, ThreadBudget budget) {
        this.authId = authId;
        this.budget = java.util.Objects.requireNonNull(budget, "budget");
    }

    @Override
    public TaskJob garbageCollection(DatastoreHandle ds) {
        Tuning tuning = Tuning.from(ds.config().tuning());
        return log -> {
            GcResult r;
            try (ThreadBudget.Permit cpu = budget.acquire()) {
                r = new GarbageCollector(ds.datastore(), tuning, GcFs.local(), listener(log), false, authId,
                        log.upid()).run();
            }
            log.record("gc.removed.bytes", r.status().removedBytes());
            log.record("gc.removed.chunks", r.status().removedChunks());
            log.record("gc.pending.chunks", r.status().pendingChunks());
            log.log("Removed garbage: " + r.status().removedBytes() + " bytes, " + r.status().removedChunks()
                    + " chunks; pending " + r.status().pendingChunks() + " chunks");
        };
    }

    /**
     * Prunes one group now and answers the decisions ({@code POST .../prune} without
     * {@code use-task}).
     */
    @Override
    public List<PruneDecision> pruneGroup(DatastoreHandle ds, Map<String, String> params) {
        BackupGroupRef g = group(params);
        try {
            if (ds.datastore().listSnapshots(g).isEmpty()) {
                throw new ApiException(400, "no such group '" + g + "'");
            }
            return Pruner.prune(ds.datastore(), g, pruneOptions(params), bool(params, "dry-run"),
                    ZoneId.systemDefault()).decisions();
        } catch (IOException e) {
            throw new ApiException(500, "prune of group '" + g + "' failed: " + e.getMessage());
        }
    }

    @Override
    public TaskJob prune(DatastoreHandle ds, Map<String, String> params, GroupScope scope) {
        PruneOptions opts = pruneOptions(params);
        boolean dryRun = bool(params, "dry-run");
        boolean oneGroup = params.containsKey("backup-type");
        BackupNamespace ns = namespace(params);
        int maxDepth = maxDepth(params);
        return log -> {
            Datastore store = ds.datastore();
            log.log("Starting prune on datastore '" + ds.config().name() + "', "
                    + (ns.isRoot() ? "root namespace" : "namespace '" + ns + "'") + (dryRun ? " (dry run)" : ""));
            log.log(opts.keepsSomething() ? "retention options: " + opts.describe()
                    : "No prune selection - keeping all files.");
            List<BackupGroupRef> groups = new ArrayList<>();
            if (oneGroup) {
                groups.add(group(params));
            } else {
                for (BackupNamespace n : store.listNamespaces(ns, maxDepth)) {
                    groups.addAll(store.listGroups(n));
                }
            }
            groups.removeIf(g -> !scope.includes(g)); // not named in the log: the caller may not see them
            int removed = 0;
            for (BackupGroupRef g : groups) {
                log.checkAbort();
                log.log("Pruning group " + (g.ns().isRoot() ? "" : g.ns() + ":") + "\"" + g + "\"");
                Pruner.Result r;
                try (ThreadBudget.Permit cpu = budget.acquire()) {
                    r = Pruner.prune(store, g, opts, dryRun, ZoneId.systemDefault());
                }
                for (PruneDecision d : r.decisions()) {
                    String action = d.mark() == PruneMark.REMOVE ? (dryRun ? "would remove" : "remove") : d.mark().text();
                    log.log(action + " " + d.snapshot() + " (" + d.reason() + ")");
                }
                r.warnings().forEach(log::warn);
                removed += r.removed().size();
            }
            log.log("prune done: " + groups.size() + " group(s), " + removed + " snapshot(s) removed");
        };
    }

    @Override
    public TaskJob verify(DatastoreHandle ds, Map<String, String> params, GroupScope scope) {
        boolean ignoreVerified = bool(params, "ignore-verified");
        Integer outdated = params.containsKey("outdated-after") ? Integer.valueOf(params.get("outdated-after")) : null;
        Tuning tuning = Tuning.from(ds.config().tuning());
        BackupNamespace ns = namespace(params);
        int maxDepth = maxDepth(params);
        return log -> {
            Datastore store = ds.datastore();
            List<BackupSnapshotRef> targets = new ArrayList<>();
            if (params.containsKey("backup-time")) {
                targets.add(new BackupSnapshotRef(group(params), Long.parseLong(params.get("backup-time"))));
            } else if (params.containsKey("backup-type")) {
                BackupGroupRef g = group(params);
                if (!Files.isDirectory(store.groupDir(g))) { // PBS: logged, and the task still ends OK
                    log.log("verify datastore '" + ds.config().name() + "'" + (g.ns().isRoot() ? "" : ", namespace '" + g.ns() + "'")
                            + ", group " + g + " - unable to list backups: backup group does not exist");
                }
                targets.addAll(newestFirst(store, g));
            } else {
                scope.limitedTo().ifPresent(who -> log.log("limiting to backups owned by " + who));
                for (BackupNamespace n : store.listNamespaces(ns, maxDepth)) {
                    for (BackupGroupRef g : store.listGroups(n)) {
                        if (!scope.includes(g)) {
                            continue; // not named in the log: the caller may not see it
                        }
                        targets.addAll(newestFirst(store, g));
                    }
                }
            }
            log.log("verify datastore " + ds.config().name() + ": " + targets.size() + " snapshot(s)");
            VerifyOptions opts = new VerifyOptions(ignoreVerified, outdated, tuning.threads(), tuning.chunkOrder(),
                    Instant.now());
            VerifyReport report;
            try (Verifier v = new Verifier(store, opts, authId, new Verifier.Listener() {
                @Override
                public void info(String line) {
                    log.log(line);
                }

                @Override
                public void warn(String line) {
                    log.warn(line);
                }

                @Override
                public void snapshotDone(SnapshotVerifyResult r) {
                    switch (r.state()) {
                        case OK -> log.log("verified " + r.snapshot() + ": ok (" + r.chunks() + " chunks)");
                        case SKIPPED -> log.log("SKIPPED: " + r.snapshot() + " (" + r.skipReason() + ")");
                        case FAILED -> r.problems().forEach(p -> log.warn(r.snapshot() + ": " + p));
                    }
                }
            }, log.upid(), budget.lane("verify", opts.threads()))) {
                report = v.verify(targets);
            }
            long failed = report.results().stream().filter(r -> r.state() == SnapshotVerifyResult.State.FAILED).count();
            if (failed > 0) {
                throw new IOException("verification failed on " + failed + " snapshot(s)");
            }
            if (!report.unrecorded().isEmpty()) {
                throw new IOException("verify state of " + report.unrecorded().size() + " snapshot(s) could not be recorded");
            }
            log.log("verify ok");
        };
    }

    private static List<BackupSnapshotRef> newestFirst(Datastore store, BackupGroupRef g) throws IOException {
        List<BackupSnapshotRef> refs = new ArrayList<>();
        store.listSnapshots(g).forEach(s -> refs.add(s.ref()));
        refs.sort(Comparator.comparingLong(BackupSnapshotRef::time).reversed());
        return refs;
    }

    private static int maxDepth(Map<String, String> p) {
        return p.containsKey("max-depth") ? Integer.parseInt(p.get("max-depth")) : BackupNamespace.MAX_DEPTH;
    }

    private static BackupNamespace namespace(Map<String, String> p) {
        String ns = p.get("ns");
        return ns == null || ns.isEmpty() ? BackupNamespace.ROOT : BackupNamespace.parse(ns);
    }

    private static BackupGroupRef group(Map<String, String> p) {
        BackupType type = ApiParams.backupType("backup-type", p.get("backup-type"));
        return new BackupGroupRef(namespace(p), type, p.get("backup-id"));
    }

    private static PruneOptions pruneOptions(Map<String, String> p) {
        return new PruneOptions(keep(p, "keep-last"), keep(p, "keep-hourly"), keep(p, "keep-daily"),
                keep(p, "keep-weekly"), keep(p, "keep-monthly"), keep(p, "keep-yearly"));
    }

    private static Integer keep(Map<String, String> p, String k) {
        String v = p.get(k);
        return v == null ? null : Integer.valueOf(v);
    }

    private static boolean bool(Map<String, String> p, String k) {
        String v = p.get(k);
        return v != null && ApiParams.parseBool(k, v); // validated by DatastoreJobsApi
    }

    private static GcListener listener(TaskLog log) {
        return new GcListener() {
            @Override
            public void info(String line) {
                log.log(line);
            }

            @Override
            public void warning(String line) {
                log.warn(line);
            }
        };
    }
}
