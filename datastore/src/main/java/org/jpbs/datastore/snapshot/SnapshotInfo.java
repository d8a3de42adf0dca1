package org.jpbs.datastore.snapshot;

import java.util.List;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.manifest.FileEntry;

/**
 * One snapshot as a listing shows it ({@code docs/formats.md#datastore-layout}).
 *
 * @param ref         the snapshot
 * @param finished    true if {@code index.json.blob} exists (a snapshot without it is unfinished)
 * @param isProtected true if the {@code .protected} marker exists
 * @param files       the manifest's files; empty if unfinished or if the manifest cannot be read
 * @param totalSize   sum of the manifest file sizes in bytes (logical size for indexes, encoded length for blobs)
 */
public record SnapshotInfo(BackupSnapshotRef ref, boolean finished, boolean isProtected, List<FileEntry> files,
                           long totalSize) {
    public SnapshotInfo {
        files = List.copyOf(files);
    }
}
