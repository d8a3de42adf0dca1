package org.jpbs.client.remote;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.jpbs.client.http.H2Session;
import org.jpbs.client.http.HttpStatusException;
import org.jpbs.client.http.Query;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;

/**
 * A reader session on one snapshot ({@code docs/protocol.md#reader-session}): the manifest is
 * downloaded when the session opens, indexes and blobs on request (each checked against the
 * manifest: size and checksum), and chunks with {@code GET /chunk?digest=} — many at once with
 * {@link #fetchChunk}, or one at a time with {@link #readChunk}: the {@link SnapshotSource} of a restore from a server. The
 * server only serves chunks of an index downloaded in the same session, so call
 * {@link #openIndex} first. Thread-safe.
 */
public final class RemoteSnapshotSource implements SnapshotSource {
    private final H2Session h2;
    private final BackupSnapshotRef ref;
    private final BackupManifest manifest;
    private final byte[] manifestJson;

    private RemoteSnapshotSource(H2Session h2, BackupSnapshotRef ref, BackupManifest manifest, byte[] manifestJson) {
        this.manifestJson = manifestJson;
        this.h2 = h2;
        this.ref = ref;
        this.manifest = manifest;
    }

    /**
     * Opens a reader session and downloads the manifest ({@code index.json.blob}).
     *
     * @throws HttpStatusException if the server refuses (e.g. the snapshot does not exist)
     */
    public static RemoteSnapshotSource open(PbsClient pbs, BackupSnapshotRef ref) throws IOException {
        H2Session h2 = pbs.startReader(ref);
        try {
            byte[] raw = download(h2, BackupClient.MANIFEST);
            DataBlob blob = DataBlob.wrap(raw, BackupClient.MANIFEST);
            BackupManifest m = BackupManifest.fromBlob(blob, BackupClient.MANIFEST);
            return new RemoteSnapshotSource(h2, ref, m, blob.decode(BackupClient.MANIFEST, -1));
        } catch (IOException | RuntimeException e) {
            h2.close();
            throw e;
        }
    }

    private static byte[] download(H2Session h2, String name) throws IOException {
        String what = "download of " + name;
        return BackupClient.await(h2.call("GET", "/download", Query.of().add("file-name", name).toString(),
                BackupClient.FORM, null), what).check(what).body();
    }

    @Override
    public BackupSnapshotRef snapshot() {
        return ref;
    }

    /** The manifest's JSON as stored on the server (the decoded {@code index.json.blob}; a copy). */
    @Override
    public byte[] manifestJson() {
        return manifestJson.clone();
    }

    @Override
    public BackupManifest manifest() {
        return manifest;
    }

    /**
     * Downloads an index ({@code .fidx} or {@code .didx}) and checks size and checksum against the
     * manifest; afterwards its chunks may be fetched.
     *
     * @throws CorruptDataException if it does not match the manifest
     */
    @Override
    public IndexFile openIndex(String serverName) throws IOException {
        FileEntry e = entry(serverName);
        byte[] raw = download(h2, serverName);
        String resource = ref + "/" + serverName;
        IndexFile idx;
        if (serverName.endsWith(".fidx")) {
            idx = FixedIndex.read(ByteBuffer.wrap(raw), resource);
        } else if (serverName.endsWith(".didx")) {
            idx = DynamicIndex.read(ByteBuffer.wrap(raw), resource);
        } else {
            throw new IllegalArgumentException(serverName + " is not an index (.fidx or .didx)");
        }
        if (idx.size() != e.size() || !idx.computeCsum().equals(e.csum())) {
            throw new CorruptDataException(resource, -1, "index does not match the manifest (size " + idx.size()
                    + ", manifest says " + e.size() + ")");
        }
        return idx;
    }

    /**
     * Downloads a blob and checks it against the manifest (size and checksum) and its CRC.
     *
     * @throws CorruptDataException if it does not match the manifest or fails its CRC
     */
    @Override
    public DataBlob openBlob(String serverName) throws IOException {
        FileEntry e = entry(serverName);
        byte[] raw = download(h2, serverName);
        String resource = ref + "/" + serverName;
        if (raw.length != e.size() || !Digest.sha256(raw).equals(e.csum())) {
            throw new CorruptDataException(resource, -1, "blob does not match the manifest");
        }
        DataBlob blob = DataBlob.wrap(raw, resource);
        blob.verifyCrc(resource);
        return blob;
    }

    @Override
    public ChunkAccess chunkAccess() {
        return ChunkAccess.ASYNC;
    }

    @Override
    public CompletableFuture<DataBlob> fetchChunk(Digest digest) {
        String what = "download of chunk " + digest.hex();
        return h2.call("GET", "/chunk", Query.of().add("digest", digest.hex()).toString(), BackupClient.FORM, null)
                .thenApply(r -> {
                    try {
                        if (r.status() == 404) {
                            throw new MissingChunkException(digest, "on the server (" + r.text().strip() + ")");
                        }
                        return DataBlob.wrap(r.check(what).body(), "chunk " + digest.hex());
                    } catch (IOException e) {
                        throw new java.util.concurrent.CompletionException(e);
                    }
                });
    }

    /** Fetches and decodes one chunk (blocking), decrypting it with {@code crypt} if given. */
    @Override
    public byte[] readChunk(Digest digest, int expectedSize, CryptConfig crypt) throws IOException {
        DataBlob blob = BackupClient.await(fetchChunk(digest), "download of chunk " + digest.hex());
        return blob.decode("chunk " + digest.hex(), expectedSize, crypt);
    }

    /** Ends the session. */
    @Override
    public void close() {
        h2.close();
    }
}
