package org.jpbs.core.snapshot;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jpbs.core.ChunkSource;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;

/**
 * Where a restore reads: one finished snapshot, in a local datastore or over a reader session
 * on a server ({@code docs/design.md#snapshot-source-and-target}). Every file is checked
 * against the manifest (size and checksum) before it is handed out; chunks are checked by the
 * caller (length and digest of the decoded data). Thread-safe.
 */
public interface SnapshotSource extends ChunkSource, AutoCloseable {
    /** How chunks are read best. */
    enum ChunkAccess {
        /** {@link #readChunk} on many worker threads (a local disk). */
        BLOCKING,
        /** {@link #fetchChunk}, many in flight, decoded on workers (a network). */
        ASYNC
    }

    /** The snapshot. */
    BackupSnapshotRef snapshot();

    /** The snapshot's manifest (do not modify it). */
    BackupManifest manifest();

    /** The manifest's JSON as stored (the decoded {@code index.json.blob}). */
    byte[] manifestJson() throws IOException;

    /**
     * The manifest entry of an archive.
     *
     * @throws IllegalArgumentException naming the archive and listing the snapshot's files
     */
    default FileEntry entry(String serverName) {
        return manifest().file(serverName).orElseThrow(() -> {
            List<String> names = manifest().files().stream().map(FileEntry::filename).toList();
            return new IllegalArgumentException("archive '" + serverName + "' is not in snapshot " + snapshot()
                    + " (it has: " + String.join(", ", names) + ")");
        });
    }

    /**
     * Opens a {@code .fidx} or {@code .didx} listed in the manifest, checked against it; its
     * chunks may then be read.
     *
     * @throws org.jpbs.core.errors.CorruptDataException if it does not parse or match the manifest
     */
    IndexFile openIndex(String serverName) throws IOException;

    /**
     * The raw blob of a {@code .blob} listed in the manifest, checked against it (length and
     * SHA-256) and its CRC; not decoded.
     */
    DataBlob openBlob(String serverName) throws IOException;

    /** The decoded content of a {@code .blob}, decrypted with {@code crypt} if encrypted (null: no key). */
    default byte[] readBlob(String serverName, CryptConfig crypt) throws IOException {
        return openBlob(serverName).decode(snapshot() + "/" + serverName, -1, crypt);
    }

    /** How chunks are read best: see {@link ChunkAccess}. */
    ChunkAccess chunkAccess();

    /**
     * Starts reading one encoded chunk (CRC not yet checked); may complete on a network thread,
     * so dependants must not block. Completes exceptionally with the {@link IOException} (e.g.
     * {@code MissingChunkException}).
     */
    CompletableFuture<DataBlob> fetchChunk(Digest digest);

    /** Ends the read access (a server's reader session). */
    @Override
    void close();
}
