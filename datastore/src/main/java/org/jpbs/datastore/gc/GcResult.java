package org.jpbs.datastore.gc;

import java.time.Instant;

/**
 * Everything one garbage collection found and did: the {@link GcStatus} written to
 * {@code .gc-status} plus the numbers PBS only logs and jpbs's own measurements.
 *
 * @param status            the status as written (not written on a dry run)
 * @param dryRun            true if nothing was removed ("removed" counters are "would remove")
 * @param start             GC start
 * @param minAtime          the cutoff: chunks with an older atime were removed
 * @param oldestWriter      start of the oldest registered backup writer (any process), or {@code start}
 * @param indexEntries      digests read from index files (references, with repeats)
 * @param cacheHits         digests skipped because the cache had them
 * @param cacheMisses       digests not in the cache (touched)
 * @param touches           {@code utimensat} calls of the mark phase (chunks and {@code .bad} copies)
 * @param missingChunks     referenced chunks that did not exist (each a warning)
 * @param strangeIndexFiles index files outside the namespace/group/snapshot layout (marked too)
 * @param removedTempDirs   stale {@code .tmp-*} snapshot directories removed
 * @param removedTempFiles  stale chunk temp files removed
 * @param sweptEntries      chunk and {@code .bad} files examined by the sweep
 * @param prefetchedFiles   files stat-ed by the metadata prefetch
 * @param checkNanos        duration of the atime safety check
 * @param markNanos         duration of phase 1
 * @param sweepNanos        duration of phase 2
 * @param removedEmptyGroups groups without any snapshot (left by killed first backups) removed
 */
public record GcResult(GcStatus status, boolean dryRun, Instant start, Instant minAtime, Instant oldestWriter,
                       long indexEntries, long cacheHits, long cacheMisses, long touches, long missingChunks,
                       long strangeIndexFiles, long removedTempDirs, long removedTempFiles, long sweptEntries,
                       long prefetchedFiles, long checkNanos, long markNanos, long sweepNanos,
                       long removedEmptyGroups) {
}
