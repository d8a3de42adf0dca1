package org.jpbs.client.engine;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.jpbs.client.backup.BackupStats;
import org.jpbs.client.backup.ChunkProcessor;
import org.jpbs.client.backup.ImageBackup;
import org.jpbs.client.progress.ProgressListener;
import org.jpbs.client.pxar.fs.TreeArchiver;
import org.jpbs.core.FileFormats;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.snapshot.SnapshotTarget;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.MasterKey;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;

/**
 * The backup engine ({@code docs/design.md#engines}): fills one new snapshot of a
 * {@link SnapshotTarget} with archives of any kind, whoever calls (the command line to a
 * directory or a server, the hypervisor library, a VMA import).
 *
 * <ul>
 * <li>an image ({@link #backupImage}) becomes a fixed index of 4 MiB chunks, hashed and
 *     compressed by {@link ImageBackup} on {@code workers} threads;</li>
 * <li>chunks assembled elsewhere (a VMA import, a hypervisor writing blocks from many threads
 *     in any order) go through {@link #openFixedIndex} / {@link #openDynamicIndex}: an
 *     {@link Archive} with a {@link ChunkProcessor} and the index writer, closed with the
 *     finished index;</li>
 * <li>a directory tree ({@link #backupTree}) becomes a pxar stream in a dynamic index of
 *     buzhash chunks (4 MiB average), its entries listed in the snapshot's catalog
 *     {@code catalog.pcat1.didx} ({@code docs/pxar.md#backup-and-restore});</li>
 * <li>a file ({@link #backupBlob}) becomes a blob.</li>
 * </ul>
 * For every index the engine reuses the previous snapshot's index of the same archive when it
 * may ({@link PreviousArchives}): its chunks are registered, not compressed nor sent again.
 * {@link #finish} adds the master-key blob if any, writes the manifest (every archive with the
 * backup's crypt mode, signed unless the mode is {@code none}) and ends the snapshot. Any
 * failure should be followed by {@link #abort} (or closing the target), so nothing becomes
 * visible. Archives may be written one after the other or concurrently.
 */
public final class BackupEngine {
    private final SnapshotTarget target;
    private final BackupCrypt crypt;
    private final PreviousArchives previous;
    private final Map<String, FileEntry> entries = new LinkedHashMap<>();
    private final Consumer<String> warn;
    private int workers = Runtime.getRuntime().availableProcessors();
    private boolean compress = true;
    private boolean warned;
    private TreeBackup trees;

    /**
     * @param target where the snapshot goes (begun; the engine finishes it)
     * @param crypt  mode and key
     * @param warn   receives one-line warnings (e.g. a previous index that cannot be read)
     */
    public BackupEngine(SnapshotTarget target, BackupCrypt crypt, Consumer<String> warn) {
        this.target = target;
        this.crypt = crypt;
        this.previous = new PreviousArchives(target, crypt);
        this.warn = warn;
    }

