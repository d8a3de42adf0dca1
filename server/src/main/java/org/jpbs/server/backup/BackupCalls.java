package org.jpbs.server.backup;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.datastore.chunks.ChunkStore;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.H2Response;
import org.jpbs.server.http.Params;
import org.jpbs.server.http.Route;

/**
 * The endpoints of a backup session ({@code docs/protocol.md#parameters-and-answers-inside-a-session}, {@code docs/protocol.md#writer-ids}, {@code docs/protocol.md#chunk-upload-and-known-chunks}, {@code docs/protocol.md#appending}, {@code docs/protocol.md#closing-an-index}, {@code docs/protocol.md#blobs-the-manifest-and-finish}): parameter
 * names, their place (query for raw uploads and downloads, query/form or JSON otherwise),
 * checks and error texts as the spec gives them.
 */
final class BackupCalls {
    private static final String MANIFEST = "index.json.blob";
    /** The key of {@code unprotected} that only the server's verify writes (stripped from uploads). */
    static final String VERIFY_STATE = "verify_state";

    private final BackupSession s;

    BackupCalls(BackupSession s) {
        this.s = s;
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }

    // ---- raw uploads -------------------------------------------------------------------------

    /** {@code POST /blob?file-name=&encoded-size=} (raw body). */
    Route blobRoute(Params q) {
        String name = q.fileName("file-name");
        int encodedSize = (int) q.integer("encoded-size", 12, ChunkUpload.MAX_ENCODED);
        return new Route(s.serial, encodedSize, false, "got blob with unexpected length (more than "
                + encodedSize + " bytes)", body -> blob(name, encodedSize, body));
    }

    private H2Response blob(String name, int encodedSize, byte[] body) throws IOException {
        s.ensureRunning();
        if (!name.endsWith(".blob")) {
            throw ApiException.badRequest("wrong blob file extension: '" + name + "'");
        }
        try {
            ArchiveName.checkServerName(name);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("file-name", e.getMessage());
        }
        if (body.length != encodedSize) {
            throw ApiException.badRequest("got blob with unexpected length (" + encodedSize + " != " + body.length + ")");
        }
        DataBlob blob = DataBlob.wrap(body, name);
        blob.verifyCrc(name);
        if (name.equals(MANIFEST)) {
            if (blob.isEncrypted()) {
                throw ApiException.badRequest("manifest blob '" + MANIFEST + "' must not be encrypted");
            }
            s.manifestBlob = blob;
        } else {
            s.writer.addBlob(name, blob);
        }
        s.stats.blob(body.length);
        s.debug("added blob '" + name + "' (" + body.length + " bytes)");
        return H2Response.nullData();
    }

    /** {@code POST /fixed_chunk} or {@code /dynamic_chunk} with {@code wid, digest, size, encoded-size} (raw body). */
    Route chunkRoute(Params q, boolean fixed) {
        int wid = (int) q.integer("wid", 1, 256);
        Digest digest = q.digest("digest");
        int size = (int) q.integer("size", 1, ChunkUpload.MAX_SIZE);
        int encodedSize = (int) q.integer("encoded-size", ChunkUpload.MIN_ENCODED, ChunkUpload.MAX_ENCODED);
        return new Route(s.chunkExecutor(), encodedSize, false, "uploaded chunk is larger than announced",
                body -> chunk(fixed, wid, digest, size, encodedSize, body));
    }

    private H2Response chunk(boolean fixed, int wid, Digest digest, int size, int encodedSize, byte[] body)
            throws IOException {
        s.ensureRunning();
        IndexWriter w = writer(wid, fixed);
        if (w instanceof FixedWriter fw) {
            fw.checkUploadSize(size);
        }
        DataBlob blob = ChunkUpload.verify(digest, size, encodedSize, body);
        ChunkStore.InsertResult r = s.ds.chunkStore().insert(digest, blob);
        s.knownChunks.put(digest, size);
        s.stats.chunk(size, encodedSize, r.duplicate());
        s.trace("upload_chunk done: " + size + " bytes, " + digest.hex() + (r.duplicate() ? " (duplicate)" : ""));
        return H2Response.text(digest.hex());
    }

    private IndexWriter writer(int wid, boolean fixed) {
        IndexWriter w = s.writers.get(wid);
        if (w == null || (w instanceof FixedWriter) != fixed) {
            throw ApiException.badRequest((fixed ? "fixed" : "dynamic") + " writer '" + wid + "' not registered");
        }
        return w;
    }

    // ---- index writers -----------------------------------------------------------------------

