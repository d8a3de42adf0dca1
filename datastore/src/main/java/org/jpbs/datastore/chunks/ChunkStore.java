package org.jpbs.datastore.chunks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.locks.ReentrantLock;
import org.jpbs.core.ChunkSource;
import org.jpbs.core.FileFormats;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.datastore.os.AtomicFiles;
import org.jpbs.datastore.os.FileTimes;
import org.jpbs.datastore.os.FsSync;
import org.jpbs.datastore.os.StorageFullException;

/**
 * The chunk store of a datastore: {@code <root>/.chunks/XXXX/<64-hex digest>}, each file one
 * raw DataBlob ({@code docs/formats.md#datablob}, {@code docs/formats.md#chunk-store-chunks}). Thread-safe and parallel: the insert
 * decision (stat, compare, rename) for a digest runs under one of 64 striped locks, the write
 * of the temporary file runs without any lock.
 *
 * <p>The store trusts that an unencrypted blob's digest matches its content (the backup engine
 * or the server checks that) and lets such a verified chunk replace an encrypted or damaged
 * file under its digest (see {@link #insert}); it rejects blobs whose magic is unknown.
 */
public final class ChunkStore implements ChunkSource {
    private static final int STRIPES = 64;

    private final Path root;
    private final Path chunksDir;
    private final SyncLevel syncLevel;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    /**
     * Result of {@link #insert}.
     *
     * @param duplicate   true if an existing chunk file was kept (and touched) instead of writing
     * @param storedBytes length in bytes of the chunk file now in the store: the new blob's
     *                    length if written, else the existing file's length (as PBS reports it)
     */
    public record InsertResult(boolean duplicate, long storedBytes) {}

