package org.jpbs.testkit.snapshot;

import java.io.IOException;
import java.nio.file.Path;
import org.jpbs.testkit.DatastorePool;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.snapshot.SnapshotTarget;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.LocalSnapshotSource;
import org.jpbs.datastore.snapshot.LocalSnapshotTarget;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/** The snapshot contract suites against the local datastore implementations. */
class LocalSnapshotContractTest {
    /** A fresh datastore in {@code dir}. */
    static SnapshotPlace local(Path dir) throws IOException {
        Datastore ds = DatastorePool.datastore(dir.resolve("store"), SyncLevel.NONE);
        return new SnapshotPlace() {
            @Override
            public SnapshotTarget begin(BackupSnapshotRef ref) throws IOException {
                return LocalSnapshotTarget.begin(ds, ref, "contract@pam", false);
            }

            @Override
            public SnapshotSource open(BackupSnapshotRef ref) throws IOException {
                return LocalSnapshotSource.open(ds, ref);
            }

            @Override
            public void close() throws IOException {
                org.jpbs.testkit.ShmTempDirs.deleteTree(dir.resolve("store")); // faster than JUnit's cleanup
            }
        };
    }

    @Nested
    class Target extends SnapshotTargetContract {
        @TempDir
        Path dir;

        @Override
        protected SnapshotPlace newPlace() throws IOException {
            return local(dir);
        }
    }

    @Nested
    class Source extends SnapshotSourceContract {
        @TempDir
        Path dir;

        @Override
        protected SnapshotPlace newPlace() throws IOException {
            return local(dir);
        }
    }
}