    /** {@code POST /fixed_index?archive-name=&size=[&reuse-csum=]}. */
    H2Response createFixed(Params p) throws IOException {
        s.ensureRunning();
        String name = archiveName(p, ".fidx");
        long size = p.integer("size", 1, Long.MAX_VALUE);
        try {
            FixedIndex.chunkCount(size, org.jpbs.core.FileFormats.DEFAULT_FIXED_CHUNK_SIZE);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("parameter verification failed - 'size': " + e.getMessage());
        }
        FixedIndex reuse = null;
        var reuseCsum = p.optDigest("reuse-csum");
        if (reuseCsum.isPresent()) {
            reuse = previousForReuse(name, reuseCsum.get());
        }
        reserveName(name);
        int wid = s.nextWid.incrementAndGet();
        try {
            s.writers.put(wid, new FixedWriter(wid, name, size, reuse, s.digestBudget));
        } catch (RuntimeException e) {
            s.archiveNames.remove(name);
            throw e;
        }
        s.debug("created new fixed index " + wid + " (\"" + name + "\", size " + size
                + (reuse != null ? ", incremental" : "") + ")");
        return H2Response.number(wid);
    }

    private FixedIndex previousForReuse(String name, Digest csum) throws IOException {
        BackupSnapshotRef prev = s.previous.orElseThrow(
                () -> ApiException.badRequest("cannot reuse index - no valid previous backup exists"));
        Path path = s.ds.snapshotDir(prev).resolve(name);
        if (!Files.isRegularFile(path)) {
            throw ApiException.badRequest("cannot reuse index - no previous backup exists for archive");
        }
        FixedIndex old = FixedIndex.open(path);
        Digest oldCsum = old.computeCsum();
        if (!oldCsum.equals(csum)) {
            throw ApiException.badRequest("expected csum (" + csum.hex() + ") doesn't match last backup's ("
                    + oldCsum.hex() + "), cannot do incremental backup");
        }
        return old;
    }

    /** {@code POST /dynamic_index?archive-name=}. */
    H2Response createDynamic(Params p) {
        s.ensureRunning();
        String name = archiveName(p, ".didx");
        reserveName(name);
        int wid = s.nextWid.incrementAndGet();
        s.writers.put(wid, new DynamicWriter(wid, name));
        s.debug("created new dynamic index " + wid + " (\"" + name + "\")");
        return H2Response.number(wid);
    }

    private static String archiveName(Params p, String ext) {
        String name = p.fileName("archive-name");
        if (!name.endsWith(ext)) {
            throw ApiException.badRequest("wrong archive extension: '" + name + "'");
        }
        try {
            return ArchiveName.checkServerName(name);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("archive-name", e.getMessage());
        }
    }

    private void reserveName(String name) {
        if (!s.archiveNames.add(name)) {
            throw ApiException.badRequest("archive '" + name + "' already exists in this backup");
        }
    }

    /** {@code PUT /fixed_index} or {@code /dynamic_index} with {@code wid, digest-list, offset-list} (JSON). */
    H2Response append(Params p, boolean fixed) {
        s.ensureRunning();
        int wid = (int) p.integer("wid", 1, 256);
        List<Digest> digests = p.digestList("digest-list");
        long[] offsets = p.integerList("offset-list");
        if (offsets.length != digests.size()) {
            throw ApiException.badRequest("offset list has wrong length (" + offsets.length + " != "
                    + digests.size() + ")");
        }
        IndexWriter w = writer(wid, fixed);
        for (int i = 0; i < offsets.length; i++) {
            Digest d = digests.get(i);
            Integer len = s.knownChunks.get(d);
            if (len == null) {
                throw ApiException.badRequest("no such chunk " + d.hex());
            }
            w.append(d, offsets[i], len);
        }
        s.trace(w.kind() + "_append " + digests.size() + " chunks to writer " + wid);
        return H2Response.nullData();
    }

    /** {@code POST /fixed_close?wid=&chunk-count=&size=&csum=}. */
    H2Response closeFixed(Params p) throws IOException {
        s.ensureRunning();
        int wid = (int) p.integer("wid", 1, 256);
        long count = p.integer("chunk-count", 0, Long.MAX_VALUE);
        long size = p.integer("size", 0, Long.MAX_VALUE);
        Digest csum = p.digest("csum");
        FixedWriter w = (FixedWriter) writer(wid, true);
        FixedIndex idx = w.close(count, size, csum, now());
        s.writer.addFixedIndex(w.archiveName(), idx);
        s.writers.remove(wid);
        w.release();
        info("closed fixed index " + wid + " '" + w.archiveName() + "': size " + idx.size() + ", "
                + idx.chunkCount() + " chunks, csum " + idx.computeCsum().hex());
        return H2Response.nullData();
    }

