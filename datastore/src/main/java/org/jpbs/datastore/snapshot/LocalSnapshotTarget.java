package org.jpbs.datastore.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.snapshot.AbstractSnapshotTarget;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.chunks.ChunkStore;

/**
 * A {@link org.jpbs.core.snapshot.SnapshotTarget} in a local datastore, over a {@link SnapshotWriter} (which holds the
 * shared datastore lock and the group lock until finish or abort). The previous snapshot is the
 * group's last finished one, read under the group lock and locked as the base (not prunable
 * while its chunks are reused). "Known" chunks are reused only if their file still exists;
 * reusing one touches it so garbage collection keeps it ({@code docs/gc.md#garbage-collection}).
 */
public final class LocalSnapshotTarget extends AbstractSnapshotTarget {
    private final Datastore ds;
    private final SnapshotWriter writer;
    private final List<Path> createdNamespace;
    private final SnapshotReader previous;
    private final IOException previousFailure;

    private LocalSnapshotTarget(Datastore ds, SnapshotWriter writer, List<Path> createdNamespace,
                                SnapshotReader previous, IOException previousFailure) {
        this.ds = ds;
        this.writer = writer;
        this.createdNamespace = createdNamespace;
        this.previous = previous;
        this.previousFailure = previousFailure;
    }

    /**
     * Begins snapshot {@code ref} (see {@link Datastore#beginSnapshot} for the checks).
     *
     * @param createNamespace create the namespace if missing (removed again, if empty, when the
     *                        backup does not finish); else a missing one is refused
     */
    public static LocalSnapshotTarget begin(Datastore ds, BackupSnapshotRef ref, String owner, boolean createNamespace)
            throws IOException {
        List<Path> created = createNamespace ? createNamespace(ds, ref.group().ns()) : List.of();
        SnapshotWriter writer = null;
        try {
            writer = ds.beginSnapshot(ref, owner);
            SnapshotReader previous = null;
            IOException failure = null;
            Optional<BackupSnapshotRef> last = ds.lastFinishedSnapshot(ref.group());
            if (last.isPresent()) {
                try {
                    previous = ds.openSnapshot(last.get());
                } catch (IOException e) {
                    failure = new IOException("cannot read the previous snapshot " + last.get() + ": " + e.getMessage(), e);
                }
            }
            if (previous != null) {
                writer.lockBase(previous.ref());
            }
            return new LocalSnapshotTarget(ds, writer, created, previous, failure);
        } catch (IOException | RuntimeException | Error e) {
            if (writer != null) {
                try {
                    writer.close();
                } catch (IOException | RuntimeException e2) {
                    e.addSuppressed(e2);
                }
            }
            removeEmpty(created);
            throw e;
        }
    }

    @Override
    public BackupSnapshotRef snapshot() {
        return writer.ref();
    }

    @Override
    public Optional<BackupManifest> previousManifest() throws IOException {
        if (previousFailure != null) {
            throw previousFailure;
        }
        return previous == null ? Optional.empty() : Optional.of(previous.manifest());
    }

    @Override
    public Optional<SnapshotSource> openPreviousSource() throws IOException {
        if (previousFailure != null) {
            throw previousFailure;
        }
        return previous == null ? Optional.empty() : Optional.of(LocalSnapshotSource.open(ds, previous.ref()));
    }

    @Override
    public IndexFile previousIndex(FileEntry entry) throws IOException {
        if (previous == null) {
            throw new IllegalStateException("snapshot " + writer.ref() + " has no previous snapshot");
        }
        return previous.openIndex(entry.filename());
    }

    @Override
    protected void storeBlob(String serverName, DataBlob blob) throws IOException {
        writer.addBlob(serverName, blob);
    }

    @Override
    public IndexWriter openFixedIndex(String serverName, long size, Set<Digest> known) {
        return new LocalIndexWriter(serverName, known);
    }

    @Override
    public IndexWriter openDynamicIndex(String serverName, Set<Digest> known) {
        return new LocalIndexWriter(serverName, known);
    }

    @Override
    protected void commit(BackupManifest manifest) throws IOException {
        writer.commit(manifest);
    }

    @Override
    protected void discard(String reason) {
        try {
            writer.close();
        } catch (IOException | RuntimeException e) {
            // left for the stale temp directory cleanup (Datastore#cleanupStaleTempDirs)
        }
        removeEmpty(createdNamespace);
    }

    @Override
    public String toString() {
        return "LocalSnapshotTarget[" + writer.ref() + " in " + ds.root() + "]";
    }

    /** Chunks straight into the chunk store; the index file is written at close. */
    private final class LocalIndexWriter implements IndexWriter {
        private final String serverName;
        private final Set<Digest> known;
        private final ChunkStore store = ds.chunkStore();

        LocalIndexWriter(String serverName, Set<Digest> known) {
            this.serverName = serverName;
            this.known = known;
        }

        @Override
        public String serverName() {
            return serverName;
        }

        @Override
        public boolean isKnown(Digest digest) {
            return known.contains(digest) && store.exists(digest);
        }

        @Override
        public void reuse(Digest digest) throws IOException {
            if (!store.touch(digest)) {
                throw new MissingChunkException(digest, "vanished from " + store.location(digest)
                        + " during the backup");
            }
        }

        @Override
        public boolean insert(EncodedChunk chunk) throws IOException {
            return !store.insert(chunk.digest(), chunk.blob()).duplicate();
        }

        @Override
        public FileEntry close(IndexFile index, CryptMode mode) throws IOException {
            switch (index) {
                case FixedIndex f -> writer.addFixedIndex(serverName, f, mode);
                case DynamicIndex d -> writer.addDynamicIndex(serverName, d, mode);
                default -> throw new IllegalArgumentException("unknown index kind " + index.getClass().getName());
            }
            return new FileEntry(serverName, mode, index.size(), index.computeCsum());
        }
    }

    /**
     * Creates the namespace directories if missing (a local datastore needs no separate
     * namespace setup); returns the directories created, deepest last.
     */
    private static List<Path> createNamespace(Datastore ds, BackupNamespace ns) throws IOException {
        List<Path> created = new ArrayList<>();
        if (ns.isRoot() || ds.namespaceExists(ns)) {
            return created;
        }
        for (Path p = ds.namespaceDir(ns); p != null && !p.equals(ds.root()) && !Files.exists(p); p = p.getParent()) {
            created.addFirst(p);
        }
        ds.createNamespace(ns);
        return created;
    }

    /** Removes directories created for a backup that failed, deepest first, if they are empty. */
    private static void removeEmpty(List<Path> dirs) {
        for (Path p : dirs.reversed()) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                return; // not empty or not removable: leave it
            }
        }
    }
}
