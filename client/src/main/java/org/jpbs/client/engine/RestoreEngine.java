package org.jpbs.client.engine;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.jpbs.client.progress.ProgressListener;
import org.jpbs.client.pxar.fs.TreeExtractor;
import org.jpbs.client.restore.ChunkConsumer;
import org.jpbs.client.restore.ImageRestore;
import org.jpbs.client.restore.PipelinedRestore;
import org.jpbs.client.restore.RestoreStats;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.pipeline.BoundedPipeline;
import org.jpbs.core.pipeline.Workers;
import org.jpbs.core.crypto.Fingerprint;
import org.jpbs.core.crypto.MasterKey;
import org.jpbs.core.errors.EncryptedDataException;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.core.pxar.IndexReadAt;

/**
 * The restore engine ({@code docs/design.md#engines}): reads archives of one snapshot from a
 * {@link SnapshotSource}, whoever calls (the command line from a directory or a server, the
 * hypervisor library, a VMA export). It checks the key against the manifest before anything is
 * written ({@link #keyFor}), decodes blobs, and restores an index's byte stream with every
 * chunk checked against its digest: from a source read blocking ({@link SnapshotSource.ChunkAccess#BLOCKING},
 * a local disk) {@code workers} threads read and decode, {@code 2 * workers + 2} chunks in flight;
 * from an asynchronous one (a server) up to {@code fetchConcurrency} fetches are in flight and
 * {@code workers} threads decode ({@code fetchConcurrency + workers} chunks held at most).
 */
public final class RestoreEngine {
    private final SnapshotSource source;
    private int workers = Runtime.getRuntime().availableProcessors();
    private int fetchConcurrency = PipelinedRestore.DEFAULT_FETCH_CONCURRENCY;
    private boolean sparse;
    private boolean verify = true;

    /** An engine reading from {@code source} (not closed by the engine). */
    public RestoreEngine(SnapshotSource source) {
        this.source = source;
    }

