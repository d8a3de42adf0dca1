package org.jpbs.client.hypervisor;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jpbs.client.progress.ProgressListener;
import org.jpbs.client.remote.Credentials;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.engine.RestoreEngine;
import org.jpbs.client.remote.RemoteSnapshotSource;
import org.jpbs.client.remote.Repository;
import org.jpbs.client.restore.ChunkConsumer;
import org.jpbs.client.restore.PipelinedRestore;
import org.jpbs.client.restore.RestoreStats;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.blob.ZeroChunks;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.EncryptedDataException;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;

/**
 * Reads one snapshot of a remote datastore for a hypervisor ({@code docs/protocol.md#reader-session}):
 * random access to images ({@link #readAt}, e.g. for a live-restore block driver) and whole
 * image restores with parallel chunk fetches ({@link #restoreImage}).
 *
 * <pre>{@code
 * try (RestoreSession r = RestoreSession.open(repo, creds, snapshot)) {
 *     long size = r.openImage("drive-scsi0.img");
 *     r.restoreImage("drive-scsi0.img", (offset, data, len) -> device.write(offset, data, len));
 * }
 * }</pre>
 *
 * <p>Every chunk is checked against its digest. {@link #readAt} keeps the last few decoded chunks
 * in a small cache (sequential reads of small pieces fetch each chunk once). Thread-safe.
 */
public final class RestoreSession implements AutoCloseable {
    /**
     * Tuning of a session.
     *
     * @param fetchConcurrency chunk downloads in flight for {@link #restoreImage} (default 16)
     * @param workers          decode/verify threads for {@link #restoreImage} (default: available processors)
     * @param cacheChunks      decoded chunks kept for {@link #readAt} (default 8)
     */
    public record Options(int fetchConcurrency, int workers, int cacheChunks) {
        /** Defaults: 16 fetches, one worker per processor, 8 cached chunks. */
        public static Options defaults() {
            return new Options(PipelinedRestore.DEFAULT_FETCH_CONCURRENCY, Runtime.getRuntime().availableProcessors(), 8);
        }
    }

    private final RemoteSnapshotSource reader;
    private final Options options;
    private final CryptConfig crypt;
    private final Map<String, IndexFile> indexes = new HashMap<>();
    private final LinkedHashMap<Digest, byte[]> cache;

