package org.jpbs.datastore.verify;

import java.util.List;

/**
 * The result of a verify run: one entry per snapshot, in the order they were verified.
 *
 * @param upid    the task id written into the manifests' {@code verify_state}
 * @param results per snapshot
 */
public record VerifyReport(String upid, List<SnapshotVerifyResult> results) {
    public VerifyReport {
        results = List.copyOf(results);
    }

    /** True if no snapshot failed. */
    public boolean ok() {
        return results.stream().noneMatch(r -> r.state() == SnapshotVerifyResult.State.FAILED);
    }

    /** The snapshots whose outcome could not be written into their manifest (see {@link SnapshotVerifyResult#recordError()}). */
    public List<SnapshotVerifyResult> unrecorded() {
        return results.stream().filter(r -> r.recordError() != null).toList();
    }

    /** The failed snapshots. */
    public List<SnapshotVerifyResult> failed() {
        return results.stream().filter(r -> r.state() == SnapshotVerifyResult.State.FAILED).toList();
    }
}
