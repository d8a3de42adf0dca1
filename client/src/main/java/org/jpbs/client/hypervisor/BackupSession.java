package org.jpbs.client.hypervisor;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.jpbs.client.engine.BackupCrypt;
import org.jpbs.client.engine.BackupEngine;
import org.jpbs.client.remote.BackupClient;
import org.jpbs.client.remote.RemoteSnapshotTarget;
import org.jpbs.client.remote.Credentials;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.Repository;
import org.jpbs.core.FileFormats;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.FixedIndex;

/**
 * Writes one snapshot to a remote datastore the way a hypervisor's backup job does ({@code docs/protocol.md#backup-session}; the role of {@code proxmox-backup-qemu}): register images, write
 * their 4 MiB chunks from any number of threads in any order, add configuration blobs, finish.
 *
 * <pre>{@code
 * try (BackupSession s = BackupSession.open(repo, Credentials.fromEnv(System.getenv(), null),
 *         new BackupSnapshotRef(BackupGroupRef.parse(BackupNamespace.ROOT, "vm/100"), now))) {
 *     int disk = s.registerImage("drive-scsi0.img", diskSize);
 *     // many threads: s.writeData(disk, offset, bytesOrNullForZeros);
 *     s.closeImage(disk);
 *     s.addConfig("qemu-server.conf", configBytes);
 *     s.finish();
 * }
 * }</pre>
 *
 * <p>Every image is an archive of the {@link BackupEngine} ({@link BackupEngine#openFixedIndex}),
 * and each {@link #writeData} goes through its {@link org.jpbs.client.backup.ChunkProcessor}
 * into the session's {@link RemoteSnapshotTarget}, like the chunks of any other caller: hashed
 * (SHA-256) in the calling thread, a zero chunk recognised, the upload skipped when the chunk is
 * known (listed by the previous snapshot's index of the same image, which the engine downloads,
 * or uploaded earlier in this session), else compressed (zstd) and uploaded with at most
 * {@link Options#uploadConcurrency()} uploads in flight per session; the call returns once the
 * chunk is stored on the server. Writers hold no common lock: 16 threads writing at once hash,
 * compress and upload in parallel. {@link #closeImage} appends the index and closes it.
 *
 * <p>Incremental backup ({@link #registerImage(String, long, BitSet)}): the new index starts as
 * a copy of the previous snapshot's index of the same image (its chunks are known to the server
 * once downloaded, {@code docs/protocol.md#chunk-upload-and-known-chunks}), so only the dirty
 * chunks are written. {@link #abort} (or {@link #close()} before {@link #finish}) drops the
 * connection; the server then removes the unfinished snapshot
 * ({@code docs/protocol.md#end-abort-and-cleanup}).
 *
 * <p>A thin adapter: the engine also decides what of the previous snapshot is reused, stores
 * the configs and writes and signs the manifest; only the QEMU-style bookkeeping (chunks written
 * in any order from any thread, each once, the dirty bitmap) is this class's own.
 *
 * <p>All methods are thread-safe. Failures are {@link IOException}s with one-line messages;
 * misuse (bad offsets, unknown image ids) is an {@link IllegalArgumentException} or
 * {@link IllegalStateException}.
 */
public final class BackupSession implements AutoCloseable {
    /** The chunk size of images: 4 MiB (the server's fixed chunk size, {@code docs/protocol.md#chunk-upload-and-known-chunks}). */
    public static final int CHUNK_SIZE = FileFormats.DEFAULT_FIXED_CHUNK_SIZE;

    /**
     * Tuning of a session.
     *
     * @param uploadConcurrency chunk uploads in flight at most (default 16)
     * @param compress          zstd-compress chunks and blobs (kept only if smaller; default true)
     * @param crypt             encrypt chunks and configs with this key and sign the manifest
     *                          ({@code docs/formats.md#datablob}, {@code docs/formats.md#chunks-and-digests}, {@code docs/formats.md#manifest-indexjsonblob}), or null (default)
     */
    public record Options(int uploadConcurrency, boolean compress, CryptConfig crypt) {
        /** 16 uploads in flight, compression on, no encryption. */
        public static final Options DEFAULT = new Options(16, true, null);

        /** Without encryption. */
        public Options(int uploadConcurrency, boolean compress) {
            this(uploadConcurrency, compress, null);
        }

        /** A copy that encrypts with {@code key}. */
        public Options withCrypt(CryptConfig key) {
            return new Options(uploadConcurrency, compress, key);
        }

    }

    /**
     * Counters of one image: its chunks, those written by the caller, those uploaded as new
     * (the zero chunk's blob included) and their encoded bytes.
     */
    public record ImageStats(long chunks, long writtenChunks, long uploadedChunks, long uploadedBytes) {}

    /** The data of a zero chunk written as {@code null} (only read). */
    private static final byte[] ZEROS = new byte[CHUNK_SIZE];

