package org.jpbs.datastore.verify;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.Upid;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.lock.LockedException;
import org.jpbs.datastore.os.StorageFullException;
import org.jpbs.datastore.os.TaskIds;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.DatastoreLayout;
import org.jpbs.datastore.snapshot.SnapshotReader;
import org.jpbs.datastore.tuning.ChunkOrder;

/**
 * Verifies snapshots ({@code docs/gc.md#verify}). Per snapshot: a missing directory
 * is skipped; the snapshot is share-locked for its verification (if that fails, e.g. during a
 * forget, it is skipped: {@code "could not acquire snapshot lock"}); the manifest must load ({@link SnapshotReader}, else failed without a
 * {@code verify_state}); the {@code ignore-verified}/{@code outdated-after} filter may skip it;
 * every blob is checked (size, SHA-256, CRC, decodable unless encrypted); every index is
 * checked against the manifest and its chunks by {@link ChunkVerifier}; finally
 * {@code unprotected.verify_state = {"state": "ok"|"failed", "upid": ...}} is written into the
 * manifest. Chunks found good or corrupt are remembered for the whole run, so snapshots
 * sharing chunks read them once. Close it to stop its threads.
 */
public final class Verifier implements AutoCloseable {
    /** Listener for the task log; methods are called from the verifying thread. */
    public interface Listener {
        /** An informational line. */
        default void info(String line) {}

        /**
         * A warning, e.g. that a snapshot's {@code verify_state} could not be written (the line
         * names the manifest relative to the datastore root). Default: {@link #info}.
         */
        default void warn(String line) {
            info("WARN: " + line);
        }

        /** A snapshot is done. */
        default void snapshotDone(SnapshotVerifyResult result) {}
    }

    private final Datastore ds;
    private final VerifyOptions options;
    private final Upid upid;
    private final Listener listener;
    private final ExecutorService pool;
    private final ChunkVerifier chunks;

    /**
     * @param authId who runs it, for the task id (e.g. {@code root@pam})
     */
    public Verifier(Datastore ds, VerifyOptions options, String authId, Listener listener) {
        this(ds, options, authId, listener, null);
    }

    /**
     * As {@link #Verifier(Datastore, VerifyOptions, String, Listener)}, for a verify that runs as a
     * task: {@code upid} (the task's id) goes into {@code verify_state}; null makes a fresh one.
     */
    public Verifier(Datastore ds, VerifyOptions options, String authId, Listener listener, Upid upid) {
        this(ds, options, authId, listener, upid, Executors.newFixedThreadPool(options.threads(),
                r -> Thread.ofPlatform().name("jpbs-verify").daemon(true).unstarted(r)));
    }

    /**
     * As {@link #Verifier(Datastore, VerifyOptions, String, Listener, Upid)} with the chunk
     * checks on {@code pool} (a server's thread budget lane, {@code docs/design.md#thread-budget});
     * the verifier owns it and shuts it down on {@link #close()}.
     */
    public Verifier(Datastore ds, VerifyOptions options, String authId, Listener listener, Upid upid,
                    ExecutorService pool) {
        this.ds = Objects.requireNonNull(ds, "ds");
        this.options = Objects.requireNonNull(options, "options");
        this.listener = Objects.requireNonNull(listener, "listener");
        String store = ds.root().getFileName() == null ? "" : ds.root().getFileName().toString();
        this.upid = upid != null ? upid : TaskIds.next("verify", store, authId, options.now().getEpochSecond());
        this.pool = Objects.requireNonNull(pool, "pool");
        this.chunks = new ChunkVerifier(ds.chunkStore(), pool, options.chunkOrder() == ChunkOrder.INODE);
    }

    /** The task id written into {@code verify_state}. */
    public Upid upid() {
        return upid;
    }

    /**
     * Verifies every snapshot of the datastore: namespaces in order, groups sorted, snapshots
     * newest first; the group {@code host/benchmark} is left out (as PBS does).
     */
    public VerifyReport verifyAll() throws IOException {
        return verifyNamespace(BackupNamespace.ROOT);
    }

    /**
     * Verifies every snapshot of namespace {@code top} and of the namespaces below it, in the
     * order of {@link #verifyAll()} (which is this with the root namespace).
     *
     * @throws IOException if the namespaces or groups cannot be listed
     */
    public VerifyReport verifyNamespace(BackupNamespace top) throws IOException {
        List<SnapshotVerifyResult> out = new ArrayList<>();
        for (BackupNamespace ns : ds.listNamespaces(top, BackupNamespace.MAX_DEPTH)) {
            for (BackupGroupRef g : ds.listGroups(ns)) {
                if (g.type().text().equals("host") && g.id().equals("benchmark")) {
                    continue;
                }
                List<BackupSnapshotRef> refs = new ArrayList<>();
                ds.listSnapshots(g).forEach(s -> refs.add(s.ref()));
                refs.sort(Comparator.comparingLong(BackupSnapshotRef::time).reversed());
                for (BackupSnapshotRef r : refs) {
                    out.add(verify(r));
                }
            }
        }
        return new VerifyReport(upid.toString(), out);
    }

    /** Verifies the given snapshots in order. */
    public VerifyReport verify(List<BackupSnapshotRef> snapshots) throws IOException {
        List<SnapshotVerifyResult> out = new ArrayList<>();
        for (BackupSnapshotRef r : snapshots) {
            out.add(verify(r));
        }
        return new VerifyReport(upid.toString(), out);
    }