    /** Hashing/compressing threads of an image backup, at least 1 (default: available processors). */
    public BackupEngine workers(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + n);
        }
        this.workers = n;
        return this;
    }

    /** Whether new chunks and blobs are zstd-compressed (default true; kept only if smaller). */
    public BackupEngine compress(boolean on) {
        this.compress = on;
        return this;
    }

    /** The snapshot being written. */
    public BackupSnapshotRef snapshot() {
        return target.snapshot();
    }

    /** The target. */
    public SnapshotTarget target() {
        return target;
    }

    /** The crypt settings. */
    public BackupCrypt crypt() {
        return crypt;
    }

    /** An image's result: its manifest entry and the counters. */
    public record ImageResult(FileEntry entry, BackupStats stats) {}

    /**
     * Backs up bytes {@code [0, size)} of {@code in} as the fixed index {@code serverName}.
     *
     * @param resource the input's name for error messages (e.g. its path)
     * @param progress receives the plaintext bytes of every finished chunk
     */
    public ImageResult backupImage(String serverName, FileChannel in, long size, String resource,
                                   ProgressListener progress) throws IOException {
        Set<Digest> known = known(serverName);
        SnapshotTarget.IndexWriter writer = target.openFixedIndex(serverName, size, known);
        ImageBackup.Result r = new ImageBackup().workers(workers).compress(compress).crypt(crypt.chunkKey())
                .progress(progress).run(in, size, writer, UUID.randomUUID(), Instant.now().getEpochSecond(), resource);
        return new ImageResult(add(writer.close(r.index(), crypt.mode())), r.stats());
    }

    /** An index being filled by the caller: a processor for its chunks, closed with the index. */
    public final class Archive {
        private final SnapshotTarget.IndexWriter writer;
        private final ChunkProcessor processor;

        private Archive(SnapshotTarget.IndexWriter writer) {
            this.writer = writer;
            this.processor = new ChunkProcessor(writer, compress, crypt.chunkKey());
        }

        /** Hashes, reuses or compresses and stores chunks; thread-safe. */
        public ChunkProcessor processor() {
            return processor;
        }

        /** The index writer (for callers that encode chunks themselves). */
        public SnapshotTarget.IndexWriter writer() {
            return writer;
        }

        /** Ends the index; returns its manifest entry. */
        public FileEntry close(IndexFile index) throws IOException {
            return add(writer.close(index, crypt.mode()));
        }
    }

    /** Opens a fixed index of {@code size} bytes whose chunks the caller assembles. */
    public Archive openFixedIndex(String serverName, long size) throws IOException {
        return new Archive(target.openFixedIndex(serverName, size, known(serverName)));
    }

    /** Opens a dynamic index (e.g. a file archive) whose chunks the caller cuts. */
    public Archive openDynamicIndex(String serverName) throws IOException {
        return new Archive(target.openDynamicIndex(serverName, known(serverName)));
    }

    /**
     * Opens a dynamic index written as a byte stream, cut by the buzhash chunker of average
     * size {@code averageChunkSize} (a power of two, e.g. {@link DynamicArchiveStream#AVERAGE_CHUNK_SIZE}); chunks are
     * processed on the engine's workers. End it with {@link DynamicArchiveStream#finish}.
     */
    public DynamicArchiveStream openDynamicStream(String serverName, int averageChunkSize) throws IOException {
        return new DynamicArchiveStream(openDynamicIndex(serverName), averageChunkSize, workers);
    }

    /** A split archive's payload stream: cut by the payload chunker ({@code docs/pxar.md#metadata-change-detection}). */
    DynamicArchiveStream openPayloadStream(String serverName) throws IOException {
        return new DynamicArchiveStream(openDynamicIndex(serverName), DynamicArchiveStream.AVERAGE_CHUNK_SIZE, workers,
                true);
    }

    /**
     * Backs up the directory tree {@code root} as the file archive {@code serverName}
     * ({@code NAME.pxar.didx}) and lists it in the snapshot's catalog, which {@link #finish}
     * ends. Trees are archived one after the other.
     *
     * @param warnings receives one line per file skipped or changed while read
     */
    public DynamicArchiveStream.Result backupTree(String serverName, Path root, TreeArchiver.Options options,
            Consumer<String> warnings) throws IOException {
        return backupTree(serverName, root, options, ChangeDetectionMode.LEGACY, warnings).archives().get(0);
    }

    /**
     * Backs up the directory tree {@code root} as the file archive {@code serverName}
     * ({@code NAME.pxar.didx}) in the given change-detection mode: {@code legacy} as above; {@code data}
     * and {@code metadata} as the split archive {@code NAME.mpxar.didx} + {@code NAME.ppxar.didx}
     * (not in the catalog), {@code metadata} reusing unchanged files' payload from the previous
     * snapshot without reading them ({@code docs/pxar.md#metadata-change-detection}).
     */
    public TreeResult backupTree(String serverName, Path root, TreeArchiver.Options options, ChangeDetectionMode mode,
            Consumer<String> warnings) throws IOException {
        TreeBackup t;
        synchronized (this) {
            if (trees == null) {
                trees = new TreeBackup(this);
            }
            t = trees;
        }
        return t.archive(serverName, root, options, mode, warnings);
    }

    /**
     * Stores {@code data} as the blob {@code serverName} (compressed, encrypted in {@code encrypt} mode).
     *
     * @return the manifest entry (its size is the stored size)
     * @throws IllegalArgumentException if it is larger than a blob may be
     */
    public FileEntry backupBlob(String serverName, byte[] data) throws IOException {
        if (data.length > FileFormats.MAX_BLOB_SIZE) {
            throw new IllegalArgumentException("'" + serverName + "' is too large for a blob (" + data.length + " bytes)");
        }
        DataBlob blob = DataBlob.encode(data, 0, data.length, compress, crypt.chunkKey());
        return add(target.addBlob(serverName, blob, crypt.mode()));
    }

    /**
     * The previous snapshot's index of an archive if the crypt settings allow reusing it (a
     * caller may check it before {@link #openFixedIndex}, which then reuses the same download).
     */
    public PreviousIndex previousIndex(String serverName) throws IOException {
        PreviousArchives.Lookup l = previous.lookup(serverName);
        return new PreviousIndex(l.index(), l.why());
    }

    /** A previous index ({@code index} null: none, {@code why} says why). */
    public record PreviousIndex(IndexFile index, String why) {}

    /**
     * Adds the master-key blob if any, writes the manifest (signed unless the mode is
     * {@code none}) and ends the snapshot.
     *
     * @return the finished snapshot
     */
    public BackupSnapshotRef finish() throws IOException {
        TreeBackup t;
        synchronized (this) {
            t = trees;
        }
        if (t != null) {
            t.finish();
        }
        if (crypt.masterKeyBlob() != null && !has(MasterKey.BLOB_NAME)) {
            add(target.addBlob(MasterKey.BLOB_NAME, crypt.masterKeyBlob(), crypt.mode()));
        }
        BackupSnapshotRef ref = target.snapshot();
        BackupManifest m = new BackupManifest(ref.group().type(), ref.group().id(), ref.time());
        files().forEach(m::addFile);
        if (crypt.signKey() != null) {
            m.sign(crypt.signKey());
        }
        target.finish(m);
        return ref;
    }

    /** Gives the snapshot up (see {@link SnapshotTarget#abort}). */
    public void abort(String reason) {
        TreeBackup t;
        synchronized (this) {
            t = trees;
        }
        if (t != null) {
            t.abort();
        }
        target.abort(reason);
    }

    /** The manifest entries so far, in the order the archives were ended. */
    public synchronized List<FileEntry> files() {
        return new ArrayList<>(entries.values());
    }

    /** True if an archive of this name was ended. */
    public synchronized boolean has(String serverName) {
        return entries.containsKey(serverName);
    }

    private synchronized FileEntry add(FileEntry e) {
        if (entries.putIfAbsent(e.filename(), e) != null) {
            throw new IllegalArgumentException("archive '" + e.filename() + "' was already added");
        }
        return e;
    }

    private Set<Digest> known(String serverName) {
        synchronized (this) {
            if (!warned) {
                warned = true;
                String why = previous.manifestFailure();
                if (why != null) {
                    warn.accept(why + "; backing up everything");
                }
            }
        }
        return previous.known(serverName, FileFormats.DEFAULT_FIXED_CHUNK_SIZE, warn);
    }
}
