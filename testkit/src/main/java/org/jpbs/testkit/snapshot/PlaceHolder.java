package org.jpbs.testkit.snapshot;

import java.io.IOException;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.snapshot.SnapshotTarget;
import org.junit.jupiter.api.AfterEach;

/** The part both suites share: the place of the test, made on first use and closed after it. */
abstract class PlaceHolder {
    private SnapshotPlace place;

    /** A fresh place for one test (called once per test, after the subclass's own setup). */
    protected abstract SnapshotPlace newPlace() throws IOException;

    final SnapshotTarget begin(BackupSnapshotRef ref) throws IOException {
        return place().begin(ref);
    }

    final SnapshotSource open(BackupSnapshotRef ref) throws IOException {
        return place().open(ref);
    }

    private SnapshotPlace place() throws IOException {
        if (place == null) {
            place = newPlace();
        }
        return place;
    }

    @AfterEach
    final void closePlace() throws IOException {
        if (place != null) {
            place.close();
        }
    }
}
