package org.jpbs.datastore.snapshot;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.chunks.ChunkStore;
import org.jpbs.datastore.chunks.ChunkStores;
import org.jpbs.datastore.chunks.DirectoryChunkStore;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.lock.DirLock;
import org.jpbs.datastore.lock.LockedException;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.os.FileOps;

/**
 * A datastore on the local file system, laid out exactly as PBS lays it out ({@code docs/formats.md#chunk-store-chunks}, {@code docs/formats.md#datastore-layout}): chunk store, namespaces, groups with owner, snapshots.
 * Listings are lenient: names that are not namespaces, types, safe ids or snapshot times
 * (hidden entries, jpbs temp dirs, {@code .gc-status}, {@code notes}, foreign files) are skipped.
 * Thread-safe; instances are cheap and hold no open files.
 */
public final class Datastore {
    /** Temp directories older than this are removed by {@link #cleanupStaleTempDirs()}. */
    public static final Duration STALE_TEMP_AGE = Duration.ofHours(24);

    private final Path root;
    private final SyncLevel syncLevel;
    private final ChunkStore chunks;
    private final ContentListener content;

    private Datastore(DirectoryChunkStore chunks) {
        this(chunks.root(), chunks.syncLevel(), chunks, ContentListener.NONE);
    }

    private Datastore(Path root, SyncLevel syncLevel, ChunkStore chunks, ContentListener content) {
        this.root = root;
        this.syncLevel = syncLevel;
        this.chunks = chunks;
        this.content = content;
    }

    /**
     * As {@link #open(Path, SyncLevel, ChunkStore)}, telling {@code content} about every change of
     * snapshot and group files (an S3 datastore mirrors them to its bucket).
     */
    public static Datastore open(Path root, SyncLevel syncLevel, ChunkStore chunks, ContentListener content)
            throws IOException {
        Path r = open(root, syncLevel, chunks).root;
        return new Datastore(r, syncLevel, chunks, java.util.Objects.requireNonNull(content, "content"));
    }

    /** Who is told about changed snapshot and group files ({@link ContentListener#NONE} for a directory datastore). */
    ContentListener content() {
        return content;
    }

    /**
     * Opens the datastore at {@code root} whose chunks live in another store (an S3 bucket,
     * {@code docs/s3.md}): namespaces, snapshots and locks stay under {@code root}, which must be
     * a datastore skeleton ({@link ChunkStores#create}).
     *
     * @throws IOException {@code "not a datastore: <path> (no .chunks directory)"}
     */
    public static Datastore open(Path root, SyncLevel syncLevel, ChunkStore chunks) throws IOException {
        Path r = root.toAbsolutePath().normalize();
        if (!Files.isDirectory(r.resolve(".chunks"))) {
            throw new IOException("not a datastore: " + r + " (no .chunks directory)");
        }
        return new Datastore(r, syncLevel, chunks, ContentListener.NONE);
    }

    /**
     * Creates a datastore skeleton ({@link ChunkStores#create}) and opens it.
     *
     * @throws IOException if the path is a file, a non-empty directory or already a datastore
     */
    public static Datastore create(Path root, SyncLevel syncLevel) throws IOException {
        return new Datastore(ChunkStores.create(root, syncLevel));
    }

    /** Opens with the default sync level ({@link SyncLevel#DEFAULT}). See {@link #open(Path, SyncLevel)}. */
    public static Datastore open(Path root) throws IOException {
        return open(root, SyncLevel.DEFAULT);
    }

    /**
     * Opens an existing datastore.
     *
     * @throws IOException {@code "not a datastore: <path> (no .chunks directory)"}
     */
    public static Datastore open(Path root, SyncLevel syncLevel) throws IOException {
        return new Datastore(ChunkStores.open(root, syncLevel));
    }

    /**
     * Opens an existing datastore whose chunk files are accessed through {@code files} (tests
     * inject faults this way; {@link FileOps#real()} is what {@link #open(Path, SyncLevel)} uses).
     */
    public static Datastore open(Path root, SyncLevel syncLevel, FileOps files) throws IOException {
        return new Datastore(ChunkStores.open(root, syncLevel, files));
    }