    private RestoreSession(RemoteSnapshotSource reader, Options options, CryptConfig crypt) {
        this.reader = reader;
        this.options = options;
        this.crypt = crypt;
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Digest, byte[]> eldest) {
                return size() > Math.max(0, options.cacheChunks());
            }
        };
    }

    /** {@link #open(Repository, Credentials, BackupSnapshotRef, Options)} with {@link Options#defaults()}. */
    public static RestoreSession open(Repository repo, Credentials auth, BackupSnapshotRef snapshot) throws IOException {
        return open(repo, auth, snapshot, Options.defaults());
    }

    /**
     * Connects, opens a reader session on the snapshot and downloads its manifest.
     *
     * @throws org.jpbs.client.http.HttpStatusException if the server refuses (e.g. no such snapshot)
     */
    public static RestoreSession open(Repository repo, Credentials auth, BackupSnapshotRef snapshot, Options options)
            throws IOException {
        return open(repo, auth, snapshot, options, null);
    }

    /**
     * As {@link #open(Repository, Credentials, BackupSnapshotRef, Options)}, with the key of an
     * encrypted or signed snapshot: its manifest must name this key and its signature must verify.
     *
     * @param crypt the key, or null
     * @throws org.jpbs.core.errors.CryptoException if the snapshot was made with another key
     *         (message names both fingerprints) or the signature does not verify
     */
    public static RestoreSession open(Repository repo, Credentials auth, BackupSnapshotRef snapshot, Options options,
            CryptConfig crypt) throws IOException {
        RemoteSnapshotSource r = RemoteSnapshotSource.open(new PbsClient(repo, auth), snapshot);
        try {
            if (crypt != null) {
                r.manifest().verify(crypt, snapshot.toString());
            }
            return new RestoreSession(r, options, crypt);
        } catch (IOException | RuntimeException e) {
            r.close();
            throw e;
        }
    }

    /** The key for one archive: the session's key if the archive is encrypted, else null. */
    private CryptConfig keyFor(String serverName) throws IOException {
        FileEntry e = reader.entry(serverName);
        if (e.cryptMode() != CryptMode.ENCRYPT) {
            return null;
        }
        if (crypt == null) {
            throw new EncryptedDataException(reader.snapshot() + ": " + serverName);
        }
        return crypt;
    }

    /** The snapshot's manifest (its files). */
    public BackupManifest manifest() {
        return reader.manifest();
    }

    /**
     * Downloads an image's index (once per session).
     *
     * @param name e.g. {@code drive-scsi0.img} or {@code drive-scsi0.img.fidx}
     * @return the image size in bytes
     * @throws IllegalArgumentException if the snapshot has no such image
     */
    public long openImage(String name) throws IOException {
        return index(name).size();
    }

    private IndexFile index(String name) throws IOException {
        String serverName = ArchiveName.toServerName(name);
        if (!serverName.endsWith(".fidx") && !serverName.endsWith(".didx")) {
            throw new IllegalArgumentException("'" + name + "' is not an image or archive");
        }
        synchronized (indexes) {
            IndexFile idx = indexes.get(serverName);
            if (idx == null) {
                idx = reader.openIndex(serverName);
                indexes.put(serverName, idx);
            }
            return idx;
        }
    }

    /**
     * Reads {@code length} bytes at {@code offset} of an image (across chunk borders).
     *
     * @return the bytes; shorter than {@code length} only when the image ends first (empty at the end)
     * @throws IllegalArgumentException for a negative offset or length, or an offset beyond the end
     * @throws IOException if a chunk cannot be fetched or does not match its digest
     */
    public byte[] readAt(String image, long offset, int length) throws IOException {
        IndexFile idx = index(image);
        if (offset < 0 || length < 0 || offset > idx.size()) {
            throw new IllegalArgumentException("read of " + length + " bytes at " + offset + " outside image '" + image
                    + "' (" + idx.size() + " bytes)");
        }
        int n = (int) Math.min(length, idx.size() - offset);
        byte[] out = new byte[n];
        int done = 0;
        while (done < n) {
            long pos = offset + done;
            int i = idx.findChunk(pos);
            long start = idx.chunkStart(i);
            int len = idx.chunkLength(i);
            int inChunk = (int) (pos - start);
            int take = Math.min(n - done, len - inChunk);
            Digest d = idx.digest(i);
            if (!(idx instanceof FixedIndex && crypt == null && d.equals(ZeroChunks.digest(len)))) {
                byte[] chunk = chunk(idx, i, image);
                System.arraycopy(chunk, inChunk, out, done, take);
            }
            done += take;
        }
        return out;
    }

    private byte[] chunk(IndexFile idx, int i, String image) throws IOException {
        Digest d = idx.digest(i);
        synchronized (cache) {
            byte[] hit = cache.get(d);
            if (hit != null) {
                return hit;
            }
        }
        int len = idx.chunkLength(i);
        CryptConfig key = keyFor(ArchiveName.toServerName(image));
        byte[] data = reader.readChunk(d, len, key);
        Digest actual = EncodedChunk.digest(data, 0, data.length, key);
        if (data.length != len || !actual.equals(d)) {
            throw new CorruptDataException("chunk " + d.hex(), -1, "content does not match its digest ("
                    + image + " chunk #" + i + ")");
        }
        synchronized (cache) {
            cache.put(d, data);
        }
        return data;
    }

    /**
     * Restores a whole image through a callback, with up to {@link Options#fetchConcurrency()}
     * chunk downloads in flight. The callback runs on worker threads, several at once, out of
     * order; zero chunks come as {@code data == null} without being downloaded.
     *
     * @return the counters of the restore
     * @throws IOException if a chunk cannot be fetched, does not match its digest, or the callback fails
     */
    public RestoreStats restoreImage(String name, ChunkConsumer callback) throws IOException {
        return restoreImage(name, callback, ProgressListener.NONE);
    }

    /** {@link #restoreImage(String, ChunkConsumer)} with progress (plaintext bytes of finished chunks). */
    public RestoreStats restoreImage(String name, ChunkConsumer callback, ProgressListener progress) throws IOException {
        IndexFile idx = index(name);
        String serverName = ArchiveName.toServerName(name);
        return new RestoreEngine(reader).fetchConcurrency(options.fetchConcurrency()).workers(options.workers())
                .restore(idx, keyFor(serverName), callback, serverName, progress);
    }

    /**
     * Reads a configuration blob ({@code qemu-server.conf} or {@code qemu-server.conf.blob}).
     *
     * @throws IllegalArgumentException if the snapshot has no such file
     */
    public byte[] readConfig(String name) throws IOException {
        String serverName = ArchiveName.toServerName(name);
        return reader.readBlob(serverName, keyFor(serverName));
    }

    /** Ends the reader session. */
    @Override
    public void close() {
        reader.close();
    }
}
