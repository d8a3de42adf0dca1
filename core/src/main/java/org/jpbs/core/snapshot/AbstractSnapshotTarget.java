package org.jpbs.core.snapshot;

import java.io.IOException;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;

/**
 * What every {@link SnapshotTarget} does the same way ({@code docs/design.md#snapshot-source-and-target}):
 * a blob's manifest entry is its raw size and SHA-256, {@link #finish} marks the target finished
 * once the snapshot is committed, {@link #abort} discards an unfinished snapshot (never after
 * finish) and then releases what the target holds, {@link #close} aborts.
 */
public abstract class AbstractSnapshotTarget implements SnapshotTarget {
    private volatile boolean finished;

    /** Stores a blob under {@code serverName}. */
    protected abstract void storeBlob(String serverName, DataBlob blob) throws IOException;

    /** Makes the snapshot visible with {@code manifest}. */
    protected abstract void commit(BackupManifest manifest) throws IOException;

    /** Leaves nothing of the unfinished snapshot; never throws (cleanup failures are left to GC). */
    protected abstract void discard(String reason);

    /** Releases what the target holds, finished or not (after {@link #discard}); nothing by default. */
    protected void release() {
    }

    @Override
    public final FileEntry addBlob(String serverName, DataBlob blob, CryptMode mode) throws IOException {
        storeBlob(serverName, blob);
        return new FileEntry(serverName, mode, blob.rawLength(), Digest.sha256(blob.raw()));
    }

    @Override
    public final void finish(BackupManifest manifest) throws IOException {
        commit(manifest);
        finished = true;
    }

    @Override
    public final boolean isFinished() {
        return finished;
    }

    @Override
    public final void abort(String reason) {
        try {
            if (!finished) {
                discard(reason);
            }
        } finally {
            release();
        }
    }

    @Override
    public void close() {
        abort("backup target closed without finish");
    }
}
