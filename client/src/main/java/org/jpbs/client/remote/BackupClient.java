package org.jpbs.client.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.jpbs.client.http.H2Session;
import org.jpbs.client.http.HttpStatusException;
import org.jpbs.client.http.Query;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;

/**
 * One backup session ({@code docs/protocol.md#backup-session}): the calls of the writer protocol over
 * an upgraded HTTP/2 connection.
 *
 * <p>Chunk uploads ({@link #uploadChunk}) are asynchronous: up to {@code uploadConcurrency}
 * run at once (the caller blocks for a free slot), each digest is uploaded at most once per
 * session (the server's known-chunk set is per session, {@code docs/protocol.md#chunk-upload-and-known-chunks}), and the first failure is kept and
 * rethrown by every later call. Index appends name only chunks whose upload finished
 * ({@link #awaitChunk}). All other calls are synchronous.
 *
 * <p>{@link #close()} without a successful {@link #finish} drops the connection, which makes
 * the server remove the unfinished snapshot ({@code docs/protocol.md#end-abort-and-cleanup}).
 */
public final class BackupClient implements AutoCloseable {
    /** Name of the manifest blob. */
    public static final String MANIFEST = "index.json.blob";
    /** Entries per {@code PUT /fixed_index} append (JSON body about 80 bytes each). */
    static final int APPEND_BATCH = 4096;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final H2Session h2;
    private final BackupSnapshotRef ref;
    private final Semaphore uploadSlots;
    private final int uploadConcurrency;
    private final ConcurrentHashMap<Digest, CompletableFuture<Void>> uploads = new ConcurrentHashMap<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final LongAdder uploadedChunks = new LongAdder();
    private final LongAdder uploadedBytes = new LongAdder();
    private final java.util.Set<Integer> dynamicWriters = ConcurrentHashMap.newKeySet();
    private volatile boolean finished;
    private OptionalLong previousTime;
    private Optional<BackupManifest> previousManifest;

    private BackupClient(H2Session h2, BackupSnapshotRef ref, int uploadConcurrency) {
        this.h2 = h2;
        this.ref = ref;
        this.uploadConcurrency = uploadConcurrency;
        this.uploadSlots = new Semaphore(uploadConcurrency);
    }

    /**
     * Opens a backup session for snapshot {@code ref}.
     *
     * @param uploadConcurrency chunk uploads in flight at most (1 or more)
     * @throws HttpStatusException if the server refuses the snapshot
     */
    public static BackupClient start(PbsClient pbs, BackupSnapshotRef ref, int uploadConcurrency) throws IOException {
        if (uploadConcurrency < 1) {
            throw new IllegalArgumentException("upload concurrency must be at least 1, got " + uploadConcurrency);
        }
        return new BackupClient(pbs.startBackup(ref), ref, uploadConcurrency);
    }

    /** The snapshot being written. */
    public BackupSnapshotRef snapshot() {
        return ref;
    }

    /** The configured upload concurrency. */
    public int uploadConcurrency() {
        return uploadConcurrency;
    }

    // ---- previous snapshot (docs/protocol.md#chunk-upload-and-known-chunks, docs/protocol.md#what-a-client-does-step-by-step step 2) -------------------------------------------------

    /** {@code GET /previous_backup_time}: the time of the group's last finished snapshot, if any. */
    public synchronized OptionalLong previousBackupTime() throws IOException {
        if (previousTime == null) {
            JsonNode d = await(h2.call("GET", "/previous_backup_time", "", FORM, null), "GET /previous_backup_time")
                    .data("GET /previous_backup_time");
            previousTime = d.isIntegralNumber() ? OptionalLong.of(d.asLong()) : OptionalLong.empty();
        }
        return previousTime;
    }

