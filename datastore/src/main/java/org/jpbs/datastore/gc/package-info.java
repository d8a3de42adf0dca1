/**
 * Garbage collection of a datastore ({@code docs/gc.md#garbage-collection}): the atime safety
 * check, phase 1 (mark: touch every chunk referenced by an index, newest snapshots first,
 * several threads, a digest cache and an optional chunk-metadata prefetch), phase 2 (sweep the
 * 65,536 chunk directories in parallel and delete chunks whose atime is older than the cutoff),
 * the {@code .gc-status} file, and the removal of stale temporary files left by killed
 * backups. All file system access goes through {@link org.jpbs.datastore.gc.GcFs}, so tests can
 * inject faults and interleavings.
 */
package org.jpbs.datastore.gc;