    /** Opens the datastore at {@code root}, creating it if there is no {@code .chunks} directory yet. */
    public static Datastore openOrCreate(Path root) throws IOException {
        return openOrCreate(root, SyncLevel.DEFAULT);
    }

    /** As {@link #openOrCreate(Path)} with a sync level. */
    public static Datastore openOrCreate(Path root, SyncLevel syncLevel) throws IOException {
        if (Files.isDirectory(root.resolve(".chunks"))) {
            return open(root, syncLevel);
        }
        return create(root, syncLevel);
    }

    /** The datastore root (absolute). */
    public Path root() {
        return root;
    }

    /** The chunk store. */
    public ChunkStore chunkStore() {
        return chunks;
    }

    /** The sync level used for writes. */
    public SyncLevel syncLevel() {
        return syncLevel;
    }

    /** Directory of a namespace (may not exist). */
    public Path namespaceDir(BackupNamespace ns) {
        return DatastoreLayout.namespaceDir(root, ns);
    }

    /** Directory of a group (may not exist). */
    public Path groupDir(BackupGroupRef group) {
        return DatastoreLayout.groupDir(root, group);
    }

    /** Directory of a snapshot (may not exist). */
    public Path snapshotDir(BackupSnapshotRef snapshot) {
        return DatastoreLayout.snapshotDir(root, snapshot);
    }

    // ---- namespaces --------------------------------------------------------------------

    /** Every namespace, recursively, root first, then depth-first in name order. */
    public List<BackupNamespace> listNamespaces() throws IOException {
        List<BackupNamespace> out = new ArrayList<>();
        collectNamespaces(BackupNamespace.ROOT, BackupNamespace.MAX_DEPTH, out);
        return out;
    }

    /**
     * Namespace {@code top} and those below it at most {@code maxDepth} levels deeper, in the
     * order of {@link #listNamespaces()}; empty if {@code top} does not exist.
     */
    public List<BackupNamespace> listNamespaces(BackupNamespace top, int maxDepth) throws IOException {
        List<BackupNamespace> out = new ArrayList<>();
        if (top.isRoot() || namespaceExists(top)) {
            collectNamespaces(top, Math.min(BackupNamespace.MAX_DEPTH, top.depth() + Math.max(0, maxDepth)), out);
        }
        return out;
    }

    private void collectNamespaces(BackupNamespace ns, int deepest, List<BackupNamespace> out) throws IOException {
        out.add(ns);
        if (ns.depth() >= deepest) {
            return;
        }
        for (String name : subdirNames(namespaceDir(ns).resolve(DatastoreLayout.NS_DIR))) {
            if (!DatastoreLayout.isSafeId(name)) {
                continue;
            }
            BackupNamespace child;
            try {
                child = ns.child(name);
            } catch (IllegalArgumentException e) {
                continue; // too long
            }
            collectNamespaces(child, deepest, out);
        }
    }

    /** True if the namespace directory exists (the root always does). */
    public boolean namespaceExists(BackupNamespace ns) {
        return Files.isDirectory(namespaceDir(ns));
    }

    /** Creates the namespace directories ({@code ns/<a>/ns/<b>}, missing levels included); no-op if present. */
    public void createNamespace(BackupNamespace ns) throws IOException {
        List<BackupNamespace> missing = new ArrayList<>();
        for (BackupNamespace n = ns; !n.isRoot() && !namespaceExists(n); n = n.parent()) {
            missing.addFirst(n);
        }
        Files.createDirectories(namespaceDir(ns));
        for (BackupNamespace n : missing) {
            content.namespaceCreated(n); // the S3 backend's namespace marker (docs/s3.md#object-layout)
        }
    }

    // ---- groups and snapshots ------------------------------------------------------------

