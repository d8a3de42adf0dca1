package org.jpbs.jobs.sync;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.snapshot.SnapshotTarget;
import org.jpbs.core.traffic.RateLimiter;
import org.jpbs.datastore.lock.LockedException;
import org.jpbs.datastore.task.TaskAbortedException;
import org.jpbs.datastore.task.TaskLog;

/**
 * One run of a sync ({@code docs/sync.md}): walks the source's namespaces (top and
 * {@code max-depth} levels below), the groups the filters allow and their finished snapshots,
 * and copies each snapshot the target lacks ({@link SnapshotCopier}), oldest first; a group's
 * snapshots older than the target's newest are skipped, as PBS does. A group that fails (e.g.
 * locked on the target: a warning) does not stop the others; the run fails at the end if any
 * group or snapshot failed.
 */
public final class SyncJob {
    private final SyncEndpoint source;
    private final SyncEndpoint target;
    private final SyncOptions o;
    private final TaskLog log;
    private final SnapshotCopier copier;
    private final SyncStats stats = new SyncStats();
    private java.util.function.Predicate<BackupGroupRef> readable = g -> true;
    private TargetPrivileges targetPrivileges = TargetPrivileges.ALL;

    /**
     * @param workers          threads checking chunks
     * @param fetchConcurrency chunk reads in flight
     */
    public SyncJob(SyncEndpoint source, SyncEndpoint target, SyncOptions options, TaskLog log, int workers,
                   int fetchConcurrency) {
        this.source = source;
        this.target = target;
        this.o = options;
        this.log = log;
        this.copier = new SnapshotCopier(workers, fetchConcurrency, RateLimiter.of(options.rate(), options.burst()));
    }

    /**
     * Sends only the source groups {@code readable} allows (a push job's owner may read them);
     * the others are skipped with a log line, and never count as vanished.
     */
    public SyncJob readableGroups(java.util.function.Predicate<BackupGroupRef> readable) {
        this.readable = java.util.Objects.requireNonNull(readable, "readable");
        return this;
    }

    /**
     * A push checks these privileges on the target before creating a namespace there
     * ({@link TargetPrivileges#MODIFY}: else that namespace's sync fails) and before removing
     * what vanished (as PBS: a vanished group or snapshot needs {@link TargetPrivileges#PRUNE}, a
     * namespace {@link TargetPrivileges#MODIFY}); what it may not remove stays, with a warning.
     */
    public SyncJob targetPrivileges(TargetPrivileges privileges) {
        this.targetPrivileges = java.util.Objects.requireNonNull(privileges, "privileges");
        return this;
    }

    /** Null if allowed (or a pull), else why not: {@code "<what> not allowed - <missing privilege>"}. */
    private String denied(BackupNamespace tns, String privilege, String what) {
        if (!o.push()) {
            return null;
        }
        try {
            targetPrivileges.require(tns, privilege);
            return null;
        } catch (IOException e) {
            return what + " not allowed - " + e.getMessage();
        }
    }

    /**
     * Runs the sync.
     *
     * @throws IOException if listing the source fails, or (at the end) if any group or snapshot failed
     * @throws TaskAbortedException if the task was asked to stop (the snapshot being copied is left invisible)
     */
    public SyncStats run() throws IOException, TaskAbortedException {
        long start = System.nanoTime();
        log.log("sync datastore " + target.describe() + " from " + source.describe());
        List<BackupNamespace> namespaces = source.namespaces(o.sourceNs(), o.maxDepth());
        log.log("found " + namespaces.size() + " namespace(s) to sync");
        Set<BackupNamespace> synced = new HashSet<>();
        for (BackupNamespace ns : namespaces) {
            log.checkAbort();
            BackupNamespace tns = o.mapNamespace(ns);
            synced.add(tns);
            try {
                if (!target.namespaceExists(tns)) {
                    String no = denied(tns, TargetPrivileges.MODIFY, "Creating namespace"); // a push, as PBS
                    if (no != null) {
                        throw new IOException(no);
                    }
                    target.createNamespace(tns);
                    log.log("created namespace '" + tns + "'");
                }
                syncNamespace(ns, tns);
            } catch (IOException | RuntimeException e) {
                stats.errors.incrementAndGet();
                log.warn("sync namespace '" + ns + "' failed - " + e.getMessage());
            }
        }
        if (o.removeVanished()) {
            removeVanishedNamespaces(synced);
        }
        double secs = (System.nanoTime() - start) / 1e9;
        log.log(String.format("Summary: sync job %s: %s in %.2f s", o.push() ? "push" : "pull", stats, secs));
        // the task's figures for the metrics (docs/metrics.md): what crossed, also of a failed run
        log.record("sync.snapshots", stats.snapshots());
        log.record("sync.chunks", stats.chunks());
        log.record("sync.chunks.reused", stats.reusedChunks());
        log.record("sync.bytes", stats.chunkBytes() + stats.blobBytes());
        if (stats.errors() > 0) {
            throw new IOException("sync failed with some errors (" + stats.errors() + ").");
        }
        return stats;
    }

