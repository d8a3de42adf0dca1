package org.jpbs.testkit.snapshot;

import java.io.IOException;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.snapshot.SnapshotTarget;

/**
 * One fresh store the contract suites write to and read from: a local datastore, or a server
 * with one. Closed after each test.
 */
public interface SnapshotPlace extends AutoCloseable {
    /** Begins snapshot {@code ref} (its namespace exists). */
    SnapshotTarget begin(BackupSnapshotRef ref) throws IOException;

    /** Opens a finished snapshot. */
    SnapshotSource open(BackupSnapshotRef ref) throws IOException;

    /** Releases the store (stops a server); the default does nothing. */
    @Override
    default void close() throws IOException {
    }
}