    /** {@code POST /dynamic_close?wid=&chunk-count=&size=&csum=}. */
    H2Response closeDynamic(Params p) throws IOException {
        s.ensureRunning();
        int wid = (int) p.integer("wid", 1, 256);
        long count = p.integer("chunk-count", 1, Long.MAX_VALUE);
        long size = p.integer("size", 1, Long.MAX_VALUE);
        Digest csum = p.digest("csum");
        DynamicWriter w = (DynamicWriter) writer(wid, false);
        DynamicIndex idx = w.close(count, size, csum, now());
        s.writer.addDynamicIndex(w.archiveName(), idx);
        s.writers.remove(wid);
        info("closed dynamic index " + wid + " '" + w.archiveName() + "': size " + idx.size() + ", "
                + idx.chunkCount() + " chunks, csum " + idx.computeCsum().hex());
        return H2Response.nullData();
    }

    // ---- previous snapshot -------------------------------------------------------------------

    /** {@code GET /previous_backup_time}: epoch seconds of the previous snapshot, or null. */
    H2Response previousBackupTime() {
        return s.previous.map(p -> H2Response.number(p.time())).orElseGet(H2Response::nullData);
    }

    /**
     * {@code GET /previous?archive-name=} (raw answer): a file of the previous snapshot; for an
     * index every digest is registered as a known chunk with its length ({@code docs/protocol.md#chunk-upload-and-known-chunks}).
     */
    H2Response previous(Params q) throws IOException {
        s.ensureRunning();
        String name = q.fileName("archive-name");
        BackupSnapshotRef prev = s.previous.orElseThrow(() -> ApiException.badRequest("no valid previous backup"));
        boolean fidx = name.endsWith(".fidx");
        boolean didx = name.endsWith(".didx");
        if (!fidx && !didx && !name.endsWith(".blob")) {
            throw ApiException.badRequest("unknown archive type");
        }
        try {
            ArchiveName.checkServerName(name);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("archive-name", e.getMessage());
        }
        Path path = s.ds.snapshotDir(prev).resolve(name);
        byte[] data;
        try {
            data = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            if (fidx || didx) {
                throw ApiException.badRequest("unable to open " + (fidx ? "fixed" : "dynamic") + " index \""
                        + prev.relativePath() + "/" + name + "\" - not found");
            }
            throw new ApiException(404, "open file \"" + prev.relativePath() + "/" + name + "\" failed - not found");
        }
        if (fidx || didx) {
            String resource = prev.relativePath() + "/" + name;
            IndexFile idx;
            try {
                idx = fidx ? FixedIndex.read(ByteBuffer.wrap(data), resource) : DynamicIndex.read(ByteBuffer.wrap(data), resource);
            } catch (CorruptDataException e) {
                throw ApiException.badRequest(e.getMessage());
            }
            for (int i = 0; i < idx.chunkCount(); i++) {
                s.knownChunks.put(idx.digest(i), idx.chunkLength(i));
            }
            s.writer.referenceChunks(s.knownChunks.keySet()); // known chunks are not touched: tell a GC of this JVM
            s.debug("register chunks in '" + name + "' from previous backup (" + idx.chunkCount() + " chunks)");
        }
        s.debug("download '" + name + "' from previous backup");
        return H2Response.raw(data);
    }

    // ---- finish ------------------------------------------------------------------------------

    /**
     * {@code POST /finish}: checks, drops a client's {@code verify_state} (server-owned; PBS keeps
     * it), adds {@code chunk_upload_stats}, commits the snapshot ({@code docs/protocol.md#blobs-the-manifest-and-finish}).
     */
    H2Response finish() throws IOException {
        s.ensureRunning();
        if (!s.writers.isEmpty()) {
            throw ApiException.badRequest("found open index writer - unable to finish backup");
        }
        if (s.writer.files().isEmpty()) {
            throw ApiException.badRequest("backup does not contain valid files (file count == 0)");
        }
        DataBlob mblob = s.manifestBlob;
        if (mblob == null) {
            throw ApiException.badRequest("unable to update manifest blob - " + MANIFEST + " was not uploaded");
        }
        BackupManifest m;
        try {
            m = BackupManifest.fromBlob(mblob, MANIFEST);
        } catch (IOException e) {
            throw ApiException.badRequest("unable to update manifest blob - " + e.getMessage());
        }
        if (m.unprotected().remove(VERIFY_STATE) != null) {
            // only a verify of this server sets it: a client's "ok" would make verify --ignore-verified
            // skip the snapshot, and let the next backup reuse its chunks unchecked
            info("ignoring '" + VERIFY_STATE + "' of the uploaded manifest (set only by verify)");
        }
        m.unprotected().set("chunk_upload_stats", s.stats.toJson());
        if (s.benchmark) {
            s.writer.abort();
            s.markFinished();
            info("benchmark data removed");
            return H2Response.nullData();
        }
        try {
            s.writer.commit(m);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("unable to update manifest blob - " + e.getMessage());
        }
        s.markFinished();
        info("successfully finished backup (" + s.stats + ")");
        return H2Response.nullData();
    }

    private void info(String msg) {
        s.task.log(msg);
        BackupSession.LOG.log(Level.INFO, s.logPrefix + msg);
    }
}