    /** The manifest of the previous snapshot ({@code GET /previous?archive-name=index.json.blob}), if any. */
    public synchronized Optional<BackupManifest> previousManifest() throws IOException {
        if (previousManifest == null) {
            if (previousBackupTime().isEmpty()) {
                previousManifest = Optional.empty();
            } else {
                byte[] raw = downloadPrevious(MANIFEST);
                previousManifest = Optional.of(BackupManifest.fromBlob(DataBlob.wrap(raw, "previous " + MANIFEST),
                        "previous " + MANIFEST));
            }
        }
        return previousManifest;
    }

    /**
     * Downloads the previous snapshot's fixed index of an archive ({@code GET /previous}); the
     * server thereby registers all its chunks as known for this session, so they may be appended
     * without upload. The index is checked against the previous manifest's entry.
     *
     * @param entry the archive's entry in {@link #previousManifest()}
     * @throws org.jpbs.core.errors.CorruptDataException if the index does not match the entry
     */
    public FixedIndex previousFixedIndex(FileEntry entry) throws IOException {
        String name = entry.filename();
        byte[] raw = downloadPrevious(name);
        FixedIndex idx = FixedIndex.read(ByteBuffer.wrap(raw), "previous " + name);
        if (idx.size() != entry.size() || !idx.computeCsum().equals(entry.csum())) {
            throw new org.jpbs.core.errors.CorruptDataException("previous " + name, -1,
                    "index does not match the previous manifest (size " + idx.size() + " vs " + entry.size() + ")");
        }
        return idx;
    }

    /**
     * Downloads the previous snapshot's index of an archive, fixed or dynamic by its name (see
     * {@link #previousFixedIndex}); the server registers its chunks as known for this session.
     *
     * @throws org.jpbs.core.errors.CorruptDataException if the index does not match the entry
     */
    public org.jpbs.core.index.IndexFile previousIndex(FileEntry entry) throws IOException {
        String name = entry.filename();
        if (!name.endsWith(".didx")) {
            return previousFixedIndex(entry);
        }
        byte[] raw = downloadPrevious(name);
        org.jpbs.core.index.DynamicIndex idx = org.jpbs.core.index.DynamicIndex.read(ByteBuffer.wrap(raw), "previous " + name);
        if (idx.size() != entry.size() || !idx.computeCsum().equals(entry.csum())) {
            throw new org.jpbs.core.errors.CorruptDataException("previous " + name, -1,
                    "index does not match the previous manifest (size " + idx.size() + " vs " + entry.size() + ")");
        }
        return idx;
    }

    private byte[] downloadPrevious(String name) throws IOException {
        String what = "GET /previous " + name;
        return await(h2.call("GET", "/previous", Query.of().add("archive-name", name).toString(), FORM, null), what)
                .check(what).body();
    }

    // ---- fixed index (docs/protocol.md#chunk-upload-and-known-chunks, docs/protocol.md#appending, docs/protocol.md#closing-an-index) -------------------------------------------------------------

    /**
     * {@code POST /fixed_index}: opens a fixed index writer.
     *
     * @param serverName e.g. {@code drive-scsi0.img.fidx}
     * @param size       image size in bytes (1 or more)
     * @param reuseCsum  checksum of the previous snapshot's index of the same archive for an
     *                   incremental index (the server pre-fills every slot from it), or null
     * @return the writer id
     */
    public int createFixedIndex(String serverName, long size, Digest reuseCsum) throws IOException {
        ensureUsable();
        Query q = Query.of().add("archive-name", serverName).add("size", size)
                .add("reuse-csum", reuseCsum == null ? null : reuseCsum.hex());
        String what = "POST /fixed_index " + serverName;
        JsonNode wid = await(h2.call("POST", "/fixed_index", q.toString(), FORM, null), what).data(what);
        if (!wid.isIntegralNumber()) {
            throw new IOException(what + ": the server's answer is not a writer id: " + wid);
        }
        return wid.asInt();
    }

