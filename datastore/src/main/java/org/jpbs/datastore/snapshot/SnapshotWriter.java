package org.jpbs.datastore.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.lock.DatastoreLock;
import org.jpbs.datastore.lock.DirLock;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.os.FsSync;

/**
 * Writes one new snapshot so that it becomes visible only complete ({@code docs/formats.md#datastore-layout}, {@code docs/formats.md#manifest-indexjsonblob}). Created by {@link Datastore#beginSnapshot}, which:
 * registers the writer with its start time in the
 * {@link org.jpbs.datastore.lock.WriterRegistry} (so a garbage collection of any process honours
 * it; removed last, when the writer ends); takes the shared datastore lock ({@link DatastoreLock}, held until commit or abort); requires the
 * namespace to exist ({@code "namespace not found"}); creates the group directory and takes the
 * exclusive group lock ({@link DirLock}: {@code flock} on the group directory, excluding every
 * other writer of the group in this JVM, other jpbs processes and PBS; {@code "backup group
 * <group> is locked by another operation (...)"}); removes the group's leftover {@code .tmp-*}
 * directories of killed writers (safe: nobody else can write in the group now); takes over a
 * group that holds no snapshot at all (left by a killed first backup: its owner is replaced,
 * and an abort removes the group again); creates its
 * {@code owner} file ({@code "<authid>\n"}, O_EXCL) if the group is new, else requires the
 * same owner ({@code "backup owner check failed (<requested> != <owner>)"}); requires the time
 * to be newer than the last finished snapshot ({@code "backup timestamp is older than last
 * backup."}, also for equal times) and the snapshot not to exist.
 *
 * <p>Files go into a hidden {@code <group>/.tmp-<time>-<random>} directory (ignored by PBS and
 * jpbs listings), each through temp file + rename. {@link #commit} writes
 * {@code index.json.blob}, syncs per {@link SyncLevel} and renames the directory to its final
 * name. {@link #close()} without commit deletes the temp directory, and the group (and type
 * directory) if this writer created them. A crash leaves only the hidden directory, which
 * {@link Datastore#cleanupStaleTempDirs()} removes later. Methods are synchronized.
 */
public final class SnapshotWriter implements AutoCloseable {
    private static final Pattern AUTHID = Pattern.compile(
            "[^\\s:/@!]+@[A-Za-z0-9_][A-Za-z0-9._\\-]*(![A-Za-z0-9_][A-Za-z0-9._\\-]*)?");

    private enum State { OPEN, COMMITTED, ABORTED }

    private final Datastore ds;
    private final BackupSnapshotRef ref;
    private final String owner;
    private final Path groupDir;
    private final Path finalDir;
    private final Map<String, FileEntry> entries = new LinkedHashMap<>();
    private final List<String> extraFiles = new ArrayList<>();
    private final List<Collection<Digest>> referenced = new ArrayList<>(); // guarded by this
    private boolean registered;
    private DatastoreLock dsLock;
    private org.jpbs.datastore.lock.WriterRegistry.Registration registration;
    private DirLock groupLock;
    private DirLock baseLock;
    private Path tmpDir;
    private boolean createdGroup;
    private boolean createdTypeDir;
    private State state = State.OPEN;

    private SnapshotWriter(Datastore ds, BackupSnapshotRef ref, String owner) {
        this.ds = ds;
        this.ref = ref;
        this.owner = owner;
        this.groupDir = ds.groupDir(ref.group());
        this.finalDir = ds.snapshotDir(ref);
    }

    static SnapshotWriter begin(Datastore ds, BackupSnapshotRef ref, String owner) throws IOException {
        Objects.requireNonNull(ref, "ref");
        if (owner == null || !AUTHID.matcher(owner).matches()) {
            throw new IllegalArgumentException("invalid owner '" + owner + "' (expected user@realm or user@realm!token)");
        }
        SnapshotWriter w = new SnapshotWriter(ds, ref, owner);
        try {
            w.setup();
            return w;
        } catch (IOException | RuntimeException | Error e) {
            try {
                w.abort();
            } catch (IOException | RuntimeException e2) {
                e.addSuppressed(e2);
            }
            throw e;
        }
    }

