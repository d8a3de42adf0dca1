package org.jpbs.client.remote;

import java.io.IOException;
import java.util.Arrays;
import java.util.Set;
import org.jpbs.core.snapshot.SnapshotTarget;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;

/**
 * The index writer of one fixed or dynamic index in a backup session ({@link RemoteSnapshotTarget}):
 * hashing and compression stay in the engine's workers, this class only decides what goes over
 * the network ({@code docs/protocol.md#chunk-upload-and-known-chunks}, {@code docs/protocol.md#appending}, {@code docs/protocol.md#closing-an-index}, {@code docs/protocol.md#what-a-client-does-step-by-step}).
 *
 * <ul>
 * <li>{@link #isKnown}: the digest is listed by the previous snapshot's index of the same archive
 *     (downloaded with {@code GET /previous}, so the server knows it too) or this session already
 *     uploads it: no compression, no upload;</li>
 * <li>{@link #insert}: starts an asynchronous upload ({@code POST /fixed_chunk} or
 *     {@code /dynamic_chunk}) and returns at once unless {@code upload-concurrency} uploads are in flight;</li>
 * <li>{@link #close}: waits for the uploads, appends every chunk with its start offset
 *     ({@code PUT /fixed_index} or {@code /dynamic_index}, batched) and closes the index with
 *     chunk count, size and checksum.</li>
 * </ul>
 * Thread-safe.
 */
final class RemoteBackupWriter implements SnapshotTarget.IndexWriter {
    private final BackupClient client;
    private final String serverName;
    private final int wid;
    private final Set<Digest> previous;

    /**
     * @param client   the session
     * @param wid      the writer id (not incremental)
     * @param previous digests of the previous snapshot's index of this archive, downloaded in this
     *                 session (empty if none)
     */
    RemoteBackupWriter(BackupClient client, String serverName, int wid, Set<Digest> previous) {
        this.client = client;
        this.serverName = serverName;
        this.wid = wid;
        this.previous = previous;
    }

    @Override
    public String serverName() {
        return serverName;
    }

    @Override
    public boolean isKnown(Digest digest) {
        return previous.contains(digest) || client.isUploaded(digest);
    }

    @Override
    public void reuse(Digest digest) {
        // the server registered it (previous index download) or this session uploads it
    }

    @Override
    public boolean insert(EncodedChunk chunk) throws IOException {
        return client.uploadChunk(wid, chunk).started();
    }

    @Override
    public FileEntry close(IndexFile index, CryptMode mode) throws IOException {
        client.awaitUploads();
        int n = index.chunkCount();
        Digest[] digests = new Digest[n];
        long[] offsets = new long[n];
        for (int i = 0; i < n; i++) {
            digests[i] = index.digest(i);
            offsets[i] = index.chunkStart(i);
        }
        client.appendFixed(wid, Arrays.asList(digests), offsets);
        Digest csum = index.computeCsum();
        client.closeFixed(wid, n, index.size(), csum);
        return new FileEntry(serverName, mode, index.size(), csum);
    }
}
