package org.jpbs.core.snapshot;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;

/**
 * Where a backup goes: one new snapshot being written, in a local datastore or over a backup
 * session on a server ({@code docs/design.md#snapshot-source-and-target}). It knows nothing of
 * archive kinds beyond "blob", "fixed index" and "dynamic index"; what to reuse and what goes in
 * the manifest is decided by the backup engine that drives it.
 *
 * <p>Life cycle: the snapshot is begun when the target is created (its time is fixed then);
 * then any number of {@link #addBlob} and index writers ({@link #openFixedIndex},
 * {@link #openDynamicIndex}, each ended by {@link IndexWriter#close}); then {@link #finish}
 * with the manifest, which makes the snapshot visible complete. {@link #close} without finish
 * (or {@link #abort}) leaves nothing visible. Implementations are thread-safe: index writers
 * take chunks from many worker threads at once.
 */
public interface SnapshotTarget extends AutoCloseable {
    /** The snapshot being written. */
    BackupSnapshotRef snapshot();

    /** The manifest of the group's last finished snapshot, if there is one (for incremental reuse). */
    Optional<BackupManifest> previousManifest() throws IOException;

    /**
     * Opens an index of the previous snapshot (listed in {@link #previousManifest()}), checked
     * against its manifest entry. Its chunks may then be reused by an index writer given them as
     * "known" (a server registers them for this session when the index is downloaded).
     *
     * @throws org.jpbs.core.errors.CorruptDataException if it does not match the entry
     */
    IndexFile previousIndex(FileEntry entry) throws IOException;

    /**
     * Opens the previous snapshot (the one {@link #previousManifest()} describes) for reading its
     * archives' contents, e.g. a metadata archive to compare files with
     * ({@code docs/pxar.md#metadata-change-detection}); empty if there is none or the target cannot
     * read it. The caller closes it.
     */
    default Optional<SnapshotSource> openPreviousSource() throws IOException {
        return Optional.empty();
    }

    /**
     * Stores a blob ({@code NAME.blob}) as is.
     *
     * @param mode the crypt mode its manifest entry gets
     * @return the manifest entry (encoded size, SHA-256 of the encoded blob)
     */
    FileEntry addBlob(String serverName, DataBlob blob, CryptMode mode) throws IOException;

    /**
     * Opens a fixed index ({@code NAME.fidx}) of {@code size} bytes.
     *
     * @param known digests the writer may reuse without storing them again (from
     *              {@link #previousIndex}; not modified; may be empty)
     */
    IndexWriter openFixedIndex(String serverName, long size, Set<Digest> known) throws IOException;

    /** Opens a dynamic index ({@code NAME.didx}); {@code known} as for {@link #openFixedIndex}. */
    IndexWriter openDynamicIndex(String serverName, Set<Digest> known) throws IOException;

    /**
     * Writes the manifest and makes the snapshot visible; the target is done afterwards.
     *
     * @throws IOException if the target refuses (e.g. no files were added); the snapshot stays invisible
     */
    void finish(BackupManifest manifest) throws IOException;

    /** True after a successful {@link #finish}. */
    boolean isFinished();

    /**
     * Gives the snapshot up: nothing becomes visible, index writers in use fail. Does nothing
     * after {@link #finish}. Never throws for a failure to clean up (that is left to garbage
     * collection or a later writer).
     */
    void abort(String reason);

    /** Aborts unless finished. */
    @Override
    void close();

    /**
     * The chunks of one index being written. The engine builds the index itself (digests in
     * order) and hands it over at {@link #close}; the writer only stores chunks.
     */
    interface IndexWriter extends ChunkSink {
        /** The archive name, e.g. {@code disk.img.fidx}. */
        String serverName();

        /**
         * Ends the index: waits for stored chunks, writes or sends the index and returns its
         * manifest entry (size = logical size, csum = index checksum).
         *
         * @param index the complete index (every digest stored, reused or known)
         * @param mode  the crypt mode the manifest entry gets
         */
        FileEntry close(IndexFile index, CryptMode mode) throws IOException;
    }
}
