package org.jpbs.datastore.gc;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.lock.DatastoreLock;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.os.FileStat;
import org.jpbs.datastore.os.TaskIds;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.WriterReferences;
import org.jpbs.datastore.tuning.Tuning;

/**
 * One garbage collection of a datastore (spec {@code pbs-datastore-ops.md} §1), safe next to
 * running backups:
 * <ol>
 * <li>takes {@link DatastoreLock#forGc}: fails at once if another process holds the datastore
 *     lock (a backup, a sync, another GC), coexists with writers of this JVM;</li>
 * <li>cutoff: {@code minAtime = start - gc-atime-cutoff}, or the start of the oldest writer of
 *     this JVM minus 5 minutes if that is earlier; chunks touched since then survive;</li>
 * <li>the {@link AtimeSafetyCheck} (unless disabled): aborts before anything is changed if the
 *     file system ignores atime updates;</li>
 * <li>phase 1 {@link MarkPhase}, with the {@link ChunkPrefetcher} alongside if enabled; any
 *     error (permission denied, unreadable index) aborts here, before anything is removed;</li>
 * <li>removes stale {@code <group>/.tmp-*} directories of killed backups (mtime older than
 *     {@code minAtime}, no writer of this JVM on the group; writers of other processes cannot
 *     exist while GC holds the lock);</li>
 * <li>phase 2 {@link SweepPhase};</li>
 * <li>writes {@code .gc-status} (errors are only a warning, as in PBS).</li>
 * </ol>
 * A dry run marks (atime updates are harmless) but removes nothing and writes no status.
 */
public final class GarbageCollector {
    /** Writers older than the cutoff keep what they touched since they started, with this margin. */
    public static final Duration WRITER_MARGIN = Duration.ofMinutes(5);

    private final Datastore ds;
    private final Tuning tuning;
    private final GcFs fs;
    private final GcListener listener;
    private final boolean dryRun;
    private final String authId;
    private final Upid taskUpid;

    /**
     * @param ds       the datastore
     * @param tuning   cutoff, cache, prefetch, order, threads
     * @param fs       file system layer ({@link GcFs#local()} outside tests)
     * @param listener log lines, progress and hooks
     * @param dryRun   remove nothing, write no status
     * @param authId   who runs it, for the task id (e.g. {@code root@pam})
     */
    public GarbageCollector(Datastore ds, Tuning tuning, GcFs fs, GcListener listener, boolean dryRun, String authId) {
        this(ds, tuning, fs, listener, dryRun, authId, null);
    }

    /**
     * As {@link #GarbageCollector(Datastore, Tuning, GcFs, GcListener, boolean, String)}, for a GC
     * that runs as a task: {@code upid} (the task's id) is recorded in {@code .gc-status}; null
     * makes a fresh one.
     */
    public GarbageCollector(Datastore ds, Tuning tuning, GcFs fs, GcListener listener, boolean dryRun, String authId,
                            Upid upid) {
        this.taskUpid = upid;
        this.ds = Objects.requireNonNull(ds, "ds");
        this.tuning = Objects.requireNonNull(tuning, "tuning");
        this.fs = Objects.requireNonNull(fs, "fs");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.dryRun = dryRun;
        this.authId = Objects.requireNonNull(authId, "authId");
    }

