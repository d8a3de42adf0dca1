package org.jpbs.jobs.sync;

import java.io.IOException;
import java.util.Set;
import org.jpbs.client.engine.RestoreEngine;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.snapshot.SnapshotTarget;
import org.jpbs.core.traffic.RateLimiter;

/**
 * Copies one finished snapshot as stored ({@code docs/sync.md#how-a-snapshot-is-copied}): every
 * file of the source's manifest, in manifest order: a blob as its raw bytes; an index through
 * the restore engine's encoded chunk stream ({@link RestoreEngine#copyEncoded}) into the target's
 * index writer, asking the writer first whether it has each chunk (then it is only registered,
 * not transferred); then the manifest, last, as the source has it. Nothing is decoded for
 * storage or re-encoded: encrypted snapshots stay encrypted, signatures stay valid. The target
 * is aborted on any failure, so nothing partial becomes visible.
 */
final class SnapshotCopier {
    private final int workers;
    private final int fetchConcurrency;
    private final RateLimiter limiter;

    SnapshotCopier(int workers, int fetchConcurrency, RateLimiter limiter) {
        this.workers = workers;
        this.fetchConcurrency = fetchConcurrency;
        this.limiter = limiter;
    }

    /** Copies {@code src} into {@code dst} (begun by {@code targetSide}) and finishes it. */
    void copy(SnapshotSource src, SnapshotTarget dst, SyncEndpoint targetSide, SyncStats stats) throws IOException {
        try {
            byte[] manifestJson = src.manifestJson();
            BackupManifest manifest = BackupManifest.parse(manifestJson, src.snapshot() + "/index.json.blob");
            for (FileEntry e : manifest.files()) {
                String name = e.filename();
                FileEntry got = name.endsWith(".fidx") || name.endsWith(".didx")
                        ? copyIndex(src, dst, targetSide, e, stats) : copyBlob(src, dst, e, stats);
                if (!got.csum().equals(e.csum()) || got.size() != e.size()) {
                    throw new CorruptDataException(src.snapshot() + "/" + name, -1,
                            "copy does not match the source manifest (size " + got.size() + ", manifest says " + e.size() + ")");
                }
            }
            dst.finish(manifest);
        } finally {
            dst.close(); // aborts unless finished
        }
    }

    private FileEntry copyBlob(SnapshotSource src, SnapshotTarget dst, FileEntry e, SyncStats stats) throws IOException {
        DataBlob blob = src.openBlob(e.filename());
        limit(blob.rawLength());
        stats.blobBytes.addAndGet(blob.rawLength());
        return dst.addBlob(e.filename(), blob, e.cryptMode());
    }

    private FileEntry copyIndex(SnapshotSource src, SnapshotTarget dst, SyncEndpoint targetSide, FileEntry e,
                                SyncStats stats) throws IOException {
        IndexFile index = src.openIndex(e.filename());
        Set<Digest> known = targetSide.knownChunks(dst, e, index);
        SnapshotTarget.IndexWriter w = index instanceof FixedIndex
                ? dst.openFixedIndex(e.filename(), index.size(), known) : dst.openDynamicIndex(e.filename(), known);
        RestoreEngine engine = new RestoreEngine(src).workers(workers).fetchConcurrency(fetchConcurrency);
        RestoreEngine.CopyStats copied = engine.copyEncoded(index, d -> {
            if (!w.isKnown(d)) {
                return true;
            }
            try {
                w.reuse(d);
            } catch (IOException ex) {
                return true; // vanished meanwhile: transfer it
            }
            stats.reusedChunks.incrementAndGet();
            return false;
        }, chunk -> {
            limit(chunk.blob().rawLength());
            w.insert(chunk);
        }, src.snapshot() + "/" + e.filename());
        stats.chunks.addAndGet(copied.chunks());
        stats.chunkBytes.addAndGet(copied.bytes());
        return w.close(index, e.cryptMode());
    }

    private void limit(long bytes) throws IOException {
        if (limiter != null) {
            limiter.acquire(bytes);
        }
    }
}
