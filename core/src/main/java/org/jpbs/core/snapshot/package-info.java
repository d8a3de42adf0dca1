/**
 * Where a backup goes and where a restore reads, whatever the place ({@code docs/design.md#snapshot-source-and-target}):
 * {@link org.jpbs.core.snapshot.SnapshotTarget} (one new snapshot being written: blobs, fixed and
 * dynamic indexes, their chunks, the manifest) and {@link org.jpbs.core.snapshot.SnapshotSource}
 * (one finished snapshot: manifest, indexes, blobs, chunks), with
 * {@link org.jpbs.core.snapshot.ChunkSink} for the chunks of one index. Implemented by the
 * datastore (local) and the client (a server session); driven by the client's engines.
 * Interfaces only.
 */
package org.jpbs.core.snapshot;