    private ChunkStore(Path root, SyncLevel syncLevel) {
        this.root = root;
        this.chunksDir = root.resolve(ChunkStoreCreator.CHUNKS);
        this.syncLevel = syncLevel;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /**
     * Creates a new datastore skeleton at {@code datastoreRoot}: the root (0755, created with its
     * parents if missing, or an existing empty directory), {@code .chunks} (0750) with the
     * 65,536 subdirectories {@code 0000..ffff} (0750), an empty {@code .lock} (0644).
     *
     * @throws IOException if the path is a file, a non-empty directory or already a datastore
     *                     (message names the path), or on any I/O error (the partial skeleton is removed)
     */
    public static ChunkStore create(Path datastoreRoot, SyncLevel syncLevel) throws IOException {
        Path r = datastoreRoot.toAbsolutePath().normalize();
        ChunkStoreCreator.create(r);
        return new ChunkStore(r, syncLevel);
    }

    /**
     * Opens the chunk store of an existing datastore.
     *
     * @throws IOException {@code "not a datastore: <path> (no .chunks directory)"} if it has none,
     *                     or naming the missing prefix directory if the store is incomplete
     */
    public static ChunkStore open(Path root, SyncLevel syncLevel) throws IOException {
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
        return new ChunkStore(r, syncLevel);
    }

    /** The datastore root (absolute). */
    public Path root() {
        return root;
    }

    /** The configured sync level. */
    public SyncLevel syncLevel() {
        return syncLevel;
    }

    /** {@code <root>/.chunks/<first 4 hex>/<64 hex>} for the digest (the file may not exist). */
    public Path chunkPath(Digest digest) {
        return chunksDir.resolve(digest.prefix()).resolve(digest.hex());
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
     * Stores a chunk following the PBS insert rules ({@code docs/formats.md#chunk-store-chunks}), hardened
     * against chunk poisoning (docs {@code formats.md} "Chunk insert rule"). The existing
     * file, if any, is read and classified first: absent, empty (0 bytes), damaged (unknown
     * magic, shorter than its header, bad CRC), plain or encrypted.
     * <ul>
     * <li>incoming unencrypted (its digest verified by the caller): an existing plain copy of the
     *     same or smaller size is kept and touched (atime now, mtime kept), a bigger one is replaced;
     *     an existing empty, damaged or <em>encrypted</em> file is replaced;</li>
     * <li>incoming encrypted (the digest cannot be checked): an existing empty or damaged file is
     *     replaced; an existing plain copy is never replaced and the insert is refused; both
     *     encrypted-uncompressed of different sizes: refused; otherwise the encrypted copy is kept.</li>
     * </ul>
     * A write goes to {@code <digest>.tmp_XXXXXX} (fsync'd if the sync level is
     * {@link SyncLevel#FILE}), renamed over the target under the digest's lock, then the
     * directory is fsync'd (FILE only); a reader or GC never sees a half-written chunk.
     *
     * @param digest the chunk digest (32 bytes). For an unencrypted blob the caller guarantees it
     *               is the SHA-256 of the decoded content (the server decodes and hashes every
     *               uploaded plain chunk; a local backup computes it).
     * @param blob   the encoded chunk (raw DataBlob bytes are written as they are)
     * @throws CorruptDataException if the blob's magic is unknown or it is shorter than its header
     * @throws StorageFullException naming the datastore and the chunk file if the file system is full
     * @throws IOException          on an encrypted/unencrypted conflict (message names the chunk) or I/O errors
     */
    public InsertResult insert(Digest digest, DataBlob blob) throws IOException {
        checkBlob(digest, blob);
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
            tmp = AtomicFiles.writeTemp(target, raw, 0, raw.length, fsync);
        } catch (StorageFullException e) {
            throw e.inDatastore(root);
        }
        lock.lock();
        try {
            InsertResult kept = keepExisting(digest, target, blob); // someone may have won the race
            if (kept != null) {
                Files.deleteIfExists(tmp);
                return kept;
            }
            AtomicFiles.commit(tmp, target);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        } finally {
            lock.unlock();
        }
        if (fsync) {
            FsSync.fsyncDirectory(target.getParent());
        }
        return new InsertResult(false, raw.length);
    }

    /** What an existing chunk file is, as far as the server can tell without a key. */
    private enum Existing { ABSENT, EMPTY, DAMAGED, PLAIN, ENCRYPTED }

    private record Found(Existing kind, long size, long magic) {}

    private Found classify(Path target) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return new Found(Existing.ABSENT, 0, 0);
        }
        if (!a.isRegularFile()) {
            throw new IOException("chunk store " + root + ": " + target + " is not a regular file");
        }
        if (a.size() == 0) {
            return new Found(Existing.EMPTY, 0, 0);
        }
        byte[] raw;
        try {
            raw = Files.readAllBytes(target);
        } catch (NoSuchFileException e) {
            return new Found(Existing.ABSENT, 0, 0); // removed by a GC of another process meanwhile
        }
        try {
            DataBlob old = DataBlob.wrap(raw, target.toString());
            old.verifyCrc(target.toString());
            return new Found(old.isEncrypted() ? Existing.ENCRYPTED : Existing.PLAIN, raw.length, old.magic());
        } catch (CorruptDataException e) {
            return new Found(Existing.DAMAGED, raw.length, 0);
        }
    }

    /** Returns the result if the existing file is to be kept (and touches it), null if the blob must be written. */
    private InsertResult keepExisting(Digest digest, Path target, DataBlob blob) throws IOException {
        Found old = classify(target);
        long incoming = blob.rawLength();
        switch (old.kind()) {
            case ABSENT, EMPTY, DAMAGED:
                return null; // nothing usable there (crash, evicted cache entry, bit rot, garbage): write
            case PLAIN:
                if (blob.isEncrypted()) {
                    throw new IOException("chunk " + digest.hex()
                            + ": refusing to overwrite an existing unencrypted chunk with an encrypted one");
                }
                return old.size() <= incoming ? touchKept(target, old.size()) : null; // keep the smaller copy
            case ENCRYPTED:
                if (!blob.isEncrypted()) {
                    return null; // verified plain data replaces an unverifiable encrypted file (poisoning)
                }
                if (old.size() == incoming) {
                    return touchKept(target, old.size());
                }
                if (old.magic() == FileFormats.ENCRYPTED_BLOB_MAGIC && blob.magic() == FileFormats.ENCRYPTED_BLOB_MAGIC) {
                    throw new IOException("chunk " + digest.hex() + ": refusing to overwrite an existing encrypted chunk"
                            + " with one of a different size (" + old.size() + " != " + incoming + " bytes)");
                }
                return touchKept(target, old.size());
            default:
                throw new IllegalStateException(old.kind().toString());
        }
    }

    /** Touches the kept file; null (write the chunk) if a GC of another process removed it meanwhile. */
    private InsertResult touchKept(Path target, long size) throws IOException {
        try {
            FileTimes.touchAtimeInPlace(target);
        } catch (NoSuchFileException e) {
            return null;
        }
        return new InsertResult(true, size);
    }

    private static void checkBlob(Digest digest, DataBlob blob) throws CorruptDataException {
        long m = blob.magic();
        int header;
        if (m == FileFormats.UNCOMPRESSED_BLOB_MAGIC || m == FileFormats.COMPRESSED_BLOB_MAGIC) {
            header = FileFormats.BLOB_HEADER_SIZE;
        } else if (m == FileFormats.ENCRYPTED_BLOB_MAGIC || m == FileFormats.ENCR_COMPR_BLOB_MAGIC) {
            header = FileFormats.ENCRYPTED_BLOB_HEADER_SIZE;
        } else {
            throw new org.jpbs.core.errors.UnsupportedFormatException("chunk " + digest.hex(), m,
                    "unknown blob magic " + String.format("%016x", m));
        }
        if (blob.rawLength() < header) {
            throw new CorruptDataException("chunk " + digest.hex(), blob.rawLength(), "blob shorter than its header");
        }
    }

    /** Suffix garbage collection gives a chunk while it removes it ({@code docs/gc.md}, "The last moment"). */
    public static final String GC_REMOVING = ".gc-removing";

    /**
     * Reads a chunk file; if it is missing, its {@code <digest>.gc-removing} copy of a garbage
     * collection that is removing it or was killed doing so (never used by {@link #exists} or
     * {@link #touch}: a writer re-uploads such a chunk). A 0-byte file counts as absent (an evicted S3-cache entry, {@code docs/formats.md#chunk-store-chunks}).
     *
     * @throws MissingChunkException if there is no (non-empty) file for the digest
     * @throws CorruptDataException  if the file is not a blob (too short, unknown magic); the CRC is not checked here
     */
    public DataBlob read(Digest digest) throws IOException {
        Path p = chunkPath(digest);
        byte[] raw;
        try {
            raw = Files.readAllBytes(p);
        } catch (NoSuchFileException e) {
            // a GC (of another process) renamed it to <digest>.gc-removing to remove it and either
            // puts it back in a moment (a writer touched it) or was killed in between; the next GC
            // puts a referenced one back. Same content either way, so a reader takes that copy.
            try {
                raw = Files.readAllBytes(p.resolveSibling(digest.hex() + GC_REMOVING));
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
     * Decoded plaintext of a chunk ({@link ChunkSource}): reads it, checks the CRC and
     * decompresses. The digest of the plaintext is not re-checked here (verify does that).
     *
     * @param expectedSize plaintext length in bytes, or -1 if unknown
     * @param crypt        the key for an encrypted chunk, or null
     * @throws MissingChunkException                       if absent
     * @throws CorruptDataException                        on a bad CRC or undecodable data
     * @throws org.jpbs.core.errors.EncryptedDataException if the chunk is encrypted and {@code crypt} is null
     * @throws org.jpbs.core.errors.CryptoException        if it does not decrypt with {@code crypt}
     */
    @Override
    public byte[] readChunk(Digest digest, int expectedSize, CryptConfig crypt) throws IOException {
        return read(digest).decode(chunkPath(digest).toString(), expectedSize, crypt);
    }

    /**
     * Sets the chunk file's atime to now (mtime kept): what re-used chunks need. A 0-byte file is
     * touched too (it marks a chunk in use). Runs under the digest's lock ({@link #lockFor}), so
     * a garbage collection sweeping in this JVM either sees the new atime or has already
     * removed the file (then this returns false and the caller must upload the chunk); against
     * a GC of another process the touch goes through the descriptor and checks the file is
     * still in place ({@link FileTimes#touchAtimeInPlace}), with the same outcome.
     *
     * @return true if the file exists, false if not
     * @throws IOException on errors other than "no such file"
     */
    public boolean touch(Digest digest) throws IOException {
        ReentrantLock lock = lockFor(digest); // so a concurrent GC sweep re-checks after this touch
        lock.lock();
        try {
            FileTimes.touchAtimeInPlace(chunkPath(digest)); // safe against a GC sweep of another process
            return true;
        } catch (NoSuchFileException e) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Renames a corrupt chunk to {@code <digest>.<n>.bad} with the first {@code n} in 0..9 that
     * does not exist yet ({@code .9.bad} is replaced if all exist), as verify does ({@code docs/gc.md#verify}). Under the digest's lock, so a concurrent insert either
     * sees the chunk gone and writes a good copy, or wrote it before.
     *
     * @return the new name, or empty if the chunk file did not exist
     * @throws IOException if the rename fails
     */
    public java.util.Optional<Path> renameCorrupt(Digest digest) throws IOException {
        Path p = chunkPath(digest);
        ReentrantLock lock = lockFor(digest);
        lock.lock();
        try {
            Path target = null;
            for (int n = 0; n <= 9; n++) {
                target = p.resolveSibling(digest.hex() + "." + n + ".bad");
                if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                    break;
                }
            }
            try {
                Files.move(p, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } catch (NoSuchFileException e) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(target);
        } finally {
            lock.unlock();
        }
    }

    /** True if a non-empty chunk file exists for the digest. */
    public boolean exists(Digest digest) {
        try {
            return Files.size(chunkPath(digest)) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Best-effort {@code syncfs} of the file system holding the datastore: what
     * {@link SyncLevel#FILESYSTEM} does once at the end of a backup. Never throws.
     */
    public void syncFilesystem() {
        FsSync.syncFilesystem(root);
    }

    @Override
    public String toString() {
        return "ChunkStore[" + root + ", sync-level=" + syncLevel + "]";
    }
}