    private final RemoteSnapshotTarget target;
    private final BackupEngine engine;
    private final BackupClient client;
    private final BackupSnapshotRef ref;
    private final List<ImageWriter> images = new ArrayList<>();
    private volatile String abortReason;
    private volatile boolean finished;

    private BackupSession(RemoteSnapshotTarget target, Options options) {
        this.target = target;
        this.engine = new BackupEngine(target, BackupCrypt.encrypt(options.crypt()), w -> { }).compress(options.compress());
        this.client = target.client();
        this.ref = target.snapshot();
    }

    /** {@link #open(Repository, Credentials, BackupSnapshotRef, Options)} with {@link Options#DEFAULT}. */
    public static BackupSession open(Repository repo, Credentials auth, BackupSnapshotRef snapshot) throws IOException {
        return open(repo, auth, snapshot, Options.DEFAULT);
    }

    /**
     * Connects and starts the backup of a new snapshot.
     *
     * @param repo     a remote repository
     * @param auth     password or token secret, trusted fingerprint
     * @param snapshot namespace, type, id and time (epoch seconds, after the group's last snapshot)
     * @throws org.jpbs.client.http.HttpStatusException if the server refuses (e.g. the time is not after the last snapshot)
     * @throws IOException if the connection fails or the certificate is not trusted
     */
    public static BackupSession open(Repository repo, Credentials auth, BackupSnapshotRef snapshot, Options options)
            throws IOException {
        PbsClient pbs = new PbsClient(repo, auth);
        return new BackupSession(RemoteSnapshotTarget.start(pbs, snapshot, options.uploadConcurrency()), options);
    }

    /** The snapshot being written. */
    public BackupSnapshotRef snapshot() {
        return ref;
    }

    /** A full image: every chunk must be written before {@link #closeImage}. See {@link #registerImage(String, long, BitSet)}. */
    public int registerImage(String name, long size) throws IOException {
        return register(name, size, null, false);
    }

    /**
     * An incremental image: the new index starts as a copy of the previous snapshot's index of
     * the same image, and only the chunks set in {@code dirty} (bit {@code i} = chunk at offset
     * {@code i * CHUNK_SIZE}) must be written.
     *
     * @param name  archive name, e.g. {@code drive-scsi0.img} (stored as {@code drive-scsi0.img.fidx})
     * @param size  image size in bytes (must equal the previous size)
     * @param dirty the chunks that changed since the previous snapshot
     * @return the image id for {@link #writeData}
     * @throws IOException if the group has no previous snapshot with this image, its size
     *                     differs, or the server refuses
     */
    public int registerImage(String name, long size, BitSet dirty) throws IOException {
        return register(name, size, dirty, true);
    }

    private int register(String name, long size, BitSet dirty, boolean incremental) throws IOException {
        checkUsable();
        String serverName = ArchiveName.toServerName(name);
        if (!serverName.endsWith(".fidx")) {
            throw new IllegalArgumentException("image name '" + name + "' must end with .img (or .img.fidx)");
        }
        if (size < 1) {
            throw new IllegalArgumentException("image '" + serverName + "': size must be at least 1 byte, got " + size);
        }
        synchronized (this) {
            if (engine.has(serverName) || images.stream().anyMatch(w -> w.name.equals(serverName))) {
                throw new IllegalArgumentException("image '" + serverName + "' is already registered");
            }
        }
        FixedIndex previous = incremental ? previousIndex(serverName) : null;
        if (previous != null && (previous.size() != size || previous.chunkSize() != CHUNK_SIZE)) {
            throw new IOException("image '" + serverName + "': cannot back up incrementally, the size changed ("
                    + previous.size() + " bytes in the previous snapshot, now " + size + ")");
        }
        BackupEngine.Archive archive = engine.openFixedIndex(serverName, size);
        synchronized (this) {
            ImageWriter w = new ImageWriter(images.size(), serverName, size, CHUNK_SIZE, archive, previous, dirty);
            images.add(w);
            return w.id;
        }
    }

    /** The previous snapshot's index of an image (the engine reuses the download when the image is opened). */
    private FixedIndex previousIndex(String serverName) throws IOException {
        String why;
        try {
            BackupEngine.PreviousIndex p = engine.previousIndex(serverName);
            if (p.index() instanceof FixedIndex idx) {
                return idx;
            }
            why = p.why();
        } catch (CorruptDataException ex) {
            why = ex.getMessage();
        }
        throw new IOException("image '" + serverName + "': an incremental backup needs the previous snapshot's index"
                + " of this image, but " + why);
    }

