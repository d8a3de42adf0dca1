package org.jpbs.datastore.chunks;

import java.io.IOException;
import java.io.InputStream;
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

/**
 * The chunk store of a datastore: {@code <root>/.chunks/XXXX/<64-hex digest>}, each file one
 * raw DataBlob (spec {@code pbs-formats.md} §1, §6). Thread-safe and parallel: the insert
 * decision (stat, compare, rename) for a digest runs under one of 64 striped locks, the write
 * of the temporary file runs without any lock.
 *
 * <p>The store trusts that a blob's digest matches its content (the backup engine or the
 * server checks that); it only rejects blobs whose magic is unknown.
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
     * Stores a chunk following the PBS insert rules (spec §6 "Insert algorithm"):
     * same size as the existing file: touch it (atime now, mtime kept), duplicate; existing
     * 0-byte file: overwrite; incoming encrypted: refuse if the existing copy is unencrypted or
     * both are encrypted-uncompressed (sizes differ), else keep and touch; existing smaller:
     * keep and touch; otherwise write {@code <digest>.tmp_XXXXXX}, fsync it if the sync level
     * is {@link SyncLevel#FILE}, rename it over the target, fsync the directory (FILE only).
     *
     * @param digest the chunk digest (32 bytes; trusted to match the blob)
     * @param blob   the encoded chunk (raw DataBlob bytes are written as they are)
     * @throws CorruptDataException if the blob's magic is unknown or it is shorter than its header
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
        Path tmp = AtomicFiles.writeTemp(target, raw, 0, raw.length, fsync);
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

    /** Returns the result if the existing file is to be kept (and touches it), null if the blob must be written. */
    private InsertResult keepExisting(Digest digest, Path target, DataBlob blob) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
        if (!a.isRegularFile()) {
            throw new IOException("chunk store " + root + ": " + target + " is not a regular file");
        }
        long old = a.size();
        long incoming = blob.rawLength();
        if (old == incoming) {
            return touchKept(target, old);
        }
        if (old == 0) {
            return null; // empty file (crash or evicted cache entry): overwrite
        }
        if (blob.isEncrypted()) {
            long oldMagic = readMagic(target);
            if (oldMagic == FileFormats.UNCOMPRESSED_BLOB_MAGIC || oldMagic == FileFormats.COMPRESSED_BLOB_MAGIC) {
                throw new IOException("chunk " + digest.hex()
                        + ": refusing to overwrite an existing unencrypted chunk with an encrypted one");
            }
            if (oldMagic != FileFormats.ENCRYPTED_BLOB_MAGIC && oldMagic != FileFormats.ENCR_COMPR_BLOB_MAGIC) {
                throw new CorruptDataException(target.toString(), 0, "existing chunk has an unknown blob magic "
                        + String.format("%016x", oldMagic));
            }
            if (oldMagic == FileFormats.ENCRYPTED_BLOB_MAGIC && blob.magic() == FileFormats.ENCRYPTED_BLOB_MAGIC) {
                throw new IOException("chunk " + digest.hex() + ": refusing to overwrite an existing encrypted chunk"
                        + " with one of a different size (" + old + " != " + incoming + " bytes)");
            }
            return touchKept(target, old);
        }
        if (old < incoming) {
            return touchKept(target, old);
        }
        return null; // existing copy is bigger: replace it with the smaller one
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

    private static long readMagic(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] m = in.readNBytes(8);
            if (m.length < 8) {
                throw new CorruptDataException(file.toString(), m.length, "existing chunk shorter than a blob magic");
            }
            return FileFormats.magicAt(m, 0);
        }
    }

    private static void checkBlob(Digest digest, DataBlob blob) throws CorruptDataException {
        long m = blob.magic();
        int header;
        if (m == FileFormats.UNCOMPRESSED_BLOB_MAGIC || m == FileFormats.COMPRESSED_BLOB_MAGIC) {
            header = FileFormats.BLOB_HEADER_SIZE;
        } else if (m == FileFormats.ENCRYPTED_BLOB_MAGIC || m == FileFormats.ENCR_COMPR_BLOB_MAGIC) {
            header = FileFormats.ENCRYPTED_BLOB_HEADER_SIZE;
        } else {
            throw new CorruptDataException("chunk " + digest.hex(), 0, "unknown blob magic " + String.format("%016x", m));
        }
        if (blob.rawLength() < header) {
            throw new CorruptDataException("chunk " + digest.hex(), blob.rawLength(), "blob shorter than its header");
        }
    }

    /**
     * Reads a chunk file. A 0-byte file counts as absent (an evicted S3-cache entry, spec §6).
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
            throw new MissingChunkException(digest, "datastore " + root);
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
     * does not exist yet ({@code .9.bad} is replaced if all exist), as verify does (spec
     * {@code pbs-datastore-ops.md} §3.2). Under the digest's lock, so a concurrent insert either
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
