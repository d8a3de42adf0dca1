package org.jpbs.client.engine;

import java.util.List;
import org.jpbs.client.backup.BackupStats;

/**
 * A file archive's result ({@code docs/pxar.md#backup-and-restore}): its indexes (the
 * {@code .pxar.didx}, or a split archive's {@code .mpxar.didx} and {@code .ppxar.didx}) and
 * what the archiver did with the files.
 *
 * @param archives     the indexes written, each with its manifest entry and chunk counters
 * @param filesRead    regular files whose contents were read
 * @param bytesRead    bytes read from them
 * @param filesReused  unchanged files whose payload was taken over from the previous snapshot (metadata mode)
 * @param bytesReused  their size
 * @param reusedChunks payload chunks taken over from the previous snapshot
 * @param padding      bytes of those chunks that belong to no reused file
 */
public record TreeResult(List<DynamicArchiveStream.Result> archives, long filesRead, long bytesRead, long filesReused,
        long bytesReused, long reusedChunks, long padding) {
    public TreeResult {
        archives = List.copyOf(archives);
    }

    /** The chunk counters of all its indexes together. */
    public BackupStats stats() {
        BackupStats s = BackupStats.EMPTY;
        for (DynamicArchiveStream.Result r : archives) {
            s = s.plus(r.stats());
        }
        return s;
    }
}
