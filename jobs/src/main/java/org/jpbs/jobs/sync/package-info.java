/**
 * Sync jobs ({@code docs/sync.md}): pull (a remote server's datastore into a local one) and push
 * (the reverse), with PBS's options: namespaces ({@code remote-ns}/{@code ns}, {@code max-depth}),
 * {@code group-filter}, {@code remove-vanished}, {@code transfer-last}, {@code owner},
 * {@code encrypted-only}, {@code verified-only}, {@code resync-corrupt} and rate limits. A
 * snapshot is copied as stored (encoded chunks and blobs, the same manifest) by
 * {@link org.jpbs.jobs.sync.SnapshotCopier}: the restore engine's chunk stream from a
 * {@link org.jpbs.core.snapshot.SnapshotSource} into a {@link org.jpbs.core.snapshot.SnapshotTarget},
 * only chunks the target lacks. Both sides are a {@link org.jpbs.jobs.sync.SyncEndpoint}: a local
 * datastore or a server reached over the PBS protocols.
 */
package org.jpbs.jobs.sync;
