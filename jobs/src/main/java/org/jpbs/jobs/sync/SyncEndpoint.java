package org.jpbs.jobs.sync;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.snapshot.SnapshotTarget;

/**
 * One side of a sync ({@code docs/sync.md}): a local datastore ({@link LocalEndpoint}) or a
 * datastore on a server ({@link RemoteEndpoint}). The sync lists namespaces, groups and
 * snapshots on both sides, reads finished snapshots from the source and writes new ones to the
 * target.
 */
public interface SyncEndpoint {
    /** One snapshot as listed: finished means it has its manifest (an unfinished one is a backup in progress). */
    record Entry(BackupSnapshotRef ref, boolean finished) {}

    /** For messages, e.g. {@code datastore 'store1'} or {@code remote 'off' (host:8007), datastore 'store2'}. */
    String describe();

    /** {@code top} and its descendants down to {@code maxDepth} levels below it, sorted (top first). */
    List<BackupNamespace> namespaces(BackupNamespace top, int maxDepth) throws IOException;

    /** True if the namespace exists. */
    boolean namespaceExists(BackupNamespace ns) throws IOException;

    /** Creates a namespace (and its missing parents). */
    void createNamespace(BackupNamespace ns) throws IOException;

    /** Removes a vanished namespace with its groups (remove-vanished); false if something was kept (protected). */
    boolean removeNamespace(BackupNamespace ns) throws IOException;

    /** The groups of a namespace. */
    List<BackupGroupRef> groups(BackupNamespace ns) throws IOException;

    /** The snapshots of a group, oldest first (finished or not). */
    List<Entry> snapshots(BackupGroupRef group) throws IOException;

    /** The owner of a group, if known. */
    Optional<String> owner(BackupGroupRef group) throws IOException;

    /** The verification state of a finished snapshot ({@code ok}, {@code failed}), if it was verified. */
    Optional<String> verifyState(BackupSnapshotRef ref) throws IOException;

    /** Opens a finished snapshot for reading. */
    SnapshotSource openSource(BackupSnapshotRef ref) throws IOException;

    /**
     * Begins a new snapshot {@code ref} owned by {@code owner} (nothing is visible until it is
     * finished).
     *
     * @throws org.jpbs.datastore.lock.LockedException if the group is locked (a local target)
     */
    SnapshotTarget begin(BackupSnapshotRef ref, String owner) throws IOException;

    /**
     * The chunks of {@code sourceIndex} the target may be asked about with
     * {@link SnapshotTarget.IndexWriter#isKnown}: a local datastore checks every chunk's file; a
     * server knows only the chunks of the group's previous snapshot's index of the same archive.
     */
    Set<Digest> knownChunks(SnapshotTarget target, FileEntry entry, IndexFile sourceIndex) throws IOException;

    /** Removes a snapshot (remove-vanished). */
    void removeSnapshot(BackupSnapshotRef ref) throws IOException;

    /** Removes a group and its snapshots (remove-vanished); false if some remain (protected). */
    boolean removeGroup(BackupGroupRef group) throws IOException;
}
