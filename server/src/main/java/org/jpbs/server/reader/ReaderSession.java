package org.jpbs.server.reader;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.DynamicIndex;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.lock.DirLock;
import org.jpbs.datastore.lock.LockedException;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotReader;
import org.jpbs.datastore.task.WorkerTask;
import org.jpbs.server.ServerContext;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.H2Response;
import org.jpbs.server.http.Http2Service;
import org.jpbs.server.http.Params;
import org.jpbs.server.http.Route;
import org.jpbs.server.http.SerialExecutor;

/**
 * One reader (restore) session behind an upgraded {@code proxmox-backup-reader-protocol-v1}
 * connection ({@code docs/protocol.md#reader-session}): {@code GET /download} of a snapshot file
 * (checked against the manifest; an index's digests become downloadable),
 * {@code GET /chunk} of a downloadable digest (else 401), {@code GET /speedtest} (1 MiB of
 * {@code 'A'}). Downloads run on the session's serial executor, chunk reads on worker threads.
 * The session runs as a task ({@code reader}, worker id {@code <store>:<type>/<id>/<time hex>})
 * and holds a read lookup of its datastore and a shared lock on the snapshot ({@link DirLock},
 * {@code docs/protocol.md#reader-session}) until the connection ends, however it ends: forget and prune of the snapshot fail
 * meanwhile.
 */
public final class ReaderSession implements Http2Service {
    private static final System.Logger LOG = System.getLogger(ReaderSession.class.getName());
    private static final String MANIFEST = "index.json.blob";
    private static final byte[] SPEEDTEST = speedtestData();

    private final ServerContext ctx;
    private final Datastore ds;
    private final DatastoreHandle handle;
    private final WorkerTask task;
    private final SnapshotReader snapshot;
    private final DirLock snapshotLock;
    private final SerialExecutor serial;
    private final Set<Digest> allowed = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.LongAdder sentChunks = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder sentChunkBytes = new java.util.concurrent.atomic.LongAdder();
    private final String logPrefix;
    private final boolean debug;

    private ReaderSession(ServerContext ctx, DatastoreHandle handle, WorkerTask task, String store,
                          SnapshotReader snapshot, DirLock snapshotLock, boolean debug) {
        this.ctx = ctx;
        this.handle = handle;
        this.task = task;
        this.ds = handle.datastore();
        this.snapshot = snapshot;
        this.snapshotLock = snapshotLock;
        this.debug = debug;
        this.serial = new SerialExecutor(ctx.virtualThreads());
        BackupSnapshotRef ref = snapshot.ref();
        this.logPrefix = "reader " + store + ":" + (ref.group().ns().isRoot() ? "" : ref.group().ns() + "/") + ref + ": ";
    }

    private static byte[] speedtestData() {
        byte[] b = new byte[1024 * 1024];
        Arrays.fill(b, (byte) 'A');
        return b;
    }

