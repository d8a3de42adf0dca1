package org.jpbs.s3.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
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
 * under {@code <store name>/} in the bucket, as PBS lays them out. Opening writes the
 * {@code .in-use} marker naming this host.
 */
public final class S3Datastore implements AutoCloseable {
    /** Default bound of the cached chunk bodies: 1 GiB. */
    public static final long DEFAULT_CACHE_BYTES = 1L << 30;

    private final ObjectStore objects;
    private final S3ChunkStore chunks;
    private final Datastore ds;
    private final S3ContentSync content;

    private S3Datastore(ObjectStore objects, S3ChunkStore chunks, Datastore ds) {
        this.objects = objects;
        this.chunks = chunks;
        this.ds = ds;
        this.content = new S3ContentSync(objects, ds.root());
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
            Datastore ds = Datastore.open(cacheRoot, SyncLevel.FILESYSTEM, chunks);
            objects.put(ObjectKeys.IN_USE, ("{\"hostname\":\"" + hostname() + "\"}").getBytes(StandardCharsets.UTF_8),
                    false);
            return new S3Datastore(objects, chunks, ds);
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

    /** Fills a fresh or stale cache from the bucket; returns the number of snapshots added. */
    public int refresh() throws IOException {
        return content.refresh();
    }

    /** Mirrors a committed snapshot, its group's owner and notes to the bucket. */
    public void uploadSnapshot(BackupSnapshotRef ref) throws IOException {
        uploadGroup(ref.group());
        content.uploadSnapshot(ref.relativePath());
    }

    /** Mirrors a group's owner and notes (those that exist). */
    public void uploadGroup(BackupGroupRef group) throws IOException {
        for (String f : new String[] {"owner", "notes"}) {
            String rel = group.relativePath() + "/" + f;
            if (Files.isRegularFile(ds.root().resolve(rel))) {
                content.uploadFile(rel);
            } else {
                content.deleteFile(rel);
            }
        }
    }

    /** Sets or clears protection, locally and in the bucket ({@code .protected}). */
    public void setProtected(BackupSnapshotRef ref, boolean protect) throws IOException {
        ds.setProtected(ref, protect);
        String rel = ref.relativePath() + "/.protected";
        if (protect) {
            content.uploadFile(rel);
        } else {
            content.deleteFile(rel);
        }
    }

    /** Removes a snapshot locally and its objects in the bucket (forget, prune). */
    public void removeSnapshot(BackupSnapshotRef ref) throws IOException {
        ds.removeSnapshot(ref);
        content.deleteTree(ref.relativePath());
    }

    @Override
    public void close() {
        objects.close();
    }

    private static String hostname() {
        try {
            return Files.readString(Path.of("/etc/hostname")).strip().replace("\"", "");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
