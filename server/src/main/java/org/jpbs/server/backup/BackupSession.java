package org.jpbs.server.backup;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.lock.LockedException;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotWriter;
import org.jpbs.datastore.task.WorkerTask;
import org.jpbs.server.ServerContext;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.H2Response;
import org.jpbs.server.http.Http2Service;
import org.jpbs.server.http.Params;
import org.jpbs.server.http.Route;
import org.jpbs.server.http.SerialExecutor;

/**
 * One backup (writer) session: the state behind an upgraded {@code proxmox-backup-protocol-v1}
 * connection ({@code docs/protocol.md#backup-session}). Files go into a {@link SnapshotWriter} (a
 * hidden temp directory) that {@code finish} commits; if the connection ends before
 * {@code finish}, the writer is aborted and nothing is left behind ({@code docs/protocol.md#end-abort-and-cleanup}). State-changing
 * calls run one at a time on a {@link SerialExecutor} in wire order; chunk uploads run in
 * parallel on the server's chunk workers and hold no lock while writing. The endpoints
 * themselves are in {@link BackupCalls}.
 *
 * <p>As in PBS, a session runs as a task (worker type {@code backup}, worker id
 * {@code <store>:<type>/<id>}) with a task log; it holds a write lookup of its datastore for
 * its whole life (so switching the datastore to a maintenance mode lets it finish), and a stop
 * request for the task closes the connection. Its {@link SnapshotWriter} holds the exclusive
 * group lock and a shared lock on the previous snapshot until finish or abort (any end of the
 * connection), so that snapshot cannot be forgotten or pruned while its chunks are reused.
 */
public final class BackupSession implements Http2Service {
    static final System.Logger LOG = System.getLogger(BackupSession.class.getName());
    /** Body limit of the JSON calls (index appends): 4 MiB. */
    static final int MAX_JSON_BODY = 4 * 1024 * 1024;

    enum State { RUNNING, FINISHED, ABORTED }

    final ServerContext ctx;
    final Datastore ds;
    final DatastoreHandle handle;
    final WorkerTask task;
    final String store;
    final String authid;
    final BackupSnapshotRef ref;
    final boolean benchmark;
    final boolean debug;
    final String logPrefix;
    final SnapshotWriter writer;
    final Optional<BackupSnapshotRef> previous;
    final SerialExecutor serial;
    final AtomicInteger nextWid = new AtomicInteger();
    final Map<Integer, IndexWriter> writers = new ConcurrentHashMap<>();
    final Set<String> archiveNames = ConcurrentHashMap.newKeySet();
    final Map<Digest, Integer> knownChunks = new ConcurrentHashMap<>();
    final UploadStats stats = new UploadStats();
    /** Memory for the digests of this session's fixed indexes ({@link DigestTable#DEFAULT_SESSION_BUDGET}). */
    final DigestTable.Budget digestBudget = new DigestTable.Budget(DigestTable.DEFAULT_SESSION_BUDGET);
    final BackupCalls calls;
    volatile DataBlob manifestBlob;
    private State state = State.RUNNING;

    private BackupSession(ServerContext ctx, DatastoreHandle handle, WorkerTask task, String store, String authid,
                          BackupSnapshotRef ref, boolean benchmark, boolean debug, SnapshotWriter writer,
                          Optional<BackupSnapshotRef> previous) {
        this.ctx = ctx;
        this.handle = handle;
        this.task = task;
        this.ds = handle.datastore();
        this.store = store;
        this.authid = authid;
        this.ref = ref;
        this.benchmark = benchmark;
        this.debug = debug;
        this.writer = writer;
        this.previous = previous;
        this.serial = new SerialExecutor(ctx.virtualThreads());
        this.logPrefix = "backup " + store + ":" + (ref.group().ns().isRoot() ? "" : ref.group().ns() + "/")
                + ref + ": ";
        this.calls = new BackupCalls(this);
    }