    private void syncNamespace(BackupNamespace ns, BackupNamespace tns) throws IOException, TaskAbortedException {
        List<BackupGroupRef> all = source.groups(ns);
        List<BackupGroupRef> allowed = all.stream().filter(g -> GroupFilter.allows(o.filters(), g)).toList();
        List<BackupGroupRef> groups = allowed.stream().filter(readable).toList();
        log.log("sync namespace '" + ns + "'" + (ns.equals(tns) ? "" : " into '" + tns + "'") + ": "
                + groups.size() + " group(s)" + (allowed.size() < all.size() ? " (" + (all.size() - allowed.size())
                + " filtered out)" : ""));
        if (groups.size() < allowed.size()) {
            log.log("skipping " + (allowed.size() - groups.size()) + " group(s) in namespace '" + ns
                    + "' the job's owner may not read");
        }
        Set<String> present = new HashSet<>();
        for (BackupGroupRef g : all) {
            present.add(g.toString());
        }
        for (BackupGroupRef g : groups) {
            log.checkAbort();
            BackupGroupRef tg = new BackupGroupRef(tns, g.type(), g.id());
            try {
                syncGroup(g, tg);
            } catch (LockedException e) {
                log.warn("group " + tg + " skipped: " + e.getMessage());
            } catch (IOException | RuntimeException e) {
                stats.errors.incrementAndGet();
                log.warn("sync group " + g + " failed - " + e.getMessage());
            }
        }
        if (o.removeVanished()) {
            for (BackupGroupRef tg : target.groups(tns)) {
                if (!present.contains(tg.toString()) && GroupFilter.allows(o.filters(), tg) && ownedByUs(tg)) {
                    log.log("delete vanished group '" + tg + "'" + (tns.isRoot() ? "" : " in namespace '" + tns + "'"));
                    String no = denied(tns, TargetPrivileges.PRUNE, "Pruning remote datastore contents");
                    if (no != null) {
                        stats.errors.incrementAndGet();
                        log.warn("failed to delete vanished group - " + no);
                        continue;
                    }
                    if (!target.removeGroup(tg)) {
                        log.warn("kept protected snapshots of vanished group '" + tg + "'");
                    }
                    stats.removed.incrementAndGet();
                }
            }
        }
    }

    private boolean ownedByUs(BackupGroupRef tg) throws IOException {
        return o.push() || target.owner(tg).map(o.owner()::equals).orElse(true);
    }

