package org.jpbs.datastore.chunks;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.datastore.os.DirHandle;
import org.jpbs.datastore.os.FileOps;
import org.jpbs.datastore.os.FileStat;
import org.jpbs.datastore.os.FsSync;
import org.jpbs.datastore.os.StorageFullException;

/**
 * The chunk store of a directory datastore, PBS's layout: {@code <root>/.chunks/XXXX/<64-hex
 * digest>}, each file one raw DataBlob ({@code docs/formats.md#chunk-store-chunks}). Made by
 * {@link ChunkStores}. Thread-safe and parallel: the insert decision (read, classify, rename)
 * for a digest runs under one of 64 striped locks, the write of the temporary file runs without
 * any lock. "Last used" is the file's atime: a touch sets it to now keeping the mtime. Every
 * access to chunk files goes through a {@link FileOps} ({@link FileOps#real()} outside tests).
 */
public final class DirectoryChunkStore implements ChunkStore {
    /** Suffix garbage collection gives a chunk while it removes it ({@code docs/gc.md}, "The last moment"). */
    public static final String GC_REMOVING = ".gc-removing";
    private static final int STRIPES = 64;

    private final Path root;
    private final Path chunksDir;
    private final SyncLevel syncLevel;
    private final FileOps files;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    DirectoryChunkStore(Path root, SyncLevel syncLevel, FileOps files) {
        this.root = root;
        this.chunksDir = root.resolve(ChunkStoreCreator.CHUNKS);
        this.syncLevel = syncLevel;
        this.files = files;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /** The datastore root (absolute). */
    public Path root() {
        return root;
    }

    /** The configured sync level. */
    public SyncLevel syncLevel() {
        return syncLevel;
    }

    /** The file layer chunk files are accessed through. */
    public FileOps files() {
        return files;
    }

    /** {@code <root>/.chunks/<first 4 hex>/<64 hex>} for the digest (the file may not exist). */
    public Path chunkPath(Digest digest) {
        return chunksDir.resolve(digest.prefix()).resolve(digest.hex());
    }

    @Override
    public String location(Digest digest) {
        return chunkPath(digest).toString();
    }

    /**
     * The lock guarding the insert decision for {@code digest} (one of 64 stripes). Garbage
     * collection must hold it while it re-checks and deletes a chunk file, so a concurrent
     * insert that decides "duplicate, touch" cannot lose its chunk.
     */
    public ReentrantLock lockFor(Digest digest) {
        return stripes[(digest.hashCode() & 0x7fffffff) % STRIPES];
    }

    /**
     * {@inheritDoc}
     *
     * <p>The existing file is read and classified first. A write goes to
     * {@code <digest>.tmp_XXXXXX} (fsync'd if the sync level is {@link SyncLevel#FILE}), renamed
     * over the target under the digest's lock after classifying again (another insert may have
     * won), then the directory is fsync'd (FILE only); a kept file is touched (atime now, mtime
     * kept). A reader or GC never sees a half-written chunk.
     */
    @Override
    public InsertResult insert(Digest digest, DataBlob blob) throws IOException {
        ChunkInsertRule.checkBlob(digest, blob);
        Path target = chunkPath(digest);
        ReentrantLock lock = lockFor(digest);
        lock.lock();
        try {
            InsertResult kept = keepExisting(digest, target, blob);
            if (kept != null) {
                return kept;
            }
        } finally {
            lock.unlock();
        }
        boolean fsync = syncLevel == SyncLevel.FILE;
        byte[] raw = blob.raw();
        Path tmp;
        try {
            tmp = files.writeTemp(target, raw, 0, raw.length, fsync);
        } catch (StorageFullException e) {
            throw e.inDatastore(root);
        }
        lock.lock();
        try {
            InsertResult kept = keepExisting(digest, target, blob); // someone may have won the race
            if (kept != null) {
                files.delete(tmp);
                return kept;
            }
            files.rename(tmp, target);
        } catch (IOException | RuntimeException e) {
            try {
                files.delete(tmp);
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            lock.unlock();
        }
        if (fsync) {
            files.fsyncDirectory(target.getParent());
        }
        return new InsertResult(false, raw.length);
    }

    private ChunkInsertRule.Found classify(Path target) throws IOException {
        FileStat st;
        try {
            st = files.stat(target);
        } catch (NoSuchFileException e) {
            return ChunkInsertRule.Found.ABSENT;
        }
        if (!st.regular()) {
            throw new IOException("chunk store " + root + ": " + target + " is not a regular file");
        }
        if (st.size() == 0) {
            return ChunkInsertRule.classify(new byte[0], target.toString());
        }
        try {
            return ChunkInsertRule.classify(files.readAllBytes(target), target.toString());
        } catch (NoSuchFileException e) {
            return ChunkInsertRule.Found.ABSENT; // removed by a GC of another process meanwhile
        }
    }

    /** Returns the result if the existing file is to be kept (and touches it), null if the blob must be written. */
    private InsertResult keepExisting(Digest digest, Path target, DataBlob blob) throws IOException {
        ChunkInsertRule.Found old = classify(target);
        if (!ChunkInsertRule.keep(digest, old, blob)) {
            return null;
        }
        try {
            files.touchAtimeInPlace(target);
        } catch (NoSuchFileException e) {
            return null; // a GC of another process removed it meanwhile: write
        }
        return new InsertResult(true, old.size());
    }

    /**
     * {@inheritDoc}
     *
     * <p>If the file is missing, its {@code <digest>.gc-removing} copy of a garbage collection
     * that is removing it or was killed doing so is read (same content). A 0-byte file counts as
     * absent (an evicted S3-cache entry, {@code docs/formats.md#chunk-store-chunks}).
     */
    @Override
    public DataBlob read(Digest digest) throws IOException {
        Path p = chunkPath(digest);
        byte[] raw;
        try {
            raw = files.readAllBytes(p);
        } catch (NoSuchFileException e) {
            try {
                raw = files.readAllBytes(p.resolveSibling(digest.hex() + GC_REMOVING));
            } catch (NoSuchFileException e2) {
                throw new MissingChunkException(digest, "datastore " + root);
            }
        }
        if (raw.length == 0) {
            throw new MissingChunkException(digest, "datastore " + root + ", empty chunk file");
        }
        return DataBlob.wrap(raw, p.toString());
    }

    /**
     * {@inheritDoc}
     *
     * <p>Sets the atime to now (mtime kept), through the open file, checking it is still in
     * place ({@link org.jpbs.datastore.os.FileTimes#touchAtimeInPlace}), under the digest's lock:
     * a sweep of this JVM or of another process either sees the new atime or already removed
     * the file (then this returns false). A 0-byte file is touched too.
     */
    @Override
    public boolean touch(Digest digest) throws IOException {
        ReentrantLock lock = lockFor(digest);
        lock.lock();
        try {
            files.touchAtimeInPlace(chunkPath(digest));
            return true;
        } catch (NoSuchFileException e) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Renames the file to {@code <digest>.<n>.bad} with the first {@code n} in 0..9 that does
     * not exist yet ({@code .9.bad} is replaced if all exist), under the digest's lock.
     */
    @Override
    public Optional<String> renameCorrupt(Digest digest) throws IOException {
        Path p = chunkPath(digest);
        ReentrantLock lock = lockFor(digest);
        lock.lock();
        try {
            Path target = null;
            for (int n = 0; n <= 9; n++) {
                target = p.resolveSibling(digest.hex() + "." + n + ".bad");
                if (!existsNoFollow(target)) {
                    break;
                }
            }
            try {
                files.rename(p, target);
            } catch (NoSuchFileException e) {
                return Optional.empty();
            }
            return Optional.of(target.getFileName().toString());
        } finally {
            lock.unlock();
        }
    }

    private boolean existsNoFollow(Path p) throws IOException {
        try {
            files.stat(p);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    @Override
    public boolean exists(Digest digest) {
        try {
            return files.stat(chunkPath(digest)).size() > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Lists {@code .chunks/0000} … {@code ffff} in order; the last use is the atime. */
    @Override
    public void forEachChunk(ChunkVisitor visitor) throws IOException {
        for (int i = 0; i < 65536; i++) {
            Path dir = chunksDir.resolve(ChunkStoreCreator.prefixName(i));
            DirHandle h;
            try {
                h = DirHandle.open(dir);
            } catch (NoSuchFileException e) {
                continue;
            }
            try (h) {
                for (DirHandle.Entry e : h.entries()) {
                    String name = e.name();
                    if (name.length() != 64 || !Digest.isHex(name)) {
                        continue;
                    }
                    FileStat st;
                    try {
                        st = h.stat(name);
                    } catch (NoSuchFileException gone) {
                        continue;
                    }
                    if (st.regular()) {
                        visitor.visit(new StoredChunk(Digest.parse(name), st.size(), st.atime()));
                    }
                }
            }
        }
    }

    @Override
    public Removal removeIfUnused(Digest digest, Instant cutoff) throws IOException {
        ReentrantLock lock = lockFor(digest);
        lock.lock();
        try {
            FileStat st;
            try {
                st = files.stat(chunkPath(digest));
            } catch (NoSuchFileException e) {
                return Removal.ABSENT;
            }
            if (!st.atimeBefore(cutoff)) {
                return Removal.KEPT;
            }
            return removeLocked(digest, cutoff, files) == null ? Removal.REMOVED : Removal.KEPT;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes a chunk file whose atime was seen before {@code cutoff}, so that a writer of another
     * process touching it at the same moment cannot lose it (writers of this JVM are excluded by
     * {@link #lockFor}, which the caller holds): renames it to {@code <digest>.gc-removing},
     * stats it again and, if its atime is now recent, puts it back instead of deleting it. A
     * writer's in-place touch either happened before the rename (seen here) or finds the file gone.
     *
     * @param ops the file layer to use (garbage collection passes its own)
     * @return null if removed (or gone meanwhile), else the file's new status (kept)
     */
    public FileStat removeLocked(Digest digest, Instant cutoff, FileOps ops) throws IOException {
        Path file = chunkPath(digest);
        Path removing = file.resolveSibling(digest.hex() + GC_REMOVING);
        try {
            ops.rename(file, removing);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new IOException("garbage collection could not remove " + file + ": " + e.getMessage(), e);
        }
        FileStat again = ops.stat(removing);
        if (!again.atimeBefore(cutoff)) {
            putBack(removing, file, ops);
            return again;
        }
        try {
            ops.delete(removing);
        } catch (IOException e) {
            throw new IOException("garbage collection could not remove " + removing + ": " + e.getMessage(), e);
        }
        return null;
    }

    /**
     * Puts a {@code <digest>.gc-removing} file back under its name: hard link and delete (a new
     * copy inserted meanwhile wins), or rename where hard links are not supported.
     */
    public static void putBack(Path removing, Path file, FileOps ops) throws IOException {
        try {
            ops.link(removing, file);
        } catch (FileAlreadyExistsException e) {
            // a new copy was inserted meanwhile: it wins
        } catch (IOException | UnsupportedOperationException e) {
            ops.rename(removing, file); // no hard links here: rename back (same digest, same content)
            return;
        }
        ops.delete(removing);
    }

    /** The inode of the chunk file (verify's read order). */
    @Override
    public long readOrder(Digest digest) {
        try {
            return files.stat(chunkPath(digest)).inode();
        } catch (IOException | RuntimeException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Best-effort {@code syncfs} of the file system holding the datastore ({@link SyncLevel#FILESYSTEM}). */
    @Override
    public void flush() {
        FsSync.syncFilesystem(root);
    }

    @Override
    public String toString() {
        return "DirectoryChunkStore[" + root + ", sync-level=" + syncLevel + "]";
    }
}
