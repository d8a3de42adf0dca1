package org.jpbs.datastore.verify;

import java.util.List;
import org.jpbs.core.api.BackupSnapshotRef;

/**
 * The result for one snapshot.
 *
 * @param snapshot     the snapshot
 * @param state        ok, failed or skipped
 * @param skipReason   why it was skipped (null unless skipped)
 * @param problems     what is wrong (empty if ok)
 * @param chunks       chunks checked in this snapshot (not counting ones already verified in this run)
 * @param bytesRead    bytes of chunk files read
 * @param bytesDecoded plaintext bytes of unencrypted chunks
 * @param recordError  why the outcome could not be written into the manifest's {@code verify_state}
 *                     (e.g. {@code "No space left on device"}), naming the manifest; null if it was
 *                     written (or nothing was to be written: skipped, manifest unreadable)
 */
public record SnapshotVerifyResult(BackupSnapshotRef snapshot, State state, String skipReason,
                                   List<VerifyProblem> problems, long chunks, long bytesRead, long bytesDecoded,
                                   String recordError) {
    /** Outcome of one snapshot. */
    public enum State { OK, FAILED, SKIPPED }

    public SnapshotVerifyResult {
        problems = List.copyOf(problems);
    }

    /** A result whose state was recorded (or had nothing to record). */
    public SnapshotVerifyResult(BackupSnapshotRef snapshot, State state, String skipReason,
                                List<VerifyProblem> problems, long chunks, long bytesRead, long bytesDecoded) {
        this(snapshot, state, skipReason, problems, chunks, bytesRead, bytesDecoded, null);
    }
}
