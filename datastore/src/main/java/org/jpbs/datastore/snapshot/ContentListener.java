package org.jpbs.datastore.snapshot;

import java.io.IOException;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;

/**
 * Told by a {@link Datastore} when the files of a snapshot or group changed on its local disk,
 * so that a store that mirrors them elsewhere (an S3 bucket, {@code docs/s3.md#snapshot-files})
 * can follow. Called after the local change, by the thread that made it, while the snapshot's
 * or group's lock is still held; an exception fails the operation (the local change stays).
 * {@link #NONE} is the listener of a directory datastore.
 */
public interface ContentListener {
    /** Does nothing. */
    ContentListener NONE = new ContentListener() {};

    /** A snapshot was committed, or one of its files (manifest, client log, protection) changed. */
    default void snapshotChanged(BackupSnapshotRef ref) throws IOException {}

    /** A snapshot was removed. */
    default void snapshotRemoved(BackupSnapshotRef ref) throws IOException {}

    /** A group's owner or notes changed. */
    default void groupChanged(BackupGroupRef group) throws IOException {}

    /** A group was removed with all its snapshots. */
    default void groupRemoved(BackupGroupRef group) throws IOException {}

    /** A namespace (not the root) was created; called for each level that did not exist. */
    default void namespaceCreated(BackupNamespace ns) throws IOException {}

    /** A namespace's directory was removed. */
    default void namespaceRemoved(BackupNamespace ns) throws IOException {}
}