    /**
     * {@code POST /dynamic_index}: opens a dynamic index writer ({@code docs/protocol.md#chunk-upload-and-known-chunks}).
     *
     * @param serverName e.g. {@code root.pxar.didx}
     * @return the writer id
     */
    public int createDynamicIndex(String serverName) throws IOException {
        ensureUsable();
        Query q = Query.of().add("archive-name", serverName);
        String what = "POST /dynamic_index " + serverName;
        JsonNode wid = await(h2.call("POST", "/dynamic_index", q.toString(), FORM, null), what).data(what);
        if (!wid.isIntegralNumber()) {
            throw new IOException(what + ": the server's answer is not a writer id: " + wid);
        }
        dynamicWriters.add(wid.asInt());
        return wid.asInt();
    }

    private String kind(int wid) {
        return dynamicWriters.contains(wid) ? "dynamic" : "fixed";
    }

    /** The upload of one digest in this session. */
    public record Upload(CompletableFuture<Void> done, boolean started) {}

    /**
     * Uploads a chunk ({@code POST /fixed_chunk?wid=&digest=&size=&encoded-size=}, or
     * {@code /dynamic_chunk} for a dynamic writer) unless this
     * session already uploads or uploaded the same digest. Blocks while
     * {@link #uploadConcurrency()} uploads are in flight.
     *
     * @return the upload's future (completes on the network thread) and whether this call started it
     * @throws IOException the failure of an earlier upload, or if interrupted
     */
    public Upload uploadChunk(int wid, EncodedChunk chunk) throws IOException {
        ensureUsable();
        CompletableFuture<Void> mine = new CompletableFuture<>();
        CompletableFuture<Void> existing = uploads.putIfAbsent(chunk.digest(), mine);
        if (existing != null) {
            return new Upload(existing, false);
        }
        try {
            uploadSlots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(new InterruptedIOException("chunk upload interrupted"));
            mine.completeExceptionally(failure.get());
            throw new InterruptedIOException("chunk upload interrupted");
        }
        byte[] body = chunk.blob().raw();
        Query q = Query.of().add("wid", wid).add("digest", chunk.digest().hex()).add("size", chunk.size())
                .add("encoded-size", body.length);
        String what = "upload of chunk " + chunk.digest().hex();
        h2.call("POST", "/" + kind(wid) + "_chunk", q.toString(), "application/octet-stream", body).whenComplete((r, err) -> {
            uploadSlots.release();
            Throwable t = err;
            if (t == null && !r.isSuccess()) {
                t = new HttpStatusException(what, r.status(), r.text());
            }
            if (t != null) {
                fail(t instanceof IOException ? t : new IOException(what + ": " + t, t));
                mine.completeExceptionally(t);
            } else {
                uploadedChunks.increment();
                uploadedBytes.add(body.length);
                mine.complete(null);
            }
        });
        return new Upload(mine, true);
    }

    /** True if this session uploads or uploaded the digest (the server knows it once the upload is done). */
    public boolean isUploaded(Digest d) {
        return uploads.containsKey(d);
    }

    /** Waits for the upload of one digest (no-op if this session never uploaded it). */
    public void awaitChunk(Digest d) throws IOException {
        CompletableFuture<Void> f = uploads.get(d);
        if (f != null) {
            await(f, "upload of chunk " + d.hex());
        }
        rethrowFailure();
    }

    /** Waits for every upload started so far; throws the first failure. */
    public void awaitUploads() throws IOException {
        for (CompletableFuture<Void> f : uploads.values()) {
            try {
                f.join();
            } catch (RuntimeException e) {
                // recorded in failure
            }
        }
        rethrowFailure();
    }

