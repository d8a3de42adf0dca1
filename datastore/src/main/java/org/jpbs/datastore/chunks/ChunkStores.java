package org.jpbs.datastore.chunks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jpbs.datastore.os.FileOps;

/**
 * The one place chunk stores are made: {@link #create} and {@link #open} a directory store
 * ({@link DirectoryChunkStore}); the {@link FileOps} variants let tests inject faults.
 */
public final class ChunkStores {
    private ChunkStores() {}

    /**
     * The nearest directory above {@code path} that is a datastore ({@code .chunks} directory and
     * {@code .lock} file): a datastore must not be made inside one
     * ({@code docs/datastore-config.md#overlapping-paths}).
     */
    public static java.util.Optional<Path> enclosingDatastore(Path path) {
        for (Path p = path.toAbsolutePath().normalize().getParent(); p != null; p = p.getParent()) {
            if (java.nio.file.Files.isDirectory(p.resolve(ChunkStoreCreator.CHUNKS))
                    && java.nio.file.Files.isRegularFile(p.resolve(org.jpbs.datastore.lock.DatastoreLock.LOCK_FILE))) {
                return java.util.Optional.of(p);
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * Creates a new datastore skeleton at {@code datastoreRoot}: the root (0755, created with its
     * parents if missing, or an existing empty directory), {@code .chunks} (0750) with the
     * 65,536 subdirectories {@code 0000..ffff} (0750), an empty {@code .lock} (0644).
     *
     * @throws IOException if the path is a file, a non-empty directory, already a datastore or
     *                     inside one (message names the path), or on any I/O error (the partial skeleton is removed)
     */
    public static DirectoryChunkStore create(Path datastoreRoot, SyncLevel syncLevel) throws IOException {
        Path r = datastoreRoot.toAbsolutePath().normalize();
        ChunkStoreCreator.create(r);
        return new DirectoryChunkStore(r, syncLevel, FileOps.real());
    }

    /** Opens the chunk store of an existing datastore with the real file system. See {@link #open(Path, SyncLevel, FileOps)}. */
    public static DirectoryChunkStore open(Path root, SyncLevel syncLevel) throws IOException {
        return open(root, syncLevel, FileOps.real());
    }

    /**
     * Opens the chunk store of an existing datastore.
     *
     * @param files the file layer for chunk files ({@link FileOps#real()} outside tests)
     * @throws IOException {@code "not a datastore: <path> (no .chunks directory)"} if it has none,
     *                     or naming the missing prefix directory if the store is incomplete
     */
    public static DirectoryChunkStore open(Path root, SyncLevel syncLevel, FileOps files) throws IOException {
        Path r = root.toAbsolutePath().normalize();
        Path chunks = r.resolve(ChunkStoreCreator.CHUNKS);
        if (!Files.isDirectory(chunks)) {
            throw new IOException("not a datastore: " + r + " (no .chunks directory)");
        }
        for (String p : new String[] {"0000", "ffff"}) {
            if (!Files.isDirectory(chunks.resolve(p))) {
                throw new IOException("datastore " + r + " is incomplete: missing directory .chunks/" + p);
            }
        }
        return new DirectoryChunkStore(r, syncLevel, files);
    }
}