    /**
     * Runs the checks of {@code docs/protocol.md#backup-upgrade} in order and starts the session: {@code Datastore.Backup} on the
     * store (403, also for an unknown store), the datastore lookup for a write (400 with the
     * maintenance refusal, or {@code "no such datastore '<name>'"} for a caller with the privilege), namespace exists (404), benchmark flag matches
     * {@code host/benchmark}, owner check, backup time newer than the last finished snapshot,
     * snapshot directory absent, group lock; then the task starts.
     *
     * @param closeConnection closes the session's connection (used when the task is stopped)
     * @throws ApiException the refusal
     */
    public static BackupSession open(ServerContext ctx, String authid, String store, BackupSnapshotRef ref,
                                     boolean benchmark, boolean debug, String peer, Runnable closeConnection) {
        var ns = ref.group().ns();
        if (!ctx.auth().canBackup(authid, store, ns)) {
            throw new ApiException(403, "missing permissions 'Datastore.Backup' on '/datastore/" + store
                    + (ns.isRoot() ? "" : "/" + ns) + "'");
        }
        DatastoreHandle handle;
        try {
            handle = ctx.lookup(store, Operation.WRITE);
        } catch (java.io.IOException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        try {
            return open(ctx, handle, authid, store, ref, benchmark, debug, peer, closeConnection);
        } catch (RuntimeException e) {
            handle.close();
            throw e;
        }
    }

    private static BackupSession open(ServerContext ctx, DatastoreHandle handle, String authid, String store,
                                      BackupSnapshotRef ref, boolean benchmark, boolean debug, String peer,
                                      Runnable closeConnection) {
        var ns = ref.group().ns();
        Datastore ds = handle.datastore();
        if (!ds.namespaceExists(ns)) {
            throw new ApiException(404, "namespace not found");
        }
        boolean isBenchmarkGroup = ref.group().type().text().equals("host") && ref.group().id().equals("benchmark");
        if (benchmark && !isBenchmarkGroup) {
            throw ApiException.badRequest("benchmark flags is only allowed on 'host/benchmark'");
        }
        if (!benchmark && isBenchmarkGroup) {
            throw ApiException.badRequest("unable to run benchmark without --benchmark flags");
        }
        try {
            String owner = authid;
            if (Files.isDirectory(ds.groupDir(ref.group()))) {
                String current = currentOwner(ds, ref);
                if (current != null) {
                    if (!benchmark && !mayWriteAs(authid, current)) {
                        throw new org.jpbs.core.errors.OwnerMismatchException(authid, current);
                    }
                    owner = current;
                }
            }
            Optional<BackupSnapshotRef> last = ds.lastFinishedSnapshot(ref.group());
            if (last.isPresent() && ref.time() <= last.get().time()) {
                throw ApiException.badRequest("backup timestamp is older than last backup.");
            }
            if (Files.exists(ds.snapshotDir(ref))) {
                throw ApiException.badRequest("backup directory already exists.");
            }
            Optional<BackupSnapshotRef> previous = last.filter(p -> !verifyFailed(ds, p));
            SnapshotWriter w;
            try {
                w = ds.beginSnapshot(ref, owner);
            } catch (LockedException e) {
                throw ApiException.badRequest("unable to acquire lock on backup group " + ref.group()
                        + " - another backup is already running");
            }
            if (previous.isPresent()) {
                // step 9: the base snapshot stays share-locked (not prunable) until finish or abort
                try {
                    w.lockBase(previous.get());
                } catch (IOException e) {
                    w.abort();
                    throw ApiException.badRequest("unable to lock previous snapshot " + previous.get() + " - "
                            + e.getMessage());
                }
            }
            WorkerTask task;
            try {
                task = ctx.tasks().begin("backup", store + ":" + ref.group().type().text() + "/" + ref.group().id(), authid);
            } catch (IOException e) {
                w.abort();
                throw e;
            }
            BackupSession s = new BackupSession(ctx, handle, task, store, authid, ref, benchmark, debug, w, previous);
            ctx.sessionStarted(s);
            String start = "starting new " + (benchmark ? "benchmark" : "backup") + " on datastore '" + store + "' from "
                    + peer + ": \"" + (ns.isRoot() ? "" : "ns/" + ns + "/") + ref + "\"";
            task.log(start);
            previous.ifPresent(p -> task.log("previous snapshot " + p.timeString()));
            task.onAbort(closeConnection);
            LOG.log(Level.INFO, s.logPrefix + "starting new " + (benchmark ? "benchmark" : "backup")
                    + " on datastore '" + store + "' from " + authid + " (" + peer + "), task " + task.upid()
                    + previous.map(p -> ", previous snapshot " + p.timeString()).orElse(""));
            return s;
        } catch (IOException e) {
            var full = org.jpbs.datastore.os.StorageFullException.find(e);
            if (full.isPresent()) {
                LOG.log(Level.WARNING, "backup " + store + ": " + full.get().getMessage());
                throw new ApiException(500, full.get().publicMessage(store));
            }
            throw ApiException.badRequest(e.getMessage());
        }
    }

    private static String currentOwner(Datastore ds, BackupSnapshotRef ref) throws IOException {
        if (ds.isAbandonedGroup(ref.group())) {
            return null; // left without any snapshot by a killed first backup: anyone may take it over
        }
        try {
            return ds.owner(ref.group());
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }

    /** The owner may be the caller or, if the caller is a user, one of the caller's tokens ({@code docs/protocol.md#backup-upgrade} step 7). */
    static boolean mayWriteAs(String authid, String owner) {
        return owner.equals(authid) || (!authid.contains("!") && owner.startsWith(authid + "!"));
    }

    private static boolean verifyFailed(Datastore ds, BackupSnapshotRef p) {
        try {
            var v = ds.openSnapshot(p).manifest().unprotected().path("verify_state").path("state");
            return v.isTextual() && v.textValue().equals("failed");
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public Route route(String method, String path, String rawQuery, String contentType) {
        Route r = routeFor(method, path, rawQuery, contentType);
        return new Route(r.executor(), r.maxBody(), r.discardBody(), r.tooLargeMessage(), body -> {
            try {
                return r.handler().handle(body);
            } catch (Exception e) {
                var full = org.jpbs.datastore.os.StorageFullException.find(e);
                if (full.isPresent()) { // 500 naming the datastore and the file (relative), never a server path
                    LOG.log(System.Logger.Level.WARNING, logPrefix + full.get().getMessage());
                    throw new ApiException(500, full.get().publicMessage(store));
                }
                throw e;
            }
        });
    }

    private Route routeFor(String method, String path, String rawQuery, String contentType) {
        String key = method + " " + path;
        return switch (key) {
            case "GET /" -> Route.of(serial, 0, b -> subdirs());
            case "POST /blob" -> calls.blobRoute(Params.ofQuery(rawQuery));
            case "POST /fixed_chunk" -> calls.chunkRoute(Params.ofQuery(rawQuery), true);
            case "POST /dynamic_chunk" -> calls.chunkRoute(Params.ofQuery(rawQuery), false);
            case "POST /speedtest" -> new Route(ctx.virtualThreads(), Long.MAX_VALUE, true, "", b -> H2Response.nullData());
            case "GET /previous" -> Route.of(serial, MAX_JSON_BODY, b -> calls.previous(Params.ofQuery(rawQuery)));
            case "GET /previous_backup_time" -> Route.of(serial, MAX_JSON_BODY, b -> calls.previousBackupTime());
            case "POST /fixed_index" -> api(rawQuery, contentType, calls::createFixed);
            case "POST /dynamic_index" -> api(rawQuery, contentType, calls::createDynamic);
            case "PUT /fixed_index" -> api(rawQuery, contentType, p -> calls.append(p, true));
            case "PUT /dynamic_index" -> api(rawQuery, contentType, p -> calls.append(p, false));
            case "POST /fixed_close" -> api(rawQuery, contentType, calls::closeFixed);
            case "POST /dynamic_close" -> api(rawQuery, contentType, calls::closeDynamic);
            case "POST /finish" -> api(rawQuery, contentType, p -> calls.finish());
            default -> throw ApiException.pathNotFound(path);
        };
    }

    @FunctionalInterface
    interface ApiCall {
        H2Response call(Params p) throws Exception;
    }

    private Route api(String rawQuery, String contentType, ApiCall call) {
        return Route.of(serial, MAX_JSON_BODY, body -> call.call(Params.forApiCall(contentType, rawQuery, body)));
    }

    private static final List<String> SUBDIRS = List.of("blob", "dynamic_chunk", "dynamic_close", "dynamic_index",
            "finish", "fixed_chunk", "fixed_close", "fixed_index", "previous", "previous_backup_time", "speedtest");

    static H2Response subdirs(List<String> names) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        names.forEach(n -> a.addObject().put("subdir", n));
        return H2Response.data(a);
    }

    private H2Response subdirs() {
        return subdirs(SUBDIRS);
    }

    /** Refuses writes after finish or abort ({@code "backup already marked as finished."}). */
    synchronized void ensureRunning() {
        if (state == State.FINISHED) {
            throw ApiException.badRequest("backup already marked as finished.");
        }
        if (state == State.ABORTED) {
            throw ApiException.badRequest("backup was aborted");
        }
    }

    synchronized State state() {
        return state;
    }

    synchronized void markFinished() {
        state = State.FINISHED;
    }

    /** Writes the failed request into the task log, as PBS (e.g. a refused {@code finish}). */
    @Override
    public void requestFailed(String method, String path, org.jpbs.server.http.ApiException error) {
        task.log(org.jpbs.server.http.Http2Service.failureLine(method, path, error));
    }

    @Override
    public void connectionClosed() {
        serial.execute(this::cleanup); // after every call already queued, e.g. a finish
    }

    private void cleanup() {
        try {
            boolean abort;
            synchronized (this) {
                abort = state == State.RUNNING;
                if (abort) {
                    state = State.ABORTED;
                }
            }
            if (benchmark) {
                // as PBS: a benchmark session keeps nothing and ends OK however the connection
                // ended (the client just closes it after its speed test, without a finish)
                try {
                    writer.abort();
                } catch (IOException | RuntimeException e) {
                    LOG.log(Level.ERROR, logPrefix + "removing benchmark data failed: " + e.getMessage(), e);
                    task.warn("removing benchmark data failed: " + e.getMessage());
                }
                LOG.log(Level.DEBUG, () -> logPrefix + "benchmark connection closed");
                task.log("benchmark finished successfully");
                task.finish((String) null);
            } else if (abort) {
                LOG.log(Level.WARNING, logPrefix + "connection closed before finish - removing unfinished backup");
                task.log("removing unfinished backup");
                try {
                    writer.abort();
                } catch (IOException | RuntimeException e) {
                    LOG.log(Level.ERROR, logPrefix + "removing unfinished backup failed: " + e.getMessage(), e);
                    task.warn("removing unfinished backup failed: " + e.getMessage());
                }
                task.finish(task.abortRequested() ? org.jpbs.datastore.task.TaskAbortedException.MESSAGE
                        : "backup ended but finished flag is not set.");
            } else {
                LOG.log(Level.DEBUG, () -> logPrefix + "connection closed");
                task.record("backup.bytes", stats.size());
                task.record("backup.chunks", stats.count());
                task.record("backup.chunks.duplicate", stats.duplicates());
                task.log("backup finished successfully");
                task.finish((String) null);
                org.jpbs.server.api.ScheduledJobs.verifyNew(ctx.services(), store, ref, authid); // docs/jobs.md
            }
        } finally {
            handle.close();
            ctx.sessionEnded(this);
        }
    }

    /** Writer-level messages: INFO when the session was opened with {@code debug=true}, else DEBUG. */
    void debug(String msg) {
        task.log(msg);
        if (debug) {
            LOG.log(Level.INFO, logPrefix + msg);
        } else {
            LOG.log(Level.DEBUG, () -> logPrefix + msg);
        }
    }

    /** Per-chunk and per-append messages: always at DEBUG level (the real client always asks for debug). */
    void trace(String msg) {
        LOG.log(Level.DEBUG, () -> logPrefix + msg);
    }

    /** Executor for chunk uploads. */
    Executor chunkExecutor() {
        return ctx.chunkWorkers();
    }

    @Override
    public String toString() {
        return "BackupSession[" + logPrefix.trim() + "]";
    }
}
