package org.jpbs.datastore.prune;

import org.jpbs.core.api.BackupSnapshotRef;

/**
 * The verdict on one snapshot.
 *
 * @param snapshot the snapshot
 * @param mark     keep, keep-partial, protected or remove
 * @param reason   why, e.g. {@code "keep-daily 2/7"} (the rule and the period's position),
 *                 {@code "protected"}, {@code "keep-all"} (no option set), {@code "unfinished, newest"},
 *                 {@code "older in the same daily period"}, {@code "not selected"}
 */
public record PruneDecision(BackupSnapshotRef snapshot, PruneMark mark, String reason) {}
