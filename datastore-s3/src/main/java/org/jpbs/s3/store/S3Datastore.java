package org.jpbs.s3.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.s3.client.ObjectStore;
import org.jpbs.s3.client.S3Connector;
import org.jpbs.s3.client.S3Options;
import org.jpbs.s3.config.S3EndpointConfig;

/**
 * An S3 datastore ({@code docs/s3.md}): a {@link Datastore} whose chunks are an
 * {@link S3ChunkStore} and whose directory tree (namespaces, groups, snapshots) is the local
 * cache, mirrored to the bucket's {@code .cnt/} objects by {@link S3ContentSync}. All objects lie
 * under {@code <store name>/} in the bucket, as PBS lays them out. The {@code .in-use} marker
 * names the host that created (or took over) the datastore: {@link #inUseBy}, {@link #claim}
 * ({@code docs/s3.md#one-writer}); opening neither checks nor writes it, as in PBS.
 */
public final class S3Datastore implements AutoCloseable {
    /** Default bound of the cached chunk bodies: 1 GiB. */
    public static final long DEFAULT_CACHE_BYTES = 1L << 30;
    private static final Pattern IN_USE_HOST = Pattern.compile("\"hostname\"\\s*:\\s*\"([^\"]*)\"");

    private final ObjectStore objects;
    private final S3ChunkStore chunks;
    private final Datastore ds;
    private final S3ContentSync content;

    private S3Datastore(ObjectStore objects, S3ChunkStore chunks, Datastore ds, S3ContentSync content) {
        this.objects = objects;
        this.chunks = chunks;
        this.ds = ds;
        this.content = content;
    }

    /**
     * Opens (and, on a new cache directory, creates the local skeleton of) the S3 datastore
     * {@code storeName} in {@code bucket}; an empty cache is filled from the bucket by {@link #refresh}.
     *
     * @param cacheRoot     the datastore's {@code path}: the local cache
     * @param maxCacheBytes bound of the cached chunk bodies
     */
    public static S3Datastore open(Path cacheRoot, S3EndpointConfig endpoint, String bucket, String storeName,
                                   long maxCacheBytes, S3Options options) throws IOException {
        // the cache's chunk directories are made as needed, not all 65,536 up front
        Files.createDirectories(cacheRoot.resolve(".chunks"));
        if (!Files.exists(cacheRoot.resolve(".lock"))) {
            Files.write(cacheRoot.resolve(".lock"), new byte[0]);
        }
        ObjectStore objects = S3Connector.open(endpoint, bucket, storeName, options);
        try {
            S3ChunkStore chunks = new S3ChunkStore(objects, cacheRoot.resolve(".chunks"), maxCacheBytes, Clock.systemUTC());
            Path root = cacheRoot.toAbsolutePath().normalize();
            S3ContentSync content = new S3ContentSync(objects, root);
            // every change of snapshot and group files (commit, prune, protection, notes, owner)
            // reaches the bucket through the datastore's content listener
            Datastore ds = Datastore.open(root, SyncLevel.FILESYSTEM, chunks, new S3ContentMirror(content, root));
            return new S3Datastore(objects, chunks, ds, content);
        } catch (IOException | RuntimeException e) {
            objects.close();
            throw e;
        }
    }

    /** The datastore (snapshots, verify, prune work on it as on a directory datastore). */
    public Datastore datastore() {
        return ds;
    }

    /** The chunk store. */
    public S3ChunkStore chunks() {
        return chunks;
    }

    /** The objects (request counts). */
    public ObjectStore objects() {
        return objects;
    }

    /**
     * The bucket's {@code .in-use} marker of this datastore: empty if there is none, else the
     * host it names ({@code ""} if it names none or cannot be read as PBS's JSON).
     */
    public Optional<String> inUseBy() throws IOException {
        Optional<ObjectStore.Fetched> f = objects.get(ObjectKeys.IN_USE);
        if (f.isEmpty()) {
            return Optional.empty();
        }
        Matcher m = IN_USE_HOST.matcher(new String(f.get().data(), StandardCharsets.UTF_8));
        return Optional.of(m.find() ? m.group(1) : "");
    }

    /** Writes the {@code .in-use} marker naming this host ({@code {"hostname":"<host>"}}, as PBS). */
    public void claim() throws IOException {
        String json = "{\"hostname\":\"" + hostname().replace("\\", "").replace("\"", "") + "\"}";
        objects.put(ObjectKeys.IN_USE, json.getBytes(StandardCharsets.UTF_8), false);
    }

    /** Fills a fresh or stale cache from the bucket; returns the number of snapshots added. */
    public int refresh() throws IOException {
        return content.refresh();
    }

    /**
     * Uploads a committed snapshot, its group's owner and notes to the bucket again (a commit
     * does it by itself; this repairs a snapshot whose upload failed).
     */
    public void uploadSnapshot(BackupSnapshotRef ref) throws IOException {
        new S3ContentMirror(content, ds.root()).snapshotChanged(ref);
    }

    /** Sets or clears protection, locally and in the bucket ({@code .protected}). */
    public void setProtected(BackupSnapshotRef ref, boolean protect) throws IOException {
        ds.setProtected(ref, protect);
    }

    /** Removes a snapshot locally and its objects in the bucket (forget, prune). */
    public void removeSnapshot(BackupSnapshotRef ref) throws IOException {
        ds.removeSnapshot(ref);
    }

    @Override
    public void close() {
        chunks.close(); // the running chunk uploads finish first
        objects.close();
    }

    /** This host's name as the {@code .in-use} marker gives it (PBS: the node name). */
    public static String hostname() {
        try {
            String h = Files.readString(Path.of("/etc/hostname")).strip();
            if (!h.isEmpty()) {
                return h;
            }
        } catch (IOException e) {
            // fall through
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "localhost";
        }
    }
}
