package org.jpbs.datastore.gc;

import org.jpbs.core.api.BackupGroupRef;

/**
 * Receives what a garbage collection does: messages for the task log, progress, and hooks at
 * fixed points (tests use them to interleave backups and prunes deterministically). Called
 * from the thread running {@link GarbageCollector#run()} unless noted; implementations must be
 * quick. Every method has an empty default.
 */
public interface GcListener {
    /** The phases, in order. */
    enum Phase { SAFETY_CHECK, MARK, SWEEP }

    /** An informational line (the task log). */
    default void info(String line) {}

    /** A warning (e.g. a missing chunk); GC continues. May be called from marking threads. */
    default void warning(String line) {}

    /** A phase begins. */
    default void phaseStarted(Phase phase) {}

    /** A phase has ended successfully (for MARK: every touch is done; SWEEP has not begun). */
    default void phaseFinished(Phase phase) {}

    /**
     * Mark phase: the group's snapshots have been listed and are about to be marked.
     *
     * @param attempt 0, or the number of restarts of this group after its newest snapshot vanished
     */
    default void groupListed(BackupGroupRef group, int attempt) {}

    /**
     * Progress of a phase: {@code done} out of {@code total} units (mark: index files; sweep:
     * chunk directories). May be called from worker threads.
     */
    default void progress(Phase phase, long done, long total) {}
}
