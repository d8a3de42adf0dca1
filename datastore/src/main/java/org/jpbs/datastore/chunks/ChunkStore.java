package org.jpbs.datastore.chunks;

import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import org.jpbs.core.ChunkSource;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;

/**
 * Where the chunks of a datastore live, whatever the medium ({@code docs/design.md#chunk-store}):
 * the directory {@code .chunks/XXXX/<digest>} ({@link DirectoryChunkStore}), memory (the test
 * kit), an object store next. Every implementation keeps the chunk insert rule of
 * {@code docs/formats.md} ({@link ChunkInsertRule}) and the garbage-collection contract:
 * {@link #touch} marks a chunk used now; {@link #forEachChunk} lists chunks with their last use;
 * {@link #removeIfUnused} removes one only if it is still unused since a cutoff, atomically
 * with respect to a concurrent {@link #insert} or {@link #touch} of the same digest, so that a
 * writer that was told "exists" never loses its chunk. Implementations are thread-safe.
 * Signatures carry no file-system types: a chunk is named for people by {@link #location}.
 */
public interface ChunkStore extends ChunkSource {
    /**
     * Result of {@link #insert}.
     *
     * @param duplicate   true if an existing copy was kept (and marked used) instead of writing
     * @param storedBytes length in bytes of the copy now stored: the new blob's length if
     *                    written, else the existing copy's length (as PBS reports it)
     */
    record InsertResult(boolean duplicate, long storedBytes) {}

    /**
     * One stored chunk as a sweep sees it.
     *
     * @param digest   its digest
     * @param size     stored length in bytes
     * @param lastUsed when it was last written, inserted as a duplicate or touched (the atime of a chunk file)
     */
    record StoredChunk(Digest digest, long size, Instant lastUsed) {}

    /**
     * Totals of a store.
     *
     * @param chunks number of chunks
     * @param bytes  their stored bytes
     */
    record Stats(long chunks, long bytes) {}

    /** Outcome of {@link #removeIfUnused}. */
    enum Removal {
        /** It was unused since the cutoff and is gone. */
        REMOVED,
        /** It was used (touched or inserted) at or after the cutoff and stays. */
        KEPT,
        /** There was no such chunk. */
        ABSENT
    }

    /** Receives the chunks of {@link #forEachChunk}. */
    @FunctionalInterface
    interface ChunkVisitor {
        /** One chunk; an exception stops the listing and is thrown by {@link #forEachChunk}. */
        void visit(StoredChunk chunk) throws IOException;
    }

    /**
     * Stores a chunk following the chunk insert rule ({@link ChunkInsertRule#keep}): a kept
     * existing copy is marked used; a new copy becomes visible under its digest only when
     * complete (never a partial chunk, whatever fails or crashes).
     *
     * @param digest the chunk digest; for an unencrypted blob the caller guarantees it is the
     *               SHA-256 of the decoded content
     * @param blob   the encoded chunk (stored as it is)
     * @throws org.jpbs.core.errors.CorruptDataException if the blob's magic is unknown or it is shorter than its header
     * @throws org.jpbs.datastore.os.StorageFullException if the store is full
     * @throws IOException on an encrypted/unencrypted conflict (message names the chunk) or I/O errors
     */
    InsertResult insert(Digest digest, DataBlob blob) throws IOException;

    /** True if a non-empty copy exists for the digest (a cheap check; it does not mark the chunk used). */
    boolean exists(Digest digest);

    /**
     * Marks the chunk used now (the GC mark, a re-used chunk of a backup): after this returns
     * true, no sweep with a cutoff before now removes it.
     *
     * @return true if the chunk exists, false if not (the caller must upload it)
     */
    boolean touch(Digest digest) throws IOException;

    /**
     * Reads the stored blob (the CRC is not checked here).
     *
     * @throws org.jpbs.core.errors.MissingChunkException if there is no non-empty copy
     * @throws org.jpbs.core.errors.CorruptDataException  if the copy is not a blob
     */
    DataBlob read(Digest digest) throws IOException;

    /**
     * Decoded plaintext of a chunk ({@link ChunkSource}): reads it, checks the CRC and
     * decompresses (and decrypts with {@code crypt}); the digest is not re-checked here.
     */
    @Override
    default byte[] readChunk(Digest digest, int expectedSize, CryptConfig crypt) throws IOException {
        return read(digest).decode(location(digest), expectedSize, crypt);
    }

    /** Where the chunk is (or would be), for messages: a file path, an object key. */
    String location(Digest digest);

    /**
     * Moves a corrupt chunk aside as verify does ({@code docs/gc.md#verify}): afterwards the
     * digest is absent, so the next insert stores a good copy.
     *
     * @return the name the corrupt copy now has (e.g. {@code <digest>.0.bad}), or empty if there was none
     */
    Optional<String> renameCorrupt(Digest digest) throws IOException;

    /** Lists every chunk (not corrupt copies set aside, not unfinished writes) with its last use. */
    void forEachChunk(ChunkVisitor visitor) throws IOException;

    /**
     * Removes the chunk if it was not used at or after {@code cutoff}, re-checked atomically
     * against a concurrent {@link #insert} or {@link #touch} of the same digest.
     */
    Removal removeIfUnused(Digest digest, Instant cutoff) throws IOException;

    /** Number and bytes of the stored chunks (a full listing). */
    default Stats stats() throws IOException {
        long[] t = new long[2];
        forEachChunk(c -> {
            t[0]++;
            t[1] += c.size();
        });
        return new Stats(t[0], t[1]);
    }

    /**
     * A number ordering reads for locality (the inode of a chunk file), or {@link Long#MAX_VALUE}
     * if unknown; verify reads in this order when asked to.
     */
    default long readOrder(Digest digest) {
        return Long.MAX_VALUE;
    }

    /**
     * Waits until those of {@code digests} that this store is still storing (a store may finish
     * an {@link #insert} in the background, as the S3 store uploads) are stored, and fails if one
     * of them could not be: an index naming them must then not be written. A store whose
     * inserts finish before they return does nothing.
     *
     * @throws IOException naming a chunk that is not stored and why
     */
    default void awaitStored(Iterable<Digest> digests) throws IOException {}

    /** Makes every chunk inserted so far durable (what {@code sync-level=filesystem} does at the end of a backup). Never throws. */
    default void flush() {}
}
