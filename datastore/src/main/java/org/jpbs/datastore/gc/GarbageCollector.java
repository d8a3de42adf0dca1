package org.jpbs.datastore.gc;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.chunks.ChunkStore;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.jpbs.datastore.lock.DatastoreLock;
import org.jpbs.datastore.lock.LockHolders;
import org.jpbs.datastore.lock.LockedException;
import org.jpbs.datastore.lock.WriterRegistry;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.os.FileStat;
import org.jpbs.datastore.os.TaskIds;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.WriterReferences;
import org.jpbs.datastore.tuning.Tuning;

/**
 * One garbage collection of a datastore ({@code docs/gc.md#garbage-collection}), safe next to
 * running backups of any process ({@code docs/gc.md}):
 * <ol>
 * <li>takes the GC mutex ({@link WriterRegistry#lockGc}, one GC over all jpbs processes) and
 *     {@code .lock} shared (excludes a PBS GC); reads the {@link WriterRegistry} and refuses if a
 *     process that is not a registered writer holds {@code .lock} (a PBS backup);</li>
 * <li>cutoff: {@code minAtime = start - 1 s - gc-atime-cutoff}, or the start of the oldest
 *     registered writer minus 5 minutes if that is earlier; chunks touched since then survive;</li>
 * <li>the {@link AtimeSafetyCheck} (unless disabled): aborts before anything is changed if the
 *     file system ignores atime updates;</li>
 * <li>phase 1 {@link MarkPhase}, with the {@link ChunkPrefetcher} alongside if enabled; any
 *     error (permission denied, unreadable index) aborts here, before anything is removed;</li>
 * <li>reads the registry again: a writer registered during phase 1 can only lower the cutoff;</li>
 * <li>removes stale {@code <group>/.tmp-*} directories of killed backups (mtime older than
 *     {@code minAtime}, group lock free) and groups a killed first backup left without any
 *     snapshot;</li>
 * <li>phase 2 {@link SweepPhase};</li>
 * <li>writes {@code .gc-status} (errors are only a warning, as in PBS).</li>
 * </ol>
 * A dry run marks (atime updates are harmless) but removes nothing and writes no status.
 */
public final class GarbageCollector {
    /** Writers older than the cutoff keep what they touched since they started, with this margin. */
    public static final Duration WRITER_MARGIN = Duration.ofMinutes(5);
    /**
     * System property overriding {@link #WRITER_MARGIN} in seconds (at least 1): only for soak
     * tests, whose runs are shorter than 5 minutes and would otherwise never sweep while a backup
     * runs. Writers never touch a chunk before their registered start, so any margin of at least
     * the clock slack keeps their chunks.
     */
    public static final String WRITER_MARGIN_PROPERTY = "jpbs.gc.writerMarginSeconds";
    /**
     * Subtracted from the start time for the cutoff: file timestamps come from the kernel's
     * coarse clock (up to a tick behind the clock GC reads), so a chunk touched just after the
     * start may carry a time just before it. PBS compares whole seconds, which has the same
     * effect in most cases.
     */
    static final Duration CLOCK_SLACK = Duration.ofSeconds(1);

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
     * @throws org.jpbs.datastore.lock.LockedException if another GC runs, a PBS GC holds {@code .lock}, or a
     *                                                 process that is not a registered writer holds it
     * @throws IOException                             {@code "cannot continue garbage-collection safely,
     *                                                 permission denied on <path>"} (nothing removed), the
     *                                                 atime safety check failed (nothing removed), an index
     *                                                 cannot be read, or a chunk cannot be removed
     */
    public GcResult run() throws IOException {
        Path root = ds.root();
        ChunkStore chunks = ds.chunkStore();
        // a directory store is marked and swept through GcFs (atimes, native calls: the fast
        // path); any other store through the ChunkStore interface (docs/gc.md#any-chunk-store)
        DirectoryChunkStore dir = chunks instanceof DirectoryChunkStore d ? d : null;
        try (WriterRegistry.GcLock gcLock = WriterRegistry.lockGc(root);
             DatastoreLock lock = DatastoreLock.shared(root);
             WriterReferences.Epoch epoch = WriterReferences.openEpoch(root)) {
            Instant start = Instant.now();
            String store = root.getFileName() == null ? "" : root.getFileName().toString();
            Upid upid = taskUpid != null ? taskUpid : TaskIds.next("garbage_collection", store, authId, start.getEpochSecond());
            List<WriterRegistry.Entry> writers = WriterRegistry.scan(root);
            refuseUnregisteredHolders(root, writers);
            Instant oldestWriter = oldest(root, start, writers);
            Instant minAtime = minAtime(start.minus(CLOCK_SLACK), tuning.gcAtimeCutoff(), oldestWriter);
            // as a server task (PBS: "starting garbage collection on store NAME"), the store's name; locally its path
            listener.info((taskUpid != null ? "starting garbage collection on store " + taskUpid.workerId()
                    : "starting garbage collection on datastore " + root) + (dryRun ? " (dry run)" : ""));
            listener.info("task " + upid);
            listener.info("cutoff: chunks with atime before " + minAtime + " are removed"
                    + (oldestWriter.equals(start) ? "" : " (oldest running backup started " + oldestWriter + ")"));

            long t = System.nanoTime();
            if (tuning.gcAtimeSafetyCheck() && dir != null) {
                listener.phaseStarted(GcListener.Phase.SAFETY_CHECK);
                AtimeSafetyCheck.run(fs, dir, start, listener);
                listener.phaseFinished(GcListener.Phase.SAFETY_CHECK);
            }
            long checkNanos = System.nanoTime() - t;

            listener.phaseStarted(GcListener.Phase.MARK);
            listener.info("Start GC phase1 (mark used chunks)");
            t = System.nanoTime();
            MarkPhase.Result mark;
            long prefetched = 0;
            ChunkPrefetcher prefetch = tuning.gcChunkMetadataPrefetch() && dir != null
                    ? new ChunkPrefetcher(fs, root.resolve(".chunks"), tuning.threads(),
                            tuning.chunkOrder() == org.jpbs.datastore.tuning.ChunkOrder.INODE)
                    : null;
            try {
                mark = new MarkPhase(fs, root, chunks, tuning, listener).run(epoch);
            } finally {
                if (prefetch != null) {
                    prefetch.close();
                    prefetched = prefetch.statted();
                }
            }
            long markNanos = System.nanoTime() - t;
            listener.phaseFinished(GcListener.Phase.MARK);

            // writers that registered since the start (their start time may be older than it, if
            // they registered while the registry was read) lower the cutoff; never raise it
            List<WriterRegistry.Entry> again = WriterRegistry.scan(root);
            Instant oldestAgain = oldest(root, start, again);
            if (oldestAgain.isBefore(oldestWriter)) {
                oldestWriter = oldestAgain;
                Instant lowered = minAtime(start.minus(CLOCK_SLACK), tuning.gcAtimeCutoff(), oldestWriter);
                if (lowered.isBefore(minAtime)) {
                    minAtime = lowered;
                    listener.info("cutoff lowered to " + minAtime + ": a backup that started " + oldestWriter
                            + " registered during phase 1");
                }
            }

            long removedTempDirs = removeStaleTempDirs(mark, minAtime);
            long removedGroups = removeEmptyGroups(mark, minAtime);

            listener.phaseStarted(GcListener.Phase.SWEEP);
            listener.info("Start GC phase2 (sweep unused chunks)");
            t = System.nanoTime();
            SweepPhase.Result sweep = dir != null
                    ? new SweepPhase(fs, dir, minAtime, oldestWriter, dryRun, listener).run(tuning.threads())
                    : new StoreSweep(chunks, minAtime, oldestWriter, dryRun, listener).run(tuning.threads());
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
                    sweep.removedTempFiles(), sweep.entries(), prefetched, checkNanos, markNanos, sweepNanos,
                    removedGroups);
        }
    }