    private void setup() throws IOException {
        String group = ref.group().relativePath();
        // first: a GC of any process bounds its cutoff by this start time from now on
        registration = org.jpbs.datastore.lock.WriterRegistry.register(ds.root(), "backup " + group);
        dsLock = DatastoreLock.shared(ds.root()); // refused only while a PBS garbage collection runs
        if (!ds.namespaceExists(ref.group().ns())) {
            throw new org.jpbs.core.errors.NotFoundException(null, "namespace not found");
        }
        for (int attempt = 0; ; attempt++) {
            GroupDirs.Created created = GroupDirs.create(groupDir);
            createdGroup |= created.group();
            createdTypeDir |= created.typeDir();
            try {
                groupLock = lockGroup(group);
            } catch (java.nio.file.NoSuchFileException e) {
                if (attempt >= 3) {
                    throw e;
                }
                continue; // removed (empty) between create and lock: create again
            } catch (org.jpbs.datastore.lock.LockedException e) {
                createdGroup = false; // the holder owns the group now: abort must not remove it
                createdTypeDir = false;
                throw e;
            }
            if (Files.isDirectory(groupDir, LinkOption.NOFOLLOW_LINKS) || attempt >= 3) {
                break;
            }
            groupLock.close(); // we locked a directory that was just removed
            groupLock = null;
        }
        GroupDirs.removeTempDirsLocked(groupDir, DirLock.crossProcess() ? null
                : java.time.Instant.now().minus(Datastore.STALE_TEMP_AGE));
        if (!createdGroup && ds.snapshotRefs(ref.group()).isEmpty()) {
            // no snapshot and (we hold the lock) no live writer: left by a killed first backup;
            // take it over, and remove it again if this backup is aborted too
            String left = GroupDirs.readOwner(groupDir);
            if (left != null && !left.equals(owner)) {
                AtomicFiles.replaceFile(groupDir.resolve(DatastoreLayout.OWNER),
                        (owner + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8), false);
            }
            createdGroup = true;
        }
        String current = createdGroup ? null : GroupDirs.readOwner(groupDir);
        if (current == null && !createdGroup && !ds.snapshotRefs(ref.group()).isEmpty()) {
            // snapshots whose owner is unknown are nobody's to take over (PBS cannot read the
            // owner and refuses too); only an ownerless group without snapshots is adopted
            throw new IOException("backup group " + group + " has no owner");
        }
        try {
            if (current == null && !GroupDirs.writeOwner(groupDir, owner)) {
                current = GroupDirs.readOwner(groupDir); // created concurrently by someone else
            }
        } catch (org.jpbs.datastore.os.StorageFullException e) {
            throw e.inDatastore(ds.root());
        }
        if (current != null && !current.equals(owner)) {
            throw new org.jpbs.core.errors.OwnerMismatchException(owner, current);
        }
        Optional<BackupSnapshotRef> last = ds.lastFinishedSnapshot(ref.group());
        if (last.isPresent() && ref.time() <= last.get().time()) {
            throw new IOException("backup timestamp is older than last backup.");
        }
        if (Files.exists(finalDir, LinkOption.NOFOLLOW_LINKS)) {
            throw new org.jpbs.core.errors.AlreadyExistsException(null, "backup snapshot " + ref.relativePath() + " already exists");
        }
        Path t = groupDir.resolve(DatastoreLayout.TMP_PREFIX + ref.timeString() + "-" + AtomicFiles.randomSuffix(8));
        try {
            Files.createDirectory(t);
        } catch (IOException e) {
            IOException w = org.jpbs.datastore.os.StorageFullException.wrap(e, t);
            throw w instanceof org.jpbs.datastore.os.StorageFullException f ? f.inDatastore(ds.root()) : w;
        }
        tmpDir = t;
        WriterReferences.opened(ds.root(), this);
        registered = true;
    }

