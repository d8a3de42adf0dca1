package org.jpbs.jobs.sync;

import java.util.concurrent.atomic.AtomicLong;

/** The counters of one sync run (thread-safe). */
public final class SyncStats {
    final AtomicLong snapshots = new AtomicLong();
    final AtomicLong skipped = new AtomicLong();
    final AtomicLong chunks = new AtomicLong();
    final AtomicLong chunkBytes = new AtomicLong();
    final AtomicLong reusedChunks = new AtomicLong();
    final AtomicLong blobBytes = new AtomicLong();
    final AtomicLong removed = new AtomicLong();
    final AtomicLong errors = new AtomicLong();

    /** Snapshots copied. */
    public long snapshots() {
        return snapshots.get();
    }

    /** Snapshots skipped because the target had them already (or they were filtered out). */
    public long skipped() {
        return skipped.get();
    }

    /** Chunks transferred (the target lacked them). */
    public long chunks() {
        return chunks.get();
    }

    /** Encoded bytes of the chunks transferred. */
    public long chunkBytes() {
        return chunkBytes.get();
    }

    /** Chunks the target already had (not transferred). */
    public long reusedChunks() {
        return reusedChunks.get();
    }

    /** Bytes of blobs and indexes' blobs transferred. */
    public long blobBytes() {
        return blobBytes.get();
    }

    /** Snapshots and groups removed (remove-vanished). */
    public long removed() {
        return removed.get();
    }

    /** Groups or snapshots that failed (the job goes on and fails at the end). */
    public long errors() {
        return errors.get();
    }

    @Override
    public String toString() {
        return snapshots() + " snapshots, " + chunks() + " chunks (" + chunkBytes() + " bytes) transferred, "
                + reusedChunks() + " chunks already present, " + skipped() + " snapshots skipped, " + removed()
                + " removed, " + errors() + " errors";
    }
}
