package org.jpbs.datastore.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.CompletableFuture;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.chunks.ChunkStore;

/**
 * A {@link SnapshotSource} over a finished snapshot of a local datastore: files through a
 * {@link SnapshotReader} (checked against the manifest), chunks straight from the chunk store,
 * read blocking on the caller's workers. Holds no open files and no locks.
 */
public final class LocalSnapshotSource implements SnapshotSource {
    private final Datastore ds;
    private final SnapshotReader reader;
    private final ChunkStore store;

    private LocalSnapshotSource(Datastore ds, SnapshotReader reader) {
        this.ds = ds;
        this.reader = reader;
        this.store = ds.chunkStore();
    }

    /**
     * Opens a finished snapshot.
     *
     * @throws IOException if it does not exist, is not finished, or its manifest does not parse
     */
    public static LocalSnapshotSource open(Datastore ds, BackupSnapshotRef ref) throws IOException {
        return new LocalSnapshotSource(ds, ds.openSnapshot(ref));
    }

    @Override
    public BackupSnapshotRef snapshot() {
        return reader.ref();
    }

    @Override
    public BackupManifest manifest() {
        return reader.manifest();
    }

    @Override
    public byte[] manifestJson() throws IOException {
        byte[] raw = Files.readAllBytes(reader.dir().resolve(DatastoreLayout.MANIFEST));
        return DataBlob.wrap(raw, DatastoreLayout.MANIFEST).decode(reader.ref() + "/" + DatastoreLayout.MANIFEST, -1);
    }

    @Override
    public IndexFile openIndex(String serverName) throws IOException {
        return reader.openIndex(serverName);
    }

    @Override
    public DataBlob openBlob(String serverName) throws IOException {
        return reader.openBlob(serverName);
    }

    @Override
    public byte[] readBlob(String serverName, CryptConfig crypt) throws IOException {
        return reader.readBlob(serverName, crypt);
    }

    @Override
    public ChunkAccess chunkAccess() {
        return ChunkAccess.BLOCKING;
    }

    @Override
    public byte[] readChunk(Digest digest, int expectedSize, CryptConfig crypt) throws IOException {
        return store.readChunk(digest, expectedSize, crypt);
    }

    @Override
    public CompletableFuture<DataBlob> fetchChunk(Digest digest) {
        try {
            return CompletableFuture.completedFuture(store.read(digest));
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() {
        // nothing held
    }

    @Override
    public String toString() {
        return "LocalSnapshotSource[" + reader.ref() + " in " + ds.root() + "]";
    }
}
