package org.jpbs.client.hypervisor;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.blob.ZeroChunks;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;

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
 * <p>Each {@link #writeData} hashes the chunk (SHA-256) in the calling thread, recognises zero
 * chunks, skips the upload when the server already knows the digest (listed by the previous
 * snapshot's index of a registered image, or uploaded earlier in this session), else compresses
 * (zstd) and uploads it with at most {@link Options#uploadConcurrency()} uploads in flight per
 * session, and returns once the chunk is stored on the server. Appends to the index are batched.
 *
 * <p>Incremental backup ({@link #registerImage(String, long, BitSet)}): the server pre-fills the
 * new index from the previous snapshot's index of the same image ({@code reuse-csum}, {@code docs/protocol.md#closing-an-index}), so
 * only the dirty chunks are written. {@link #abort} (or {@link #close()} before {@link #finish})
 * drops the connection; the server then removes the unfinished snapshot ({@code docs/protocol.md#end-abort-and-cleanup}).
 *
 * <p>A thin adapter: the session is a {@link RemoteSnapshotTarget}, and the
 * {@link BackupEngine} decides what of the previous snapshot is reused, stores the configs and
 * writes and signs the manifest; only the QEMU-style chunk writes (any thread, any order,
 * appended while they arrive) are this class's own.
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

        CryptMode mode() {
            return crypt == null ? CryptMode.NONE : CryptMode.ENCRYPT;
        }
    }

    /** Counters of one image: chunks written by the caller, of those uploaded, and their encoded bytes. */
    public record ImageStats(long chunks, long writtenChunks, long uploadedChunks, long uploadedBytes) {}

    private final RemoteSnapshotTarget target;
    private final BackupEngine engine;
    private final BackupClient client;
    private final BackupSnapshotRef ref;
    private final Options options;
    private final List<ImageWriter> images = new ArrayList<>();
    private final Set<Digest> knownFromPrevious = ConcurrentHashMap.newKeySet();
    private final Map<Integer, Digest> zeroDigests = new ConcurrentHashMap<>();
    private volatile String abortReason;
    private volatile boolean finished;

    private BackupSession(RemoteSnapshotTarget target, Options options) {
        this.target = target;
        this.engine = new BackupEngine(target, BackupCrypt.encrypt(options.crypt()), w -> { }).compress(options.compress());
        this.client = target.client();
        this.ref = target.snapshot();
        this.options = options;
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
        FixedIndex previous = previousIndex(serverName, incremental);
        if (incremental) {
            if (previous.size() != size || previous.chunkSize() != CHUNK_SIZE) {
                throw new IOException("image '" + serverName + "': cannot back up incrementally, the size changed ("
                        + previous.size() + " bytes in the previous snapshot, now " + size + ")");
            }
        }
        int wid = client.createFixedIndex(serverName, size, incremental ? previous.computeCsum() : null);
        synchronized (this) {
            ImageWriter w = new ImageWriter(images.size(), serverName, size, wid, CHUNK_SIZE,
                    incremental ? previous : null, dirty);
            images.add(w);
            return w.id;
        }
    }

    /**
     * The previous snapshot's index of an image (downloading it registers its chunks as known);
     * null if there is none and {@code required} is false.
     */
    private FixedIndex previousIndex(String serverName, boolean required) throws IOException {
        String why;
        try {
            BackupEngine.PreviousIndex p = engine.previousIndex(serverName);
            if (p.index() instanceof FixedIndex idx) {
                for (int i = 0; i < idx.chunkCount(); i++) {
                    knownFromPrevious.add(idx.digest(i));
                }
                return idx;
            }
            why = p.why();
        } catch (CorruptDataException ex) {
            why = ex.getMessage();
        }
        if (required) {
            throw new IOException("image '" + serverName + "': an incremental backup needs the previous snapshot's index"
                    + " of this image, but " + why);
        }
        return null;
    }

    private Digest zeroDigest(int len) {
        CryptConfig c = options.crypt();
        return c == null ? ZeroChunks.digest(len) : zeroDigests.computeIfAbsent(len, n -> c.computeDigest(new byte[n], 0, n));
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
            boolean zero = data == null || ZeroChunks.isZero(data, 0, len);
            CryptConfig crypt = options.crypt();
            Digest d = zero ? zeroDigest(len) : EncodedChunk.digest(data, 0, len, crypt);
            boolean uploaded = false;
            int encoded = 0;
            if (!knownFromPrevious.contains(d) && !client.isUploaded(d)) {
                EncodedChunk c = zero
                        ? new EncodedChunk(d, crypt == null ? ZeroChunks.blob(len)
                                : DataBlob.encodeEncrypted(new byte[len], 0, len, true, crypt), len)
                        : EncodedChunk.encode(data, 0, len, options.compress(), crypt);
                uploaded = client.uploadChunk(w.wid, c).started();
                encoded = c.blob().rawLength();
            }
            client.awaitChunk(d);
            ImageWriter.Batch batch = w.record(i, d, uploaded, encoded);
            if (batch != null) {
                client.appendFixed(w.wid, batch.digests(), batch.offsets());
            }
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
     * Closes an image: waits for its writes in progress, sends the remaining appends and closes
     * the index on the server (chunk count, size, checksum).
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
            ImageWriter.Batch rest = w.takeBatch();
            if (!rest.digests().isEmpty()) {
                client.appendFixed(w.wid, rest.digests(), rest.offsets());
            }
            FixedIndex idx = w.index();
            Digest csum = idx.computeCsum();
            client.closeFixed(w.wid, w.appended(), w.size, csum);
            engine.addWritten(new FileEntry(w.name, options.mode(), w.size, csum));
        } catch (IOException e) {
            throw aborted(e);
        }
    }

    /** Counters of an image. */
    public ImageStats imageStats(int image) {
        ImageWriter w = image(image);
        synchronized (w) {
            return new ImageStats(w.chunkCount, w.recorded, w.uploadedChunks, w.uploadedBytes);
        }
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
        client.fail(new IOException(abortMessage()));
        target.close();
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