    /** Decode/verify threads, at least 1 (default: available processors). */
    public RestoreEngine workers(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("restore workers must be at least 1, got " + n);
        }
        this.workers = n;
        return this;
    }

    /** Chunk fetches in flight from an asynchronous source, at least 1 (default 16). */
    public RestoreEngine fetchConcurrency(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("fetch concurrency must be at least 1, got " + n);
        }
        this.fetchConcurrency = n;
        return this;
    }

    /** Skip writing zero chunks to a channel (it must read as zeros already and have its length). */
    public RestoreEngine sparse(boolean on) {
        this.sparse = on;
        return this;
    }

    /** Check each chunk's digest (default on). */
    public RestoreEngine verify(boolean on) {
        this.verify = on;
        return this;
    }

    /** The source. */
    public SnapshotSource source() {
        return source;
    }

    /**
     * Checks the key against the snapshot before anything is written, as the PBS client does:
     * an encrypted archive needs a key; a manifest naming a key fingerprint needs that key
     * ({@code wrong key - manifest's key A does not match provided key B}); a signed manifest
     * must verify with it. Without a key, a signed manifest of plain (sign-only) archives is not
     * checked, as in PBS. {@code rsa-encrypted.key.blob} restores without a key, so a lost key
     * can be recovered with the master key.
     *
     * @param entry    the archive's manifest entry
     * @param crypt    the key given, or null
     * @param snapshot the snapshot as messages name it
     * @return the key to decrypt the archive with (null for an unencrypted one)
     * @throws EncryptedDataException if the archive is encrypted and there is no key
     * @throws org.jpbs.core.errors.CryptoException on a key mismatch or a bad signature
     */
    public CryptConfig keyFor(FileEntry entry, CryptConfig crypt, String snapshot) throws IOException {
        BackupManifest manifest = source.manifest();
        if (crypt == null && entry.filename().equals(MasterKey.BLOB_NAME)) {
            // the master-key-wrapped key is restored without the key (that is its purpose); the
            // manifest lists it with the backup's crypt mode, but the blob is plain
            return null;
        }
        if (entry.cryptMode() == CryptMode.ENCRYPT && crypt == null) {
            Optional<Fingerprint> fp = manifest.keyFingerprint();
            String where = snapshot + ": " + entry.filename();
            throw fp.isPresent() ? new EncryptedDataException(where, "manifest was created with key " + fp.get()
                    + " (give it with --keyfile)") : new EncryptedDataException(where);
        }
        // the fingerprint and signature are checked only when a key is given, so a sign-only
        // snapshot (plain chunks) restores without its key, unchecked
        manifest.verify(crypt, snapshot);
        return entry.cryptMode() == CryptMode.ENCRYPT ? crypt : null;
    }

    /** The decoded content of a blob, decrypted with {@code key} (from {@link #keyFor}). */
    public byte[] readBlob(String serverName, CryptConfig key) throws IOException {
        return source.readBlob(serverName, key);
    }

    /** Opens an index of the snapshot (its chunks may then be read). */
    public IndexFile openIndex(String serverName) throws IOException {
        return source.openIndex(serverName);
    }

    /**
     * Restores into a channel with positional writes, out of order (with {@link #sparse},
     * zero chunks are skipped).
     *
     * @throws org.jpbs.core.errors.CorruptDataException if a chunk has the wrong length or content
     */
    public RestoreStats restore(IndexFile index, CryptConfig key, FileChannel target, String resource,
                                ProgressListener progress) throws IOException {
        return switch (source.chunkAccess()) {
            case BLOCKING -> local(key, progress).sparse(sparse).restore(index, source, target, resource);
            case ASYNC -> remote(key, progress).sparse(sparse).restore(index, source::fetchChunk, target, resource);
        };
    }

    /**
     * Restores into a stream, strictly in order; the stream is flushed, not closed. Every array
     * given to {@code target.write} is left alone afterwards, so the stream may keep it uncopied.
     */
    public RestoreStats restore(IndexFile index, CryptConfig key, OutputStream target, String resource,
                                ProgressListener progress) throws IOException {
        return switch (source.chunkAccess()) {
            case BLOCKING -> local(key, progress).restore(index, source, target, resource);
            case ASYNC -> remote(key, progress).restore(index, source::fetchChunk, target, resource);
        };
    }

    /** Restores to a consumer, out of order, from the worker threads (zero chunks as null). */
    public RestoreStats restore(IndexFile index, CryptConfig key, ChunkConsumer target, String resource,
                                ProgressListener progress) throws IOException {
        return switch (source.chunkAccess()) {
            case BLOCKING -> local(key, progress).restore(index, source, target, resource);
            case ASYNC -> remote(key, progress).restore(index, source::fetchChunk, target, resource);
        };
    }

    /** Receives chunks as stored (encoded, not decoded) from {@link #copyEncoded}; called from worker threads. */
    @FunctionalInterface
    public interface EncodedChunkConsumer {
        void accept(EncodedChunk chunk) throws IOException;
    }

    /** What {@link #copyEncoded} read: distinct chunks handed over and their encoded bytes. */
    public record CopyStats(long chunks, long bytes) {}

    /**
     * The chunk stream of an index as stored, for a sync ({@code docs/sync.md}): every distinct
     * chunk for which {@code wanted} returns true (asked on this thread, once per digest) is read
     * from the source, up to {@code fetchConcurrency + workers} at once, checked (CRC; an
     * unencrypted chunk is also decoded and its length and digest checked, as PBS's pull does) and
     * handed to {@code out} unchanged, from a worker thread. Nothing is decrypted or re-encoded.
     *
     * @throws CorruptDataException if a chunk fails its check
     */
    public CopyStats copyEncoded(IndexFile index, Predicate<Digest> wanted, EncodedChunkConsumer out, String resource)
            throws IOException {
        LongAdder chunks = new LongAdder();
        LongAdder bytes = new LongAdder();
        Set<Digest> seen = new HashSet<>();
        try (BoundedPipeline pipe = new BoundedPipeline("copy of " + resource, fetchConcurrency + workers,
                Workers.pool(workers, "copy"))) {
            for (int i = 0; i < index.chunkCount() && !pipe.failed(); i++) {
                Digest d = index.digest(i);
                if (!seen.add(d) || !wanted.test(d)) {
                    continue;
                }
                int length = index.chunkLength(i);
                pipe.submitAsync(() -> CompletableFuture.supplyAsync(() -> d, pipe.pool())
                        .thenCompose(source::fetchChunk)
                        .thenApplyAsync(blob -> {
                            try {
                                out.accept(checked(d, blob, length, resource));
                            } catch (IOException e) {
                                throw new CompletionException(e);
                            }
                            chunks.increment();
                            bytes.add(blob.rawLength());
                            return d;
                        }, pipe.pool()), x -> { });
            }
            pipe.finish();
        }
        return new CopyStats(chunks.sum(), bytes.sum());
    }

    private EncodedChunk checked(Digest d, DataBlob blob, int length, String resource) throws IOException {
        String what = resource + ": chunk " + d.hex();
        blob.verifyCrc(what);
        if (verify && !blob.isEncrypted()) {
            byte[] plain = blob.decode(what, length, null);
            if (!Digest.sha256(plain).equals(d)) {
                throw new CorruptDataException(what, -1, "content does not match its digest");
            }
        }
        return new EncodedChunk(d, blob, length);
    }

    /**
     * Extracts the file archive {@code index} (a {@code .pxar.didx}) into the directory
     * {@code target} with its metadata ({@link TreeExtractor}); the stream is fetched and
     * verified as for {@link #restore(IndexFile, CryptConfig, OutputStream, String, ProgressListener)}.
     *
     * @param warnings receives one line per entry whose metadata could not be restored
     * @throws org.jpbs.client.pxar.fs.NothingMatchedException if the options have patterns and no
     *                                                         entry matched them (nothing restored)
     */
    public RestoreStats extractTree(IndexFile index, CryptConfig key, Path target, TreeExtractor.Options options,
                                    Consumer<String> warnings, String resource, ProgressListener progress)
            throws IOException {
        return TreeRestore.extract(this, index, null, key, target, options, warnings, resource, progress);
    }

    /**
     * Extracts a split file archive ({@code docs/pxar.md#split-archives}): the metadata stream
     * {@code index} (a {@code .mpxar.didx}) as for
     * {@link #extractTree(IndexFile, CryptConfig, Path, TreeExtractor.Options, Consumer, String, ProgressListener)},
     * file contents read from the payload stream {@code payload} (the {@code .ppxar.didx}) where
     * its references point, each chunk verified.
     */
    public RestoreStats extractSplitTree(IndexFile index, IndexFile payload, CryptConfig key, Path target,
            TreeExtractor.Options options, Consumer<String> warnings, String resource, ProgressListener progress)
            throws IOException {
        try (IndexReadAt contents = randomAccess(payload, key, IndexReadAt.DEFAULT_CACHE_BYTES,
                resource.replace(".mpxar", ".ppxar"))) {
            return TreeRestore.extract(this, index, contents, key, target, options, warnings, resource, progress);
        }
    }

    /**
     * Random access to an index's byte stream (a mount, {@code docs/pxar.md#mount}): a read
     * fetches only the chunks it touches, verified as for a restore and kept in a chunk cache
     * of {@code cacheBytes}; a sequential reader gets the next chunks fetched ahead (more of
     * them from a server). The caller closes the reader.
     */
    public IndexReadAt randomAccess(IndexFile index, CryptConfig key, long cacheBytes, String resource) {
        int ahead = source.chunkAccess() == SnapshotSource.ChunkAccess.ASYNC ? 4 : 2;
        return new IndexReadAt(index, source, key, verify, cacheBytes, ahead, resource);
    }

    private ImageRestore local(CryptConfig key, ProgressListener progress) {
        return new ImageRestore().workers(workers).verify(verify).crypt(key).progress(progress);
    }

    private PipelinedRestore remote(CryptConfig key, ProgressListener progress) {
        return new PipelinedRestore().fetchConcurrency(fetchConcurrency).workers(workers).verify(verify).crypt(key)
                .progress(progress);
    }
}
