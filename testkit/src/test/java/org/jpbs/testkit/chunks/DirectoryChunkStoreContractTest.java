package org.jpbs.testkit.chunks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.chunks.ChunkStore;
import org.jpbs.datastore.chunks.ChunkStores;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.os.FileTimes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The chunk-store contract against the directory store (one datastore for the class). */
class DirectoryChunkStoreContractTest extends ChunkStoreContract {
    @TempDir
    static Path dir;
    private static DirectoryChunkStore shared;

    @BeforeAll
    static void createDatastore() throws IOException {
        shared = ChunkStores.create(dir.resolve("ds"), SyncLevel.FILE);
    }

    @Override
    protected ChunkStore newStore() {
        return shared;
    }

    @Override
    protected void plant(Digest digest, byte[] raw) throws IOException {
        Files.write(shared.chunkPath(digest), raw);
    }

    @Override
    protected void setLastUsed(Digest digest, Instant lastUsed) throws IOException {
        FileTimes.setAtime(shared.chunkPath(digest), lastUsed);
    }
}