    /**
     * Verifies one snapshot and records the outcome in its manifest. If the outcome cannot be
     * recorded (a full disk, a read-only file system) the result still carries it, with
     * {@link SnapshotVerifyResult#recordError()} set, and {@link Listener#warn} is told.
     *
     * @throws IOException on errors outside the snapshot (none expected)
     */
    public SnapshotVerifyResult verify(BackupSnapshotRef ref) throws IOException {
        SnapshotVerifyResult r = verifyInner(ref);
        listener.snapshotDone(r);
        return r;
    }

    private SnapshotVerifyResult verifyInner(BackupSnapshotRef ref) throws IOException {
        Path dir = ds.snapshotDir(ref);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return skipped(ref, "does not exist (anymore)");
        }
        // docs/gc.md#verify: shared snapshot lock for the whole verification
        org.jpbs.datastore.lock.DirLock lock;
        try {
            lock = ds.lockSnapshotShared(ref, "verify");
        } catch (LockedException e) {
            return skipped(ref, "could not acquire snapshot lock");
        } catch (NoSuchFileException e) {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                return skipped(ref, "does not exist (anymore)");
            }
            lock = null; // exists but unfinished: fails below on loading the manifest
        }
        try (org.jpbs.datastore.lock.DirLock _ = lock) {
            return verifyLocked(ref);
        }
    }

    private SnapshotVerifyResult verifyLocked(BackupSnapshotRef ref) throws IOException {
        SnapshotReader reader;
        try {
            reader = ds.openSnapshot(ref);
        } catch (NoSuchFileException e) {
            return skipped(ref, "does not exist (anymore)");
        } catch (IOException e) {
            VerifyProblem p = new VerifyProblem(ref, DatastoreLayout.MANIFEST, null, VerifyProblem.Kind.MANIFEST,
                    "cannot load the manifest of " + ref + ": " + e.getMessage());
            return new SnapshotVerifyResult(ref, SnapshotVerifyResult.State.FAILED, null, List.of(p), 0, 0, 0);
        }
        String skip = filter(reader.manifest());
        if (skip != null) {
            return skipped(ref, skip);
        }
        listener.info("verify " + ref);
        List<VerifyProblem> problems = new ArrayList<>();
        ChunkVerifier.Counts counts = new ChunkVerifier.Counts();
        for (FileEntry f : reader.manifest().files()) {
            String name = f.filename();
            try {
                if (name.endsWith(".blob")) {
                    var blob = reader.openBlob(name);
                    if (!blob.isEncrypted()) {
                        reader.readBlob(name);
                    }
                } else if (name.endsWith(".fidx") || name.endsWith(".didx")) {
                    IndexFile idx = reader.openIndex(name);
                    problems.addAll(chunks.verify(ref, name, idx, f.cryptMode() == CryptMode.ENCRYPT, counts));
                } else {
                    problems.add(new VerifyProblem(ref, name, null, VerifyProblem.Kind.FILE,
                            ref + "/" + name + ": unknown archive type"));
                }
            } catch (IOException e) {
                problems.add(new VerifyProblem(ref, name, null, VerifyProblem.Kind.FILE, e.getMessage()));
            }
        }
        SnapshotVerifyResult.State state = problems.isEmpty() ? SnapshotVerifyResult.State.OK
                : SnapshotVerifyResult.State.FAILED;
        String stateText = state == SnapshotVerifyResult.State.OK ? "ok" : "failed";
        String recordError = null;
        try {
            writeVerifyState(ref, stateText);
        } catch (IOException e) {
            // a full disk must not end the run: the outcome is still reported, with a warning
            Path manifest = ds.snapshotDir(ref).resolve(DatastoreLayout.MANIFEST);
            String why = e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
                    : e.getMessage();
            if (StorageFullException.isNoSpace(e)) {
                why = "No space left on device";
            }
            recordError = manifest + ": could not record the verify state (" + stateText + "): " + why;
            listener.warn(ref.relativePath() + "/" + DatastoreLayout.MANIFEST + ": could not record the verify state ("
                    + stateText + "): " + why);
        }
        return new SnapshotVerifyResult(ref, state, null, problems, counts.chunks.get(), counts.bytesRead.get(),
                counts.bytesDecoded.get(), recordError);
    }

    private SnapshotVerifyResult skipped(BackupSnapshotRef ref, String why) {
        listener.info("SKIPPED: verify " + ref + " - " + why);
        return new SnapshotVerifyResult(ref, SnapshotVerifyResult.State.SKIPPED, why, List.of(), 0, 0, 0);
    }

    /** The reason to skip per {@code ignore-verified}/{@code outdated-after} ({@code docs/gc.md#verify}), or null to verify. */
    String filter(BackupManifest m) {
        if (!options.ignoreVerified()) {
            return null;
        }
        JsonNode vs = m.unprotected().get("verify_state");
        if (vs == null || !vs.isObject() || !vs.path("state").isTextual() || !vs.path("upid").isTextual()) {
            return null;
        }
        if (options.outdatedAfterDays() == null) {
            return "recently verified";
        }
        long started;
        try {
            started = Upid.parse(vs.path("upid").textValue()).startTime();
        } catch (IllegalArgumentException e) {
            return null;
        }
        long days = Math.floorDiv(options.now().getEpochSecond() - started, 86_400L);
        return days > options.outdatedAfterDays() ? null : "recently verified";
    }

    private void writeVerifyState(BackupSnapshotRef ref, String state) throws IOException {
        ds.updateManifest(ref, m -> { // read fresh under the manifest lock: notes may have changed meanwhile
            ObjectNode vs = m.unprotected().putObject("verify_state");
            vs.put("state", state);
            vs.put("upid", upid.toString());
        });
    }

    /** Stops the reader threads. */
    @Override
    public void close() {
        pool.shutdownNow();
    }
}