    /**
     * Writes one chunk of an image. May be called from many threads at once, in any order; each
     * chunk at most once. Returns when the chunk is stored on the server.
     *
     * @param image  id from {@link #registerImage}
     * @param offset byte offset, a multiple of {@link #CHUNK_SIZE}
     * @param data   exactly {@code min(CHUNK_SIZE, size - offset)} bytes, or null for zeros (not modified)
     * @throws IllegalArgumentException for a bad offset or length, or a chunk written twice
     * @throws IOException if the upload fails or the session was aborted
     */
    public void writeData(int image, long offset, byte[] data) throws IOException {
        checkUsable();
        ImageWriter w = image(image);
        int i = w.beginWrite(offset, data);
        boolean ok = false;
        try {
            int len = w.chunkLength(i);
            Digest d = w.archive.processor().process(data == null ? ZEROS : data, len);
            client.awaitChunk(d);
            w.record(i, d);
            ok = true;
        } catch (IOException e) {
            throw aborted(e);
        } finally {
            if (ok) {
                w.endWrite();
            } else {
                w.failWrite(i);
            }
        }
    }

    /**
     * Closes an image: waits for its writes in progress and for the session's uploads, appends
     * the index (every chunk with its offset) and closes it on the server (chunk count, size,
     * checksum).
     *
     * @throws IOException if a chunk (full) or a dirty chunk (incremental) was never written, or the server refuses
     */
    public void closeImage(int image) throws IOException {
        checkUsable();
        ImageWriter w = image(image);
        if (w.isClosing()) {
            throw new IllegalStateException("image '" + w.name + "' is already closed");
        }
        w.closeAndDrain();
        try {
            w.checkComplete();
            w.archive.close(w.index());
        } catch (IOException e) {
            throw aborted(e);
        }
    }

    /** Counters of an image. */
    public ImageStats imageStats(int image) {
        ImageWriter w = image(image);
        return new ImageStats(w.chunkCount, w.recorded(), w.archive.processor().storedChunks(),
                w.archive.processor().storedBytes());
    }

    /**
     * Adds a configuration file as a blob ({@code qemu-server.conf} becomes {@code qemu-server.conf.blob}).
     *
     * @param name file name, e.g. {@code qemu-server.conf} or {@code fw.conf}
     * @param data the content (at most 16 MiB)
     */
    public void addConfig(String name, byte[] data) throws IOException {
        checkUsable();
        String serverName = ArchiveName.toServerName(name);
        if (!serverName.endsWith(".blob")) {
            throw new IllegalArgumentException("config name '" + name + "' must not end with .img/.pxar/.fidx/.didx");
        }
        if (serverName.equals(BackupClient.MANIFEST)) {
            throw new IllegalArgumentException("config name '" + name + "' is reserved for the manifest");
        }
        if (engine.has(serverName)) {
            throw new IllegalArgumentException("'" + serverName + "' was already added");
        }
        try {
            engine.backupBlob(serverName, data);
        } catch (IOException e) {
            throw aborted(e);
        }
    }

    /**
     * Writes the manifest and finishes the snapshot; the connection is closed afterwards.
     *
     * @return the snapshot written
     * @throws IllegalStateException if an image is not closed
     * @throws IOException if the server refuses (e.g. nothing was written)
     */
    public BackupSnapshotRef finish() throws IOException {
        checkUsable();
        synchronized (this) {
            for (ImageWriter w : images) {
                if (!engine.has(w.name)) {
                    throw new IllegalStateException("image '" + w.name + "' is not closed");
                }
            }
        }
        try {
            engine.finish();
        } catch (IOException e) {
            throw aborted(e);
        }
        finished = true;
        target.close();
        return ref;
    }

    /**
     * Aborts the backup: drops the connection so the server removes the unfinished snapshot.
     * Writes in progress and every later call fail with {@code "backup of <snapshot> aborted: <reason>"}.
     * Does nothing after {@link #finish} or a previous abort.
     */
    public void abort(String reason) {
        synchronized (this) {
            if (finished || abortReason != null) {
                return;
            }
            abortReason = reason == null || reason.isBlank() ? "aborted by the caller" : reason;
        }
        engine.abort(abortReason); // the session fails with "backup of <snapshot> aborted: <reason>"
    }

    /** True once {@link #finish} succeeded. */
    public boolean isFinished() {
        return finished;
    }

    /** Aborts unless finished. */
    @Override
    public void close() {
        if (!finished) {
            abort("backup session closed without finish");
        }
    }

    private String abortMessage() {
        return "backup of " + ref + " aborted: " + abortReason;
    }

    private void checkUsable() throws IOException {
        if (abortReason != null) {
            throw new IOException(abortMessage());
        }
        if (finished) {
            throw new IllegalStateException("backup of " + ref + " is already finished");
        }
    }

    private IOException aborted(IOException e) {
        return abortReason != null ? new IOException(abortMessage(), e) : e;
    }

    private synchronized ImageWriter image(int id) {
        if (id < 0 || id >= images.size()) {
            throw new IllegalArgumentException("unknown image id " + id);
        }
        return images.get(id);
    }
}