    private void syncGroup(BackupGroupRef g, BackupGroupRef tg) throws IOException, TaskAbortedException {
        if (!o.push()) {
            Optional<String> owner = target.owner(tg);
            if (owner.isPresent() && !owner.get().equals(o.owner())) {
                throw new IOException("owner check failed (" + o.owner() + " != " + owner.get() + ")");
            }
        }
        List<SyncEndpoint.Entry> src = source.snapshots(g);
        List<BackupSnapshotRef> finished = new ArrayList<>();
        int inProgress = 0;
        for (SyncEndpoint.Entry e : src) {
            if (e.finished()) {
                finished.add(e.ref());
            } else {
                inProgress++;
            }
        }
        if (inProgress > 0) {
            log.log("group " + g + ": skipping " + inProgress + " snapshot(s) still being written on the source");
        }
        int first = o.transferLast() > 0 ? Math.max(0, finished.size() - o.transferLast()) : 0;
        if (first > 0) {
            log.log("group " + g + ": transfer-last " + o.transferLast() + ": skipping the " + first + " oldest snapshot(s)");
        }
        Map<Long, Boolean> have = new TreeMap<>();
        for (SyncEndpoint.Entry e : target.snapshots(tg)) {
            have.put(e.ref().time(), e.finished());
        }
        long newest = have.entrySet().stream().filter(Map.Entry::getValue).mapToLong(Map.Entry::getKey).max().orElse(-1);
        int older = 0;
        for (BackupSnapshotRef s : finished.subList(first, finished.size())) {
            log.checkAbort();
            BackupSnapshotRef ts = new BackupSnapshotRef(tg, s.time());
            if (Boolean.TRUE.equals(have.get(s.time()))) {
                if (o.resyncCorrupt() && target.verifyState(ts).filter("failed"::equals).isPresent()) {
                    log.log("re-sync snapshot " + ts + " (its verification failed)");
                    target.removeSnapshot(ts);
                } else {
                    stats.skipped.incrementAndGet();
                    continue;
                }
            } else if (s.time() < newest) {
                older++;
                stats.skipped.incrementAndGet();
                continue;
            }
            copySnapshot(s, ts);
        }
        if (older > 0) {
            log.log("group " + g + ": skipped " + older + " snapshot(s) older than the newest on the target");
        }
        if (o.removeVanished()) {
            Set<Long> srcTimes = new HashSet<>();
            finished.forEach(r -> srcTimes.add(r.time()));
            for (Map.Entry<Long, Boolean> e : have.entrySet()) {
                if (e.getValue() && !srcTimes.contains(e.getKey())) {
                    BackupSnapshotRef ts = new BackupSnapshotRef(tg, e.getKey());
                    String no = denied(tg.ns(), TargetPrivileges.PRUNE, "Pruning remote datastore contents");
                    if (no != null) {
                        log.log("could not delete vanished snapshot " + ts + " - " + no);
                        continue;
                    }
                    log.log("delete vanished snapshot " + ts);
                    target.removeSnapshot(ts);
                    stats.removed.incrementAndGet();
                }
            }
        }
    }

    private void copySnapshot(BackupSnapshotRef s, BackupSnapshotRef ts) throws IOException {
        try (SnapshotSource src = source.openSource(s)) {
            BackupManifest m = src.manifest();
            if (o.encryptedOnly() && !m.files().stream().allMatch(f -> f.cryptMode() == CryptMode.ENCRYPT)) {
                log.log("skipping snapshot " + s + ": not encrypted (encrypted-only)");
                stats.skipped.incrementAndGet();
                return;
            }
            if (o.verifiedOnly() && !"ok".equals(m.unprotected().path("verify_state").path("state").asText())) {
                log.log("skipping snapshot " + s + ": not verified (verified-only)");
                stats.skipped.incrementAndGet();
                return;
            }
            long before = stats.chunks();
            long bytesBefore = stats.chunkBytes();
            long t0 = System.nanoTime();
            log.log("sync snapshot " + ts);
            SnapshotTarget dst = target.begin(ts, o.owner());
            copier.copy(src, dst, target, stats);
            double secs = Math.max(1e-6, (System.nanoTime() - t0) / 1e9);
            long bytes = stats.chunkBytes() - bytesBefore;
            log.log(String.format("sync snapshot %s done: %d file(s), %d new chunk(s), %d bytes (%.2f MiB/s)", ts,
                    m.files().size(), stats.chunks() - before, bytes, bytes / secs / (1 << 20)));
            stats.snapshots.incrementAndGet();
        } catch (LockedException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            stats.errors.incrementAndGet();
            log.warn("sync snapshot " + s + " failed - " + e.getMessage());
        }
    }

    private void removeVanishedNamespaces(Set<BackupNamespace> synced) {
        try {
            List<BackupNamespace> tns = new ArrayList<>(target.namespaces(o.targetNs(), o.maxDepth()));
            tns.sort((a, b) -> b.depth() - a.depth());
            for (BackupNamespace ns : tns) {
                if (ns.isRoot() || synced.contains(ns)) {
                    continue;
                }
                String no = denied(ns, TargetPrivileges.MODIFY, "Pruning remote datastore namespaces");
                if (no != null) {
                    log.warn("failed to remove vanished namespace " + ns + " - " + no);
                    continue;
                }
                if (target.removeNamespace(ns)) {
                    log.log("delete vanished namespace '" + ns + "'");
                    stats.removed.incrementAndGet();
                }
            }
        } catch (IOException | RuntimeException e) {
            log.warn("removing vanished namespaces failed - " + e.getMessage());
        }
    }

    /** The counters so far. */
    public SyncStats stats() {
        return stats;
    }
}