    /** The groups of one namespace (not recursive), sorted by type then id. Empty if the namespace is absent. */
    public List<BackupGroupRef> listGroups(BackupNamespace ns) throws IOException {
        List<BackupGroupRef> out = new ArrayList<>();
        Path nsDir = namespaceDir(ns);
        for (String typeName : subdirNames(nsDir)) {
            var type = DatastoreLayout.typeOfDir(typeName);
            if (type.isEmpty()) {
                continue;
            }
            for (String id : subdirNames(nsDir.resolve(typeName))) {
                if (DatastoreLayout.isSafeId(id)) {
                    out.add(new BackupGroupRef(ns, type.get(), id));
                }
            }
        }
        out.sort(Comparator.comparing((BackupGroupRef g) -> g.type().text()).thenComparing(BackupGroupRef::id));
        return out;
    }

    /**
     * The snapshots of a group, oldest first. Reads every manifest; a manifest that cannot be
     * read gives a finished snapshot with no files. Empty if the group does not exist.
     */
    public List<SnapshotInfo> listSnapshots(BackupGroupRef group) throws IOException {
        List<SnapshotInfo> out = new ArrayList<>();
        for (BackupSnapshotRef ref : snapshotRefs(group)) {
            Path dir = snapshotDir(ref);
            Path manifestPath = dir.resolve(DatastoreLayout.MANIFEST);
            boolean finished = Files.isRegularFile(manifestPath);
            List<FileEntry> files = List.of();
            if (finished) {
                try {
                    files = readManifest(manifestPath).files();
                } catch (IOException e) {
                    files = List.of();
                }
            }
            long total = 0;
            for (FileEntry f : files) {
                total += f.size();
            }
            boolean prot = Files.exists(dir.resolve(DatastoreLayout.PROTECTED), LinkOption.NOFOLLOW_LINKS);
            out.add(new SnapshotInfo(ref, finished, prot, files, total));
        }
        return out;
    }

    /** Snapshot references of a group (finished or not), oldest first, without reading manifests. */
    List<BackupSnapshotRef> snapshotRefs(BackupGroupRef group) throws IOException {
        List<BackupSnapshotRef> out = new ArrayList<>();
        for (String name : subdirNames(groupDir(group))) {
            DatastoreLayout.timeOfDir(name).ifPresent(t -> out.add(new BackupSnapshotRef(group, t)));
        }
        out.sort(Comparator.comparingLong(BackupSnapshotRef::time));
        return out;
    }

    /** The newest snapshot of the group that has a manifest. */
    public Optional<BackupSnapshotRef> lastFinishedSnapshot(BackupGroupRef group) throws IOException {
        List<BackupSnapshotRef> refs = snapshotRefs(group);
        for (int i = refs.size() - 1; i >= 0; i--) {
            if (Files.isRegularFile(snapshotDir(refs.get(i)).resolve(DatastoreLayout.MANIFEST))) {
                return Optional.of(refs.get(i));
            }
        }
        return Optional.empty();
    }

    /**
     * The group's owner (the {@code owner} file without its trailing newline), e.g. {@code root@pam}.
     *
     * @throws NoSuchFileException if the group or its owner file does not exist
     */
    public String owner(BackupGroupRef group) throws IOException {
        String owner = GroupDirs.readOwner(groupDir(group));
        if (owner == null) {
            Path f = groupDir(group).resolve(DatastoreLayout.OWNER);
            throw new org.jpbs.core.errors.NotFoundException(f.toString(), "backup group " + group.relativePath() + " has no owner");
        }
        return owner;
    }