    /**
     * Checks of {@code docs/protocol.md#reader-session}: {@code Datastore.Read} or {@code Datastore.Backup} (400 {@code "no
     * permissions on /datastore/..."}, also for an unknown store; with the privileges, an unknown
     * store is 400 {@code "no such datastore '<name>'"}), with only Backup the
     * caller must own the group, the snapshot must exist and be finished.
     *
     * @throws ApiException the refusal
     */
    public static ReaderSession open(ServerContext ctx, String authid, String store, BackupSnapshotRef ref,
                                     boolean debug, String peer, Runnable closeConnection) {
        var ns = ref.group().ns();
        boolean read = ctx.auth().canRead(authid, store, ns);
        boolean backup = ctx.auth().canBackup(authid, store, ns);
        if (!read && !backup) {
            throw ApiException.badRequest("no permissions on /datastore/" + store + (ns.isRoot() ? "" : "/" + ns));
        }
        DatastoreHandle handle;
        try {
            handle = ctx.lookup(store, Operation.READ);
        } catch (IOException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        try {
            Datastore ds = handle.datastore();
            if (!read) {
                String owner;
                try {
                    owner = ds.owner(ref.group());
                } catch (NoSuchFileException e) {
                    owner = null;
                }
                if (owner == null || !(owner.equals(authid) || (!authid.contains("!") && owner.startsWith(authid + "!")))) {
                    throw ApiException.badRequest("backup owner check failed!");
                }
            }
            if (!Files.isRegularFile(ds.snapshotDir(ref).resolve(MANIFEST))) {
                throw ApiException.badRequest("snapshot " + ref + " does not exist.");
            }
            DirLock lock;
            try {
                lock = ds.lockSnapshotShared(ref, "reader");
            } catch (NoSuchFileException e) {
                throw ApiException.badRequest("snapshot " + ref + " does not exist.");
            } catch (LockedException e) {
                throw ApiException.badRequest("unable to acquire shared lock on snapshot " + ref + " - " + e.getMessage());
            }
            ReaderSession s;
            try {
                SnapshotReader snap = ds.openSnapshot(ref);
                WorkerTask task = ctx.tasks().begin("reader", store + ":" + ref.group().type().text() + "/"
                        + ref.group().id() + "/" + String.format(java.util.Locale.ROOT, "%08X", ref.time()), authid);
                s = new ReaderSession(ctx, handle, task, store, snap, lock, debug);
            } catch (IOException | RuntimeException e) {
                lock.close();
                throw e;
            }
            ctx.sessionStarted(s);
            s.task.log("starting new reader on datastore '" + store + "' from " + peer + ": \""
                    + (ns.isRoot() ? "" : "ns/" + ns + "/") + ref + "\"");
            s.task.onAbort(closeConnection);
            LOG.log(Level.INFO, s.logPrefix + "starting new reader from " + authid + " (" + peer + "), task " + s.task.upid());
            return s;
        } catch (IOException e) {
            handle.close();
            throw ApiException.badRequest(e.getMessage());
        } catch (RuntimeException e) {
            handle.close();
            throw e;
        }
    }

    @Override
    public Route route(String method, String path, String rawQuery, String contentType) {
        return switch (method + " " + path) {
            case "GET /" -> Route.of(serial, 0, b -> subdirs());
            case "GET /download" -> {
                String name = Params.ofQuery(rawQuery).fileName("file-name");
                yield Route.of(serial, 0, b -> download(name));
            }
            case "GET /chunk" -> {
                Digest d = Params.ofQuery(rawQuery).digest("digest");
                yield Route.of(ctx.virtualThreads(), 0, b -> chunk(d));
            }
            case "GET /speedtest" -> Route.of(ctx.virtualThreads(), 0, b -> H2Response.raw(SPEEDTEST));
            default -> throw ApiException.pathNotFound(path);
        };
    }

    private static H2Response subdirs() {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (String n : List.of("chunk", "download", "speedtest")) {
            a.addObject().put("subdir", n);
        }
        return H2Response.data(a);
    }

    private H2Response download(String name) throws IOException {
        boolean fidx = name.endsWith(".fidx");
        boolean didx = name.endsWith(".didx");
        if (!fidx && !didx && !name.endsWith(".blob")) {
            throw ApiException.badRequest("unknown archive type");
        }
        try {
            ArchiveName.checkServerName(name);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("file-name", e.getMessage());
        }
        String resource = snapshot.ref().relativePath() + "/" + name;
        byte[] data;
        try {
            data = Files.readAllBytes(snapshot.dir().resolve(name));
        } catch (NoSuchFileException e) {
            if (fidx || didx) {
                throw ApiException.badRequest("unable to open index \"" + resource + "\" - not found");
            }
            throw new ApiException(404, "open file \"" + resource + "\" failed - not found");
        }
        Optional<FileEntry> entry = snapshot.manifest().file(name);
        try {
            if (fidx || didx) {
                IndexFile idx = fidx ? FixedIndex.read(ByteBuffer.wrap(data), resource)
                        : DynamicIndex.read(ByteBuffer.wrap(data), resource);
                if (entry.isPresent()) {
                    if (idx.size() != entry.get().size() || !idx.computeCsum().equals(entry.get().csum())) {
                        throw new CorruptDataException(resource, -1, "index does not match the manifest (size "
                                + idx.size() + ", csum " + idx.computeCsum().hex() + ")");
                    }
                }
                for (int i = 0; i < idx.chunkCount(); i++) {
                    allowed.add(idx.digest(i));
                }
                debug("register chunks in '" + name + "' as downloadable (" + idx.chunkCount() + " chunks)");
            } else {
                DataBlob.wrap(data, resource).verifyCrc(resource);
                if (entry.isPresent() && (data.length != entry.get().size()
                        || !Digest.sha256(data).equals(entry.get().csum()))) {
                    throw new CorruptDataException(resource, -1, "blob does not match the manifest");
                }
            }
        } catch (CorruptDataException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        debug("download '" + name + "'");
        task.log("download '" + name + "'");
        task.record("restore.bytes", data.length);
        return H2Response.raw(data);
    }

    private H2Response chunk(Digest d) throws IOException {
        if (!allowed.contains(d)) {
            throw new ApiException(401, "download chunk " + d.hex() + " not allowed");
        }
        byte[] raw = ds.chunkStore().read(d).raw();
        task.record("restore.bytes", raw.length);
        task.record("restore.chunks", 1);
        sentChunks.increment();
        sentChunkBytes.add(raw.length);
        return H2Response.raw(raw);
    }

    private void debug(String msg) {
        if (debug) {
            LOG.log(Level.INFO, logPrefix + msg);
        } else {
            LOG.log(Level.DEBUG, () -> logPrefix + msg);
        }
    }

    /** Writes the failed request into the task log, as PBS (e.g. a refused {@code finish}). */
    @Override
    public void requestFailed(String method, String path, org.jpbs.server.http.ApiException error) {
        task.log(org.jpbs.server.http.Http2Service.failureLine(method, path, error));
    }

    @Override
    public void connectionClosed() {
        serial.execute(() -> {
            try {
                task.log("sent " + sentChunks.sum() + " chunks (" + sentChunkBytes.sum() + " bytes)");
                task.log("reader finished successfully");
                task.finish(task.abortRequested() ? org.jpbs.datastore.task.TaskAbortedException.MESSAGE : null);
            } finally {
                try {
                    snapshotLock.close();
                } catch (IOException e) {
                    LOG.log(Level.WARNING, logPrefix + "releasing the snapshot lock failed: " + e.getMessage());
                }
                handle.close();
                ctx.sessionEnded(this);
            }
            LOG.log(Level.DEBUG, () -> logPrefix + "reader finished");
        });
    }

    @Override
    public String toString() {
        return "ReaderSession[" + logPrefix.trim() + "]";
    }
}
