package org.jpbs.client.remote;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.jpbs.client.http.HttpStatusException;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.snapshot.AbstractSnapshotTarget;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;

/**
 * A {@link org.jpbs.core.snapshot.SnapshotTarget} on a server: one backup session ({@code docs/protocol.md#backup-session},
 * {@link BackupClient}). Chunks are uploaded asynchronously, up to the session's upload
 * concurrency; known chunks (the previous index of the same archive, downloaded in this session)
 * are only appended. Closing without {@link #finish} drops the connection, and the server
 * removes the unfinished snapshot.
 */
public final class RemoteSnapshotTarget extends AbstractSnapshotTarget {
    private static final String TIME_CONFLICT = "backup timestamp is older than last backup";
    private static final String DIR_EXISTS = "backup directory already exists";

    private final BackupClient client;
    private final PbsClient pbs;

    private RemoteSnapshotTarget(PbsClient pbs, BackupClient client) {
        this.pbs = pbs;
        this.client = client;
    }

    /**
     * Starts a backup session for exactly {@code ref}.
     *
     * @throws HttpStatusException if the server refuses the snapshot
     */
    public static RemoteSnapshotTarget start(PbsClient pbs, BackupSnapshotRef ref, int uploadConcurrency)
            throws IOException {
        return new RemoteSnapshotTarget(pbs, BackupClient.start(pbs, ref, uploadConcurrency));
    }

    /**
     * Starts a backup session for a new snapshot of {@code group}. Without a time it is now, or
     * one second after the group's last snapshot if that is later (as for a local datastore):
     * when the server says the group already has a snapshot at or after that second, the group's
     * snapshots are listed and the next try uses one second after the newest (or, if the listing
     * fails, the next second); three tries at most.
     *
     * @param time the snapshot time (epoch seconds), or null for "now"
     */
    public static RemoteSnapshotTarget begin(PbsClient pbs, BackupGroupRef group, Long time, int uploadConcurrency)
            throws IOException {
        long t = time != null ? time : Instant.now().getEpochSecond();
        for (int attempt = 0; ; attempt++) {
            try {
                return start(pbs, new BackupSnapshotRef(group, t), uploadConcurrency);
            } catch (HttpStatusException e) {
                boolean conflict = e.serverMessage().contains(TIME_CONFLICT) || e.serverMessage().contains(DIR_EXISTS);
                if (time != null || !conflict || attempt >= 2) {
                    throw e;
                }
                long newest = newestSnapshotTime(pbs, group);
                if (newest < t) {
                    sleepToNextSecond();
                }
                t = Math.max(Math.max(t, newest) + 1, Instant.now().getEpochSecond());
            }
        }
    }

    /** The time of the group's newest snapshot on the server (finished or not), or -1 if none or not listable. */
    private static long newestSnapshotTime(PbsClient pbs, BackupGroupRef group) {
        try {
            long newest = -1;
            for (RemoteSnapshots.Snapshot s : RemoteSnapshots.list(pbs, group.ns(), group)) {
                newest = Math.max(newest, s.ref().time());
            }
            return newest;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static void sleepToNextSecond() throws IOException {
        try {
            Thread.sleep(1000 - System.currentTimeMillis() % 1000 + 5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        }
    }

    /** The session (for its counters and for callers that speak the protocol themselves). */
    public BackupClient client() {
        return client;
    }

    /** The server, as {@code host:port}. */
    public String server() {
        return pbs.repository().hostAndPort();
    }

    @Override
    public BackupSnapshotRef snapshot() {
        return client.snapshot();
    }

    @Override
    public Optional<BackupManifest> previousManifest() throws IOException {
        return client.previousManifest();
    }

    /** A reader session on the group's previous snapshot. */
    @Override
    public Optional<SnapshotSource> openPreviousSource() throws IOException {
        java.util.OptionalLong t = client.previousBackupTime();
        if (t.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(RemoteSnapshotSource.open(pbs, new BackupSnapshotRef(snapshot().group(), t.getAsLong())));
    }

    @Override
    public IndexFile previousIndex(FileEntry entry) throws IOException {
        return client.previousIndex(entry);
    }

    @Override
    protected void storeBlob(String serverName, DataBlob blob) throws IOException {
        client.uploadBlob(serverName, blob);
    }

    @Override
    public IndexWriter openFixedIndex(String serverName, long size, Set<Digest> known) throws IOException {
        return new RemoteBackupWriter(client, serverName, client.createFixedIndex(serverName, size, null), known);
    }

    @Override
    public IndexWriter openDynamicIndex(String serverName, Set<Digest> known) throws IOException {
        return new RemoteBackupWriter(client, serverName, client.createDynamicIndex(serverName), known);
    }

    @Override
    protected void commit(BackupManifest manifest) throws IOException {
        client.finish(manifest);
    }

    @Override
    protected void discard(String reason) {
        client.fail(new IOException("backup of " + client.snapshot() + " aborted: " + reason));
    }

    @Override
    protected void release() {
        client.close();
    }

    /** Closes the session; the server removes an unfinished snapshot when the session ends. */
    @Override
    public void close() {
        client.close();
    }
}