    /**
     * The exclusive group lock. A short-lived holder (a garbage collection removing an abandoned
     * group, a prune removing an emptied one) is waited for briefly; a backup holds it for long.
     */
    private DirLock lockGroup(String group) throws IOException {
        for (int attempt = 0; ; attempt++) {
            try {
                return DirLock.exclusive(groupDir, "backup group " + group, "backup");
            } catch (org.jpbs.datastore.lock.LockedException e) {
                if (attempt >= 9) {
                    throw e;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /**
     * Declares chunks this snapshot references without having inserted or touched them, e.g.
     * a server's set of "known" chunks from the previous snapshot, so that a garbage collection
     * in this JVM keeps them ({@link WriterReferences}). The collection is kept by reference
     * (it may grow; it must be safe to iterate concurrently, e.g. a {@code ConcurrentHashMap}
     * key set); registering the same collection again does nothing. Indexes added with
     * {@code addFixedIndex}/{@code addDynamicIndex} are registered automatically.
     */
    public synchronized void referenceChunks(Collection<Digest> digests) {
        for (Collection<Digest> c : referenced) {
            if (c == digests) {
                return;
            }
        }
        referenced.add(digests);
    }

    /**
     * Share-locks {@code base}, the finished snapshot this backup builds on (its chunks are
     * reused), until commit or abort, so that it cannot be forgotten or pruned meanwhile ({@code docs/protocol.md#backup-upgrade} step 9, {@code docs/gc.md#prune}).
     *
     * @throws IllegalArgumentException if {@code base} is not of this writer's group, or a base is already locked
     * @throws org.jpbs.datastore.lock.LockedException if it is being removed
     * @throws java.nio.file.NoSuchFileException       if it does not exist (anymore)
     */
    public synchronized void lockBase(BackupSnapshotRef base) throws IOException {
        ensureOpen();
        if (!base.group().equals(ref.group())) {
            throw new IllegalArgumentException("base snapshot " + base + " is not in group " + ref.group());
        }
        if (baseLock != null) {
            throw new IllegalArgumentException("a base snapshot is already locked for " + ref);
        }
        baseLock = ds.lockSnapshotShared(base, "backup");
    }

    /** Snapshot of the registered digest collections (for {@link WriterReferences}). */
    synchronized List<Collection<Digest>> referencedChunks() {
        return List.copyOf(referenced);
    }

    /**
     * The index's digests, once the chunk store has stored every one of them (a store may still
     * be uploading some: {@link org.jpbs.datastore.chunks.ChunkStore#awaitStored}); an index
     * naming a chunk that could not be stored is refused.
     */
    private List<Digest> storedChunks(org.jpbs.core.index.IndexFile idx) throws IOException {
        Digest[] d = new Digest[idx.chunkCount()];
        for (int i = 0; i < d.length; i++) {
            d[i] = idx.digest(i);
        }
        List<Digest> list = Arrays.asList(d);
        ds.chunkStore().awaitStored(list);
        return list;
    }

    /** The snapshot being written. */
    public BackupSnapshotRef ref() {
        return ref;
    }

    /** The directory files are written to now: the hidden temp directory until commit, then the final one. */
    public synchronized Path dir() {
        return state == State.COMMITTED ? finalDir : tmpDir;
    }

    /** The manifest entries collected so far, in the order the files were added. */
    public synchronized List<FileEntry> files() {
        return List.copyOf(entries.values());
    }

    /**
     * Adds a blob file. Its manifest entry gets size = encoded length, csum = SHA-256 of the
     * encoded bytes, crypt mode {@code encrypt} if the blob is encrypted, else {@code none}.
     * {@code client.log.blob} is written but, as in PBS, not listed in the manifest.
     *
     * @throws IllegalArgumentException if the name is invalid, not {@code .blob}, {@code index.json.blob}, or already added
     * @throws org.jpbs.core.errors.CorruptDataException if the blob's CRC is wrong
     */
    public synchronized void addBlob(String serverName, DataBlob blob) throws IOException {
        checkName(serverName, ".blob");
        if (DatastoreLayout.MANIFEST.equals(serverName)) {
            throw new IllegalArgumentException("'" + serverName + "' is written by commit(), not addBlob()");
        }
        blob.verifyCrc(serverName);
        byte[] raw = blob.raw();
        writeFile(serverName, raw);
        if (DatastoreLayout.CLIENT_LOG.equals(serverName)) {
            extraFiles.add(serverName);
        } else {
            CryptMode mode = blob.isEncrypted() ? CryptMode.ENCRYPT : CryptMode.NONE;
            entries.put(serverName, new FileEntry(serverName, mode, raw.length, Digest.sha256(raw)));
        }
    }

    /** {@link #addFixedIndex(String, FixedIndex, CryptMode)} with crypt mode {@code none}. */
    public void addFixedIndex(String serverName, FixedIndex idx) throws IOException {
        addFixedIndex(serverName, idx, CryptMode.NONE);
    }

    /**
     * Adds a fixed index; its manifest entry gets size = image size, csum = index csum ({@code docs/formats.md#fixed-index-fidx}).
     *
     * @throws IllegalArgumentException if the name is invalid, not {@code .fidx}, or already added
     */
    public synchronized void addFixedIndex(String serverName, FixedIndex idx, CryptMode mode) throws IOException {
        checkName(serverName, ".fidx");
        List<Digest> digests = storedChunks(idx);
        writeFile(serverName, idx.encode());
        entries.put(serverName, new FileEntry(serverName, mode, idx.size(), idx.computeCsum()));
        referenced.add(digests);
    }

    /** {@link #addDynamicIndex(String, DynamicIndex, CryptMode)} with crypt mode {@code none}. */
    public void addDynamicIndex(String serverName, DynamicIndex idx) throws IOException {
        addDynamicIndex(serverName, idx, CryptMode.NONE);
    }

    /**
     * Adds a dynamic index; its manifest entry gets size = archive size, csum = index csum ({@code docs/formats.md#dynamic-index-didx}).
     *
     * @throws IllegalArgumentException if the name is invalid, not {@code .didx}, or already added
     */
    public synchronized void addDynamicIndex(String serverName, DynamicIndex idx, CryptMode mode) throws IOException {
        checkName(serverName, ".didx");
        List<Digest> digests = storedChunks(idx);
        writeFile(serverName, idx.encode());
        entries.put(serverName, new FileEntry(serverName, mode, idx.size(), idx.computeCsum()));
        referenced.add(digests);
    }

    private void checkName(String serverName, String ext) {
        ensureOpen();
        ArchiveName.checkServerName(serverName);
        if (!serverName.endsWith(ext)) {
            throw new IllegalArgumentException("archive name '" + serverName + "' must end in " + ext);
        }
        if (entries.containsKey(serverName) || extraFiles.contains(serverName)) {
            throw new IllegalArgumentException("archive '" + serverName + "' was already added to snapshot " + ref);
        }
    }

    private void writeFile(String serverName, byte[] data) throws IOException {
        try {
            AtomicFiles.replaceFile(tmpDir.resolve(serverName), data, ds.syncLevel() == SyncLevel.FILE);
        } catch (org.jpbs.datastore.os.StorageFullException e) {
            throw e.inDatastore(ds.root());
        }
    }

    private void ensureOpen() {
        if (state != State.OPEN) {
            throw new IllegalStateException("snapshot writer for " + ref + " is already "
                    + (state == State.COMMITTED ? "committed" : "closed"));
        }
    }

    /**
     * Finishes the snapshot: if {@code manifest} lists no files, the collected entries are
     * added to it (in add order); otherwise its list must name exactly the added files with
     * matching size and csum (its crypt modes win). Writes {@code index.json.blob}, syncs
     * (FILE: every file and directory; FILESYSTEM: {@code syncfs}), renames the temp directory
     * to the snapshot name and releases the locks.
     *
     * @return the committed snapshot
     * @throws IllegalArgumentException if the manifest is for another snapshot
     * @throws IOException if no files were added ({@code "backup does not contain valid files (file count == 0)"}),
     *                     the manifest does not match the files, the snapshot appeared meanwhile, or on I/O errors;
     *                     the writer then stays open and {@link #close()} aborts it
     */
    public synchronized BackupSnapshotRef commit(BackupManifest manifest) throws IOException {
        ensureOpen();
        if (manifest.backupType() != ref.group().type() || !manifest.backupId().equals(ref.group().id())
                || manifest.backupTime() != ref.time()) {
            throw new IllegalArgumentException("manifest is for " + manifest.backupType().text() + "/"
                    + manifest.backupId() + "/" + BackupSnapshotRef.formatTime(manifest.backupTime())
                    + ", but this writer writes " + ref);
        }
        if (manifest.files().isEmpty()) {
            if (entries.isEmpty()) {
                throw new IOException("backup does not contain valid files (file count == 0)");
            }
            entries.values().forEach(manifest::addFile);
        } else {
            checkManifestFiles(manifest);
        }
        SyncLevel sync = ds.syncLevel();
        try {
            AtomicFiles.replaceFile(tmpDir.resolve(DatastoreLayout.MANIFEST), manifest.toBlob().raw(), sync == SyncLevel.FILE);
        } catch (org.jpbs.datastore.os.StorageFullException e) {
            throw e.inDatastore(ds.root());
        }
        if (sync == SyncLevel.FILESYSTEM) {
            ds.chunkStore().flush();
        }
        if (Files.exists(finalDir, LinkOption.NOFOLLOW_LINKS)) {
            throw new org.jpbs.core.errors.AlreadyExistsException(null, "backup snapshot " + ref.relativePath() + " already exists");
        }
        Files.move(tmpDir, finalDir, StandardCopyOption.ATOMIC_MOVE);
        state = State.COMMITTED;
        try {
            if (sync != SyncLevel.NONE) {
                FsSync.fsyncDirectory(groupDir);
                if (createdGroup) {
                    FsSync.fsyncDirectory(groupDir.getParent());
                }
            }
            ds.content().snapshotChanged(ref); // an S3 datastore uploads it, manifest last
        } finally {
            release();
        }
        return ref;
    }

    private void checkManifestFiles(BackupManifest manifest) throws IOException {
        for (FileEntry m : manifest.files()) {
            FileEntry w = entries.get(m.filename());
            if (w == null) {
                throw new IOException("manifest lists '" + m.filename() + "', which was not added to snapshot " + ref);
            }
            if (w.size() != m.size() || !w.csum().equals(m.csum())) {
                throw new IOException("manifest entry '" + m.filename() + "' (size " + m.size() + ", csum "
                        + m.csum().hex() + ") does not match the added file (size " + w.size() + ", csum "
                        + w.csum().hex() + ")");
            }
        }
        for (String name : entries.keySet()) {
            if (manifest.file(name).isEmpty()) {
                throw new IOException("archive '" + name + "' was added but is not listed in the manifest");
            }
        }
    }

    /**
     * Discards the snapshot: deletes the temp directory, and the group directory (with its
     * owner file) and the type directory if this writer created them and they are empty now.
     * Releases the locks. Does nothing after commit or a previous abort.
     */
    public synchronized void abort() throws IOException {
        if (state != State.OPEN) {
            return;
        }
        state = State.ABORTED;
        try {
            if (tmpDir != null) {
                AtomicFiles.deleteTree(tmpDir);
            }
            if (createdGroup) {
                GroupDirs.removeIfOnly(groupDir, Set.of(DatastoreLayout.OWNER), createdTypeDir);
            }
        } finally {
            release();
        }
    }

    private void release() throws IOException {
        if (registered) {
            registered = false;
            WriterReferences.finished(ds.root(), this);
        }
        if (baseLock != null) {
            DirLock l = baseLock;
            baseLock = null;
            l.close();
        }
        if (groupLock != null) {
            DirLock l = groupLock;
            groupLock = null;
            l.close();
        }
        try {
            if (dsLock != null) {
                DatastoreLock l = dsLock;
                dsLock = null;
                l.close();
            }
        } finally {
            if (registration != null) {
                var r = registration;
                registration = null;
                r.close(); // last: every chunk of this writer is referenced by a visible snapshot or abandoned
            }
        }
    }

    /** Aborts unless committed (see {@link #abort()}). */
    @Override
    public void close() throws IOException {
        abort();
    }

    @Override
    public String toString() {
        return "SnapshotWriter[" + ref.relativePath() + ", " + state + "]";
    }
}