    /**
     * True if the group directory exists but holds no snapshot (finished or not) and nobody holds
     * its lock: what a first backup of a new group leaves when it is killed (only the
     * {@code owner} file, maybe a stale {@code .tmp-*} directory). Such a group is invisible and,
     * without this, nobody but its recorded owner could ever back up into its id; the next
     * backup of the id (by anyone) takes it over, GC removes it.
     */
    public boolean isAbandonedGroup(BackupGroupRef group) throws IOException {
        Path dir = groupDir(group);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || !snapshotRefs(group).isEmpty()) {
            return false;
        }
        return !org.jpbs.datastore.lock.DirLock.isExclusivelyLocked(dir);
    }

    /**
     * Removes an abandoned group ({@link #isAbandonedGroup}) under its exclusive lock, if it
     * holds nothing but {@code owner} and {@code notes} and its owner file (without one: the
     * directory) was not modified since {@code olderThan} (a backup that is just creating it is
     * never hit).
     *
     * @return true if removed
     */
    public boolean removeAbandonedGroup(BackupGroupRef group, Instant olderThan) throws IOException {
        Path dir = groupDir(group);
        try (var lock = org.jpbs.datastore.lock.DirLock.exclusive(dir, "backup group " + group.relativePath(),
                "empty group removal")) {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || !snapshotRefs(group).isEmpty()) {
                return false;
            }
            // a writer creates the directory, locks it, then writes owner: judge by owner, else the directory
            Path owner = dir.resolve(DatastoreLayout.OWNER);
            Path judged = Files.exists(owner, LinkOption.NOFOLLOW_LINKS) ? owner : dir;
            if (!Files.getLastModifiedTime(judged, LinkOption.NOFOLLOW_LINKS).toInstant().isBefore(olderThan)) {
                return false;
            }
            GroupDirs.removeIfOnly(dir, java.util.Set.of(DatastoreLayout.OWNER, DatastoreLayout.NOTES), false);
            return !Files.exists(dir, LinkOption.NOFOLLOW_LINKS);
        } catch (org.jpbs.datastore.lock.LockedException | NoSuchFileException e) {
            return false; // a backup is starting in it, or it is gone
        }
    }

    /**
     * Opens a finished snapshot for reading (reads and parses its manifest).
     *
     * @throws NoSuchFileException if the snapshot does not exist
     * @throws IOException         if it is unfinished or the manifest is unreadable
     */
    public SnapshotReader openSnapshot(BackupSnapshotRef ref) throws IOException {
        return SnapshotReader.open(this, ref);
    }

    /**
     * Starts writing a new snapshot; see {@link SnapshotWriter} for the checks and the protocol.
     *
     * @param owner Authid of the writer, e.g. {@code root@pam} or {@code user@pbs!token}
     */
    public SnapshotWriter beginSnapshot(BackupSnapshotRef ref, String owner) throws IOException {
        return SnapshotWriter.begin(this, ref, owner);
    }

    static BackupManifest readManifest(Path manifestPath) throws IOException {
        String resource = manifestPath.toString();
        return BackupManifest.fromBlob(DataBlob.wrap(Files.readAllBytes(manifestPath), resource), resource);
    }

    // ---- notes, owner, manifest updates ----------------------------------------------------

    /**
     * Rewrites a finished snapshot's manifest: reads it fresh under the manifest lock (one
     * updater at a time in this process: notes, verify state), lets {@code change} modify it (only
     * {@code unprotected} may change, so a signature stays valid) and replaces
     * {@code index.json.blob} atomically.
     *
     * @throws NoSuchFileException if the snapshot or its manifest does not exist
     */
    public void updateManifest(BackupSnapshotRef ref, java.util.function.Consumer<BackupManifest> change)
            throws IOException {
        Path manifestPath = snapshotDir(ref).resolve(DatastoreLayout.MANIFEST);
        try (org.jpbs.datastore.lock.InProcessLock _ = lockManifest(manifestPath)) {
            BackupManifest m = readManifest(manifestPath);
            change.accept(m);
            AtomicFiles.replaceFile(manifestPath, m.toBlob().raw(), syncLevel() == SyncLevel.FILE);
        }
        content.snapshotChanged(ref);
    }

    private static org.jpbs.datastore.lock.InProcessLock lockManifest(Path p) throws IOException {
        for (int i = 0; ; i++) {
            try {
                return org.jpbs.datastore.lock.InProcessLock.tryLock(p, "manifest " + p,
                        "another manifest update in this process");
            } catch (LockedException e) {
                if (i >= 100) {
                    throw e;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted waiting for the manifest lock");
                }
            }
        }
    }

    /** The group's notes (the {@code notes} file in the group directory), empty if there are none. */
    public String groupNotes(BackupGroupRef group) throws IOException {
        try {
            return Files.readString(groupDir(group).resolve(DatastoreLayout.NOTES), java.nio.charset.StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        }
    }

    /**
     * Replaces the group's {@code notes} file (atomically) with {@code notes} as given.
     *
     * @throws NoSuchFileException if the group does not exist
     */
    public void setGroupNotes(BackupGroupRef group, String notes) throws IOException {
        Path dir = groupDir(group);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new org.jpbs.core.errors.NotFoundException(dir.toString(), "backup group " + group.relativePath() + " not found");
        }
        AtomicFiles.replaceFile(dir.resolve(DatastoreLayout.NOTES), notes.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                syncLevel() == SyncLevel.FILE);
        content.groupChanged(group);
    }

    /**
     * Replaces the group's owner ({@code owner} = {@code "<authid>\n"}, atomically), as PBS's
     * change-owner does.
     *
     * @throws NoSuchFileException if the group does not exist
     */
    public void setOwner(BackupGroupRef group, String owner) throws IOException {
        Path dir = groupDir(group);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new org.jpbs.core.errors.NotFoundException(dir.toString(), "backup group " + group.relativePath() + " not found");
        }
        AtomicFiles.replaceFile(dir.resolve(DatastoreLayout.OWNER),
                (owner + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8), syncLevel() == SyncLevel.FILE);
        content.groupChanged(group);
    }

    /**
     * Adds {@code client.log.blob} to a snapshot (the encoded blob as given; not entered in the
     * manifest, as PBS). The file appears complete or not at all: it is written to a temporary
     * name and hard-linked into place, which fails if a log exists meanwhile.
     *
     * @return false if the snapshot already has a log (nothing written)
     * @throws NoSuchFileException if the snapshot does not exist
     */
    public boolean addClientLog(BackupSnapshotRef ref, byte[] encodedBlob) throws IOException {
        Path dir = snapshotDir(ref);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new org.jpbs.core.errors.NotFoundException(dir.toString(), "snapshot " + ref + " not found");
        }
        Path target = dir.resolve(DatastoreLayout.CLIENT_LOG);
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        boolean fsync = syncLevel() == SyncLevel.FILE;
        Path tmp = AtomicFiles.writeTemp(target, encodedBlob, 0, encodedBlob.length, fsync);
        try {
            Files.createLink(target, tmp);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            return false;
        } finally {
            Files.deleteIfExists(tmp);
        }
        if (fsync) {
            org.jpbs.datastore.os.FsSync.fsyncDirectory(dir);
        }
        content.snapshotChanged(ref);
        return true;
    }

    // ---- protection and removal ------------------------------------------------------------

    /** True if the snapshot has the {@code .protected} marker. */
    public boolean isProtected(BackupSnapshotRef ref) {
        return Files.exists(snapshotDir(ref).resolve(DatastoreLayout.PROTECTED), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Sets or clears the {@code .protected} marker (an empty file).
     *
     * @throws NoSuchFileException if the snapshot does not exist
     */
    public void setProtected(BackupSnapshotRef ref, boolean protect) throws IOException {
        Path dir = snapshotDir(ref);
        if (!Files.isDirectory(dir)) {
            throw new org.jpbs.core.errors.NotFoundException(dir.toString(), "snapshot " + ref + " not found");
        }
        Path marker = dir.resolve(DatastoreLayout.PROTECTED);
        // as PBS: under the exclusive snapshot lock, so it is refused while the snapshot is in use
        try (DirLock _ = DirLock.exclusive(dir, "snapshot " + ref, "update protection")) {
            if (protect) {
                if (!Files.exists(marker, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createFile(marker, AtomicFiles.FILE_0644);
                }
            } else {
                Files.deleteIfExists(marker);
            }
            content.snapshotChanged(ref);
        }
    }

    /**
     * Removes a group with all its snapshots except protected ones (PBS {@code BackupGroup::destroy}),
     * under the exclusive group lock (refused while a backup of the group runs); the group
     * directory (with {@code owner} and {@code notes}) goes too if nothing is left.
     *
     * @return true if everything was removed, false if protected snapshots were kept
     * @throws LockedException if the group or one of its snapshots is in use
     */
    public boolean removeGroup(BackupGroupRef group) throws IOException {
        Path dir = groupDir(group);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return true;
        }
        boolean all = true;
        try (DirLock _ = DirLock.exclusive(dir, "backup group " + group.relativePath(), "group removal")) {
            for (BackupSnapshotRef ref : snapshotRefs(group)) {
                if (isProtected(ref)) {
                    all = false;
                    continue;
                }
                removeSnapshot(ref);
            }
            if (all) {
                GroupDirs.removeIfOnly(dir, java.util.Set.of(DatastoreLayout.OWNER, DatastoreLayout.NOTES), false);
                content.groupRemoved(group);
            }
        }
        return all;
    }

    /**
     * Creates namespace {@code name} below {@code parent} (an existing one is fine, as PBS).
     *
     * @return the new namespace
     * @throws IllegalArgumentException {@code "namespace to deep, 8 > max 7"} or an invalid name
     * @throws NoSuchFileException      {@code "cannot create new namespace, parent <p> doesn't already exists"}
     */
    public BackupNamespace createNamespace(BackupNamespace parent, String name) throws IOException {
        if (parent.depth() >= BackupNamespace.MAX_DEPTH) {
            throw new IllegalArgumentException("namespace to deep, " + (parent.depth() + 1) + " > max "
                    + BackupNamespace.MAX_DEPTH);
        }
        BackupNamespace ns = parent.child(name);
        if (!namespaceExists(parent)) {
            throw new NoSuchFileException(parent.toString(), null,
                    "cannot create new namespace, parent " + parent + " doesn't already exists");
        }
        createNamespace(ns);
        return ns;
    }

    /**
     * Removes a namespace and the namespaces below it, as PBS {@code remove_namespace_recursive}:
     * with {@code deleteGroups} first every group in the subtree ({@link #removeGroup}, protected
     * snapshots stay), then the namespace directories bottom-up with {@code rmdir}, so a namespace
     * that still holds something stays.
     *
     * @return true if everything requested was removed
     */
    public boolean removeNamespace(BackupNamespace ns, boolean deleteGroups) throws IOException {
        if (ns.isRoot()) {
            throw new IllegalArgumentException("Cannot modify root namespace.");
        }
        boolean all = true;
        List<BackupNamespace> tree = listNamespaces(ns, BackupNamespace.MAX_DEPTH);
        if (deleteGroups) {
            for (BackupNamespace n : tree) {
                for (BackupGroupRef g : listGroups(n)) {
                    all &= removeGroup(g);
                }
                for (org.jpbs.core.api.BackupType t : org.jpbs.core.api.BackupType.values()) {
                    deleteEmptyDir(namespaceDir(n).resolve(t.text()));
                }
            }
        }
        List<BackupNamespace> bottomUp = new ArrayList<>(tree);
        bottomUp.sort(Comparator.comparingInt(BackupNamespace::depth).reversed());
        for (BackupNamespace n : bottomUp) {
            deleteEmptyDir(namespaceDir(n).resolve(DatastoreLayout.NS_DIR));
            if (!deleteEmptyDir(namespaceDir(n))) {
                all = false;
            } else {
                content.namespaceRemoved(n);
            }
        }
        return all;
    }

    /** {@code rmdir}: true if the directory is gone (removed or absent), false if it is not empty. */
    private static boolean deleteEmptyDir(Path dir) throws IOException {
        try {
            Files.deleteIfExists(dir);
            return true;
        } catch (java.nio.file.DirectoryNotEmptyException e) {
            return false;
        }
    }

    /**
     * Removes a snapshot (for forget and prune). Takes the exclusive snapshot lock first
     * ({@link DirLock}, {@code docs/gc.md#prune}), so a snapshot that a reader
     * session or verify reads, or a running backup uses as its base, is refused. The directory
     * is then renamed to a hidden {@code .tmp-removing-*} name (it vanishes from listings at
     * once) and deleted while still locked. If it was the group's last snapshot and nobody holds
     * the group lock, the group directory is removed too (with {@code owner} and {@code notes}).
     *
     * @throws NoSuchFileException if the snapshot does not exist
     * @throws LockedException     {@code "snapshot <ref> is locked by another operation (<who>)"}
     * @throws org.jpbs.core.errors.ProtectedException {@code "cannot remove protected snapshot <ref>"} if protected
     * @throws IOException         on I/O errors
     */
    public void removeSnapshot(BackupSnapshotRef ref) throws IOException {
        Path dir = snapshotDir(ref);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new org.jpbs.core.errors.NotFoundException(dir.toString(), "snapshot " + ref + " not found");
        }
        try (DirLock _ = DirLock.exclusive(dir, "snapshot " + ref, "forget/prune")) {
            if (isProtected(ref)) {
                throw new org.jpbs.core.errors.ProtectedException(ref.toString());
            }
            Path hidden = dir.resolveSibling(GroupDirs.REMOVING_PREFIX + ref.timeString() + "-"
                    + AtomicFiles.randomSuffix(8));
            Files.move(dir, hidden, StandardCopyOption.ATOMIC_MOVE);
            AtomicFiles.deleteTree(hidden);
            content.snapshotRemoved(ref);
        }
        GroupDirs.removeIfEmpty(groupDir(ref.group()), "backup group " + ref.group().relativePath());
    }

    /**
     * Takes a shared lock on a finished snapshot ({@code docs/protocol.md#backup-upgrade} step 9, {@code docs/protocol.md#reader-session};
     * {@code docs/gc.md#verify}): held by reader sessions, verify and a backup on its
     * base snapshot; while held, forget and prune of the snapshot fail.
     *
     * @param purpose who holds it, named in others' errors, e.g. {@code "reader"}
     * @throws NoSuchFileException if the snapshot does not exist or has no manifest (checked after locking)
     * @throws LockedException     {@code "snapshot <ref> is locked by another operation (<who>)"}, e.g. while it is removed
     */
    public DirLock lockSnapshotShared(BackupSnapshotRef ref, String purpose) throws IOException {
        Path dir = snapshotDir(ref);
        DirLock l = DirLock.shared(dir, "snapshot " + ref, purpose);
        if (!Files.isRegularFile(dir.resolve(DatastoreLayout.MANIFEST))) { // removed just before we locked it
            l.close();
            throw new org.jpbs.core.errors.NotFoundException(dir.toString(), "snapshot " + ref + " does not exist");
        }
        return l;
    }

    /**
     * True if a hidden {@code .tmp-*} directory of a group is in use right now (a backup writer
     * holds the group, or a removal still holds the directory), so it must not be deleted.
     */
    public static boolean isTempDirInUse(Path tmpDir) throws IOException {
        return GroupDirs.tempDirInUse(tmpDir);
    }

    /** {@link #cleanupStaleTempDirs(Duration)} with {@link #STALE_TEMP_AGE} (24 h). */
    public int cleanupStaleTempDirs() throws IOException {
        return cleanupStaleTempDirs(STALE_TEMP_AGE);
    }

    /**
     * Removes hidden {@code .tmp-*} directories in group directories whose modification time is
     * older than {@code maxAge}: leftovers of writers or removals that crashed or were killed.
     * Each group is cleaned under its exclusive lock; groups that anyone holds (a running backup,
     * in this JVM or another process) are skipped, and so are removals still in progress.
     * ({@link SnapshotWriter} also cleans its group, at any age, when a backup starts.)
     *
     * @return number of directories removed
     */
    public int cleanupStaleTempDirs(Duration maxAge) throws IOException {
        Instant cutoff = Instant.now().minus(maxAge);
        int removed = 0;
        for (BackupNamespace ns : listNamespaces()) {
            for (BackupGroupRef g : listGroups(ns)) {
                removed += GroupDirs.removeStaleTempDirs(groupDir(g), cutoff);
            }
        }
        return removed;
    }

    /** Names of the subdirectories of {@code dir} (symlinks not followed), sorted; empty if it does not exist. */
    static List<String> subdirNames(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.add(p.getFileName().toString());
                }
            }
        } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
            return out;
        }
        out.sort(null);
        return out;
    }

    @Override
    public String toString() {
        return "Datastore[" + root + "]";
    }
}