    /**
     * The oldest of {@code start} and the registered writers (of every process, this JVM's
     * included: {@code SnapshotWriter} registers before it takes {@code .lock}).
     */
    private static Instant oldest(Path root, Instant start, List<WriterRegistry.Entry> writers) {
        Optional<Instant> reg = WriterRegistry.oldest(writers);
        return reg.isPresent() && reg.get().isBefore(start) ? reg.get() : start;
    }

    /**
     * Refuses to run while a process that is not a registered jpbs writer (a PBS backup, whose
     * start time GC cannot know) holds the datastore's {@code .lock}; where {@code /proc/locks}
     * cannot be read this check is skipped (see docs/gc.md).
     */
    private static void refuseUnregisteredHolders(Path root, List<WriterRegistry.Entry> writers) throws IOException {
        Optional<List<Long>> holders = LockHolders.holders(root.resolve(DatastoreLock.LOCK_FILE));
        if (holders.isEmpty()) {
            return;
        }
        Set<Long> known = new HashSet<>();
        known.add(ProcessHandle.current().pid());
        for (WriterRegistry.Entry e : writers) {
            known.add(e.pid());
        }
        for (long pid : holders.get()) {
            if (!known.contains(pid)) {
                // a jpbs writer of another process registers before it takes .lock and unregisters
                // after releasing it, but a killed one may still hold .lock for a moment after its
                // registration lock is gone (the kernel releases them one by one); so look again
                // for up to a second before calling it a writer that GC cannot see (PBS)
                for (int attempt = 0; ; attempt++) {
                    List<Long> now = LockHolders.holders(root.resolve(DatastoreLock.LOCK_FILE)).orElse(List.of());
                    Set<Long> reg = new HashSet<>(known);
                    for (WriterRegistry.Entry e : WriterRegistry.scan(root)) {
                        reg.add(e.pid());
                    }
                    if (!now.contains(pid) || reg.contains(pid)) {
                        break;
                    }
                    if (attempt >= 20) {
                        throw new LockedException("datastore " + root.toRealPath(), "process " + pid
                                + ", which is not a registered jpbs backup (a PBS backup running?)");
                    }
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException("garbage collection interrupted");
                    }
                }
            }
        }
    }

    /** Removes the groups left without any snapshot by a killed first backup (older than the cutoff, unlocked). */
    private long removeEmptyGroups(MarkPhase.Result mark, Instant minAtime) throws IOException {
        long removed = 0;
        for (BackupGroupRef g : mark.emptyGroups()) {
            if (dryRun ? ds.isAbandonedGroup(g) : ds.removeAbandonedGroup(g, minAtime)) {
                removed++;
                listener.info((dryRun ? "would remove" : "removed") + " empty backup group " + g
                        + " (no snapshot; left by a killed first backup)");
            }
        }
        return removed;
    }

    /**
     * The sweep cutoff ({@code docs/gc.md#garbage-collection}): {@code start - cutoff}, or
     * {@code oldestWriter - 5 min} if the oldest running writer started before that.
     */
    static Instant minAtime(Instant start, Duration cutoff, Instant oldestWriter) {
        Instant min = start.minus(cutoff);
        return oldestWriter.isBefore(min) ? oldestWriter.minus(writerMargin()) : min;
    }

    private static Duration writerMargin() {
        String v = System.getProperty(WRITER_MARGIN_PROPERTY);
        if (v == null) {
            return WRITER_MARGIN;
        }
        try {
            return Duration.ofSeconds(Math.max(1, Long.parseLong(v.trim())));
        } catch (NumberFormatException e) {
            return WRITER_MARGIN;
        }
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