    /**
     * Runs the garbage collection.
     *
     * @throws org.jpbs.datastore.lock.LockedException if another process or GC holds the datastore lock
     * @throws IOException                             {@code "cannot continue garbage-collection safely,
     *                                                 permission denied on <path>"} (nothing removed), the
     *                                                 atime safety check failed (nothing removed), an index
     *                                                 cannot be read, or a chunk cannot be removed
     */
    public GcResult run() throws IOException {
        Path root = ds.root();
        try (DatastoreLock lock = DatastoreLock.forGc(root);
             WriterReferences.Epoch epoch = WriterReferences.openEpoch(root)) {
            Instant start = Instant.now();
            String store = root.getFileName() == null ? "" : root.getFileName().toString();
            Upid upid = taskUpid != null ? taskUpid : TaskIds.next("garbage_collection", store, authId, start.getEpochSecond());
            Instant oldestWriter = DatastoreLock.oldestSharedSince(root).orElse(start);
            if (oldestWriter.isAfter(start)) {
                oldestWriter = start;
            }
            Instant minAtime = minAtime(start, tuning.gcAtimeCutoff(), oldestWriter);
            // as a server task (PBS: "starting garbage collection on store NAME"), the store's name; locally its path
            listener.info((taskUpid != null ? "starting garbage collection on store " + taskUpid.workerId()
                    : "starting garbage collection on datastore " + root) + (dryRun ? " (dry run)" : ""));
            listener.info("task " + upid);
            listener.info("cutoff: chunks with atime before " + minAtime + " are removed"
                    + (oldestWriter.equals(start) ? "" : " (oldest running backup started " + oldestWriter + ")"));

            long t = System.nanoTime();
            if (tuning.gcAtimeSafetyCheck()) {
                listener.phaseStarted(GcListener.Phase.SAFETY_CHECK);
                AtimeSafetyCheck.run(fs, ds.chunkStore(), start, listener);
                listener.phaseFinished(GcListener.Phase.SAFETY_CHECK);
            }
            long checkNanos = System.nanoTime() - t;

            listener.phaseStarted(GcListener.Phase.MARK);
            listener.info("Start GC phase1 (mark used chunks)");
            t = System.nanoTime();
            MarkPhase.Result mark;
            long prefetched = 0;
            ChunkPrefetcher prefetch = tuning.gcChunkMetadataPrefetch()
                    ? new ChunkPrefetcher(fs, root.resolve(".chunks"), tuning.threads(),
                            tuning.chunkOrder() == org.jpbs.datastore.tuning.ChunkOrder.INODE)
                    : null;
            try {
                mark = new MarkPhase(fs, root, tuning, listener).run(epoch);
            } finally {
                if (prefetch != null) {
                    prefetch.close();
                    prefetched = prefetch.statted();
                }
            }
            long markNanos = System.nanoTime() - t;
            listener.phaseFinished(GcListener.Phase.MARK);

            long removedTempDirs = removeStaleTempDirs(mark, minAtime);

            listener.phaseStarted(GcListener.Phase.SWEEP);
            listener.info("Start GC phase2 (sweep unused chunks)");
            t = System.nanoTime();
            SweepPhase.Result sweep = new SweepPhase(fs, ds.chunkStore(), minAtime, oldestWriter, dryRun, listener)
                    .run(tuning.threads());
            long sweepNanos = System.nanoTime() - t;
            listener.phaseFinished(GcListener.Phase.SWEEP);

            GcStatus status = new GcStatus(upid.toString(), mark.indexFiles(), mark.indexDataBytes(),
                    sweep.diskBytes(), sweep.diskChunks(), sweep.removedBytes(), sweep.removedChunks(),
                    sweep.pendingBytes(), sweep.pendingChunks(), sweep.removedBad(), sweep.stillBad());
            if (!dryRun) {
                try {
                    AtomicFiles.replaceFile(root.resolve(GcStatus.FILE), status.toJson(), false);
                } catch (IOException e) {
                    listener.warning("could not write " + root.resolve(GcStatus.FILE) + ": " + e.getMessage());
                }
            }
            return new GcResult(status, dryRun, start, minAtime, oldestWriter, mark.indexEntries(), mark.cacheHits(),
                    mark.cacheMisses(), mark.touches(), mark.missing(), mark.strange(), removedTempDirs,
                    sweep.removedTempFiles(), sweep.entries(), prefetched, checkNanos, markNanos, sweepNanos);
        }
    }

    /**
     * The sweep cutoff (spec {@code pbs-datastore-ops.md} §1.2): {@code start - cutoff}, or
     * {@code oldestWriter - 5 min} if the oldest running writer started before that.
     */
    static Instant minAtime(Instant start, Duration cutoff, Instant oldestWriter) {
        Instant min = start.minus(cutoff);
        return oldestWriter.isBefore(min) ? oldestWriter.minus(WRITER_MARGIN) : min;
    }

    /** Removes {@code .tmp-*} snapshot directories older than the cutoff that no backup writer or removal (any process) holds. */
    private long removeStaleTempDirs(MarkPhase.Result mark, Instant minAtime) throws IOException {
        long removed = 0;
        for (Path dir : mark.tempDirs()) {
            if (org.jpbs.datastore.snapshot.Datastore.isTempDirInUse(dir)) {
                continue; // a backup is writing into this group, or a removal is deleting it
            }
            FileStat st;
            try {
                st = fs.stat(dir);
            } catch (NoSuchFileException e) {
                continue;
            }
            if (!st.directory() || st.mtimeSec() >= minAtime.getEpochSecond()) {
                continue;
            }
            if (!dryRun) {
                fs.deleteTree(dir);
            }
            removed++;
            listener.info((dryRun ? "would remove" : "removed") + " stale temporary snapshot directory " + dir);
        }
        return removed;
    }
}
