package org.jpbs.datastore.prune;

import java.io.IOException;
import java.nio.file.Files;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotInfo;

/**
 * Prunes one group ({@code docs/gc.md#prune}): plans with {@link PrunePlanner},
 * then removes the {@code remove} snapshots oldest first with {@link Datastore#removeSnapshot}
 * (which removes the group once its last snapshot is gone). A removal that fails is a warning,
 * never an error, as in PBS. The newest finished snapshot, which a running backup may use as
 * its base, is always kept by the rules (every rule keeps the newest period first).
 */
public final class Pruner {
    private Pruner() {}

    /**
     * What a prune did.
     *
     * @param decisions    one per snapshot, oldest first
     * @param removed      the snapshots actually removed (none on a dry run)
     * @param warnings     removals that failed or were skipped
     * @param groupRemoved true if the group directory is gone afterwards (not on a dry run)
     */
    public record Result(List<PruneDecision> decisions, List<BackupSnapshotRef> removed, List<String> warnings,
                         boolean groupRemoved) {}

    /**
     * Prunes the group.
     *
     * @param dryRun only plan
     * @param zone   time zone of the period keys (the local zone, as PBS)
     * @throws IOException if the group cannot be listed
     */
    public static Result prune(Datastore ds, BackupGroupRef group, PruneOptions options, boolean dryRun, ZoneId zone)
            throws IOException {
        List<SnapshotInfo> snapshots = ds.listSnapshots(group);
        List<PruneDecision> decisions = PrunePlanner.plan(snapshots, options, zone);
        List<BackupSnapshotRef> removed = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        if (dryRun) {
            return new Result(decisions, removed, warnings, false);
        }
        for (PruneDecision d : decisions) {
            if (d.mark() != PruneMark.REMOVE) {
                continue;
            }
            try {
                ds.removeSnapshot(d.snapshot());
                removed.add(d.snapshot());
            } catch (IOException e) {
                warnings.add("failed to remove dir " + ds.snapshotDir(d.snapshot()) + ": " + e.getMessage());
            }
        }
        return new Result(decisions, removed, warnings, !Files.exists(ds.groupDir(group)));
    }
}