    /**
     * {@code PUT /fixed_index} (or {@code /dynamic_index} for a dynamic writer): appends chunks
     * (JSON body {@code {"wid","digest-list","offset-list"}}, offsets are chunk starts), in batches of {@value #APPEND_BATCH}. Every digest must be known
     * to the server: uploaded in this session (finished) or listed by a downloaded previous index.
     */
    public void appendFixed(int wid, List<Digest> digests, long[] offsets) throws IOException {
        if (digests.size() != offsets.length) {
            throw new IllegalArgumentException("digest and offset lists differ in length");
        }
        for (int start = 0; start < offsets.length; start += APPEND_BATCH) {
            int end = Math.min(offsets.length, start + APPEND_BATCH);
            ObjectNode o = JSON.createObjectNode();
            o.put("wid", wid);
            ArrayNode dl = o.putArray("digest-list");
            ArrayNode ol = o.putArray("offset-list");
            for (int i = start; i < end; i++) {
                dl.add(digests.get(i).hex());
                ol.add(offsets[i]);
            }
            String what = "PUT /" + kind(wid) + "_index (wid " + wid + ", " + (end - start) + " chunks)";
            await(h2.call("PUT", "/" + kind(wid) + "_index", "", "application/json", JSON.writeValueAsBytes(o)), what).check(what);
        }
    }

    /**
     * {@code POST /fixed_close?wid=&chunk-count=&size=&csum=} ({@code docs/protocol.md#closing-an-index}),
     * or {@code /dynamic_close} for a dynamic writer.
     */
    public void closeFixed(int wid, long chunkCount, long size, Digest csum) throws IOException {
        ensureUsable();
        Query q = Query.of().add("wid", wid).add("chunk-count", chunkCount).add("size", size).add("csum", csum.hex());
        String what = "POST /" + kind(wid) + "_close (wid " + wid + ")";
        await(h2.call("POST", "/" + kind(wid) + "_close", q.toString(), FORM, null), what).check(what);
    }

    // ---- blobs, manifest, finish (docs/protocol.md#blobs-the-manifest-and-finish) ------------------------------------------------------

    /** {@code POST /blob?file-name=&encoded-size=} with the raw blob. */
    public void uploadBlob(String serverName, DataBlob blob) throws IOException {
        ensureUsable();
        byte[] raw = blob.raw();
        Query q = Query.of().add("file-name", serverName).add("encoded-size", raw.length);
        String what = "upload of blob " + serverName;
        await(h2.call("POST", "/blob", q.toString(), "application/octet-stream", raw), what).check(what);
    }

    /**
     * Uploads the manifest ({@code index.json.blob}) and sends {@code POST /finish}; the snapshot
     * is then complete on the server. Waits for uploads first.
     */
    public void finish(BackupManifest manifest) throws IOException {
        awaitUploads();
        uploadBlob(MANIFEST, manifest.toBlob());
        await(h2.call("POST", "/finish", "", FORM, null), "POST /finish").check("POST /finish");
        finished = true;
    }

    /** True after a successful {@link #finish}. */
    public boolean isFinished() {
        return finished;
    }

    /** Chunks uploaded (successfully) in this session. */
    public long uploadedChunks() {
        return uploadedChunks.sum();
    }

    /** Encoded bytes of the chunks uploaded in this session. */
    public long uploadedBytes() {
        return uploadedBytes.sum();
    }

    /** Records a failure (the first one wins) so that later calls fail too. */
    public void fail(Throwable t) {
        failure.compareAndSet(null, t);
    }

    private void ensureUsable() throws IOException {
        if (finished) {
            throw new IllegalStateException("backup of " + ref + " is already finished");
        }
        rethrowFailure();
    }

    private void rethrowFailure() throws IOException {
        Throwable t = failure.get();
        if (t instanceof IOException io) {
            throw new IOException(io.getMessage(), io);
        } else if (t != null) {
            throw new IOException(t.toString(), t);
        }
    }

    /** Drops the connection; without a finished backup the server removes the snapshot. */
    @Override
    public void close() {
        h2.close();
    }

    static final String FORM = "application/x-www-form-urlencoded";

    /** Waits for a future; unwraps its failure to an IOException. */
    static <T> T await(CompletableFuture<T> f, String what) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(what + ": interrupted");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            throw new IOException(what + ": " + c, c);
        }
    }
}
