package org.jpbs.s3.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantLock;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.datastore.chunks.ChunkInsertRule;
import org.jpbs.datastore.chunks.ChunkStore;
import org.jpbs.s3.client.ObjectStore;

/**
 * A {@link ChunkStore} whose chunks are objects {@code .chunks/<4 hex>/<64 hex>} in a bucket
 * ({@code docs/s3.md#chunks}), with a {@link LocalChunkCache} that knows which chunks exist,
 * when each was last used, and keeps the recently used ones (bounded, LRU).
 *
 * <ul>
 * <li>insert: the insert rule of every store ({@link ChunkInsertRule}); a chunk the cache does
 *     not know is uploaded in the background with {@code If-None-Match: *} (one request; at
 *     most {@link #MAX_UPLOADS} uploads and {@link #MAX_UPLOAD_KIB} KiB in flight, an insert
 *     waits for room); only if the bucket already has one is that copy downloaded and
 *     classified. Every other operation on the digest waits for its upload, and
 *     {@link #awaitStored} (called before an index naming the chunks is written) fails if one
 *     was not stored.</li>
 * <li>last use: the cache's marker time (set by a write, a kept duplicate, a touch); for a
 *     chunk the cache does not know (fresh cache, other writer) the object's modification time.
 *     So a GC sweep needs no request per chunk beyond the listing.</li>
 * <li>read: a cached body is used after its CRC checks out (a damaged local copy is dropped and
 *     fetched again, never reported as a corrupt chunk); otherwise the object is downloaded
 *     (checked by its CRC; only if that fails by its ETag, so a damaged answer is fetched again
 *     and a corrupt object is returned as it is) and cached.</li>
 * </ul>
 * Every decision on a digest runs under one of 64 striped locks, so a removal by a sweep and an
 * insert or touch of the same digest in this process never interleave. One server writes to a
 * bucket datastore at a time (docs); others may read.
 */
public final class S3ChunkStore implements ChunkStore {
    private static final int STRIPES = 64;
    /** Chunk uploads running in the background at most. */
    static final int MAX_UPLOADS = 16;
    /** Bodies of running uploads at most, in KiB (64 MiB). */
    static final int MAX_UPLOAD_KIB = 64 << 10;

    private final ObjectStore objects;
    private final LocalChunkCache cache;
    private final Clock clock;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
    private final PendingUploads uploads = new PendingUploads(MAX_UPLOADS, MAX_UPLOAD_KIB);
    private final ExecutorService background = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("jpbs-s3-upload-", 0).factory());

    /**
     * @param objects       the datastore's objects (keys relative to its prefix)
     * @param cacheChunks   the local cache's chunk directory ({@code <cache>/.chunks})
     * @param maxCacheBytes bound of the cached chunk bodies
     */
    public S3ChunkStore(ObjectStore objects, Path cacheChunks, long maxCacheBytes, Clock clock) throws IOException {
        this.objects = objects;
        this.cache = new LocalChunkCache(cacheChunks, maxCacheBytes);
        this.clock = clock;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /** The object store (for request counts and the snapshot files). */
    public ObjectStore objects() {
        return objects;
    }

    /** Bytes of chunk bodies in the local cache. */
    public long cachedBytes() {
        return cache.bytes();
    }

    private ReentrantLock lockFor(Digest d) {
        return stripes[(d.hashCode() & 0x7fffffff) % STRIPES];
    }

    @Override
    public InsertResult insert(Digest digest, DataBlob blob) throws IOException {
        ChunkInsertRule.checkBlob(digest, blob);
        long size = blob.rawLength();
        uploads.reserve(size); // room among the running uploads, taken before any lock
        boolean handedOver = false;
        try {
            ReentrantLock lock = lockSettled(digest);
            try {
                if (cache.lastUsed(digest).isEmpty()) {
                    // unknown here: uploaded in the background; check() waits for it before an
                    // index naming it is written
                    uploads.start(digest);
                    try {
                        background.execute(() -> upload(digest, blob, size));
                    } catch (RuntimeException e) { // closed
                        IOException failure = new IOException("cannot upload chunk " + digest.hex() + ": " + e, e);
                        uploads.finish(digest, failure);
                        throw failure;
                    }
                    handedOver = true;
                    return new InsertResult(false, size);
                }
                return insertLocked(digest, blob);
            } finally {
                lock.unlock();
            }
        } finally {
            if (!handedOver) {
                uploads.release(size);
            }
            evict();
        }
    }

    /** A background upload: one conditional PUT; only if the bucket has a copy is it classified. */
    private void upload(Digest digest, DataBlob blob, long size) {
        IOException failure = null;
        try {
            boolean written = objects.put(ObjectKeys.chunk(digest), blob.raw(), true);
            ReentrantLock lock = lockFor(digest);
            lock.lock();
            try {
                if (written) {
                    cache.putBody(digest, blob.raw(), clock.instant());
                } else {
                    insertLocked(digest, blob);
                }
            } finally {
                lock.unlock();
            }
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new IOException("upload of chunk " + digest.hex() + " failed: " + e, e);
        } finally {
            uploads.finish(digest, failure);
            uploads.release(size);
            evict();
        }
    }

    /**
     * The insert rule under the digest's lock, for a chunk the bucket has (the cache knows it, or
     * a conditional upload was refused): the existing copy (the cached body, else downloaded) is
     * classified and kept or replaced.
     */
    private InsertResult insertLocked(Digest digest, DataBlob blob) throws IOException {
        String key = ObjectKeys.chunk(digest);
        byte[] existing = cache.body(digest);
        if (existing == null) {
            existing = objects.get(key).map(ObjectStore.Fetched::data).orElse(null);
        }
        ChunkInsertRule.Found found = ChunkInsertRule.classify(existing, location(digest));
        if (ChunkInsertRule.keep(digest, found, blob)) {
            cache.mark(digest, clock.instant());
            uploads.stored(digest);
            return new InsertResult(true, found.size());
        }
        objects.put(key, blob.raw(), false);
        cache.putBody(digest, blob.raw(), clock.instant());
        uploads.stored(digest);
        return new InsertResult(false, blob.rawLength());
    }

    /** Locks the digest's stripe once no upload of the digest runs (its outcome decides what follows). */
    private ReentrantLock lockSettled(Digest digest) throws InterruptedIOException {
        ReentrantLock lock = lockFor(digest);
        while (true) {
            uploads.await(digest);
            lock.lock();
            if (!uploads.running(digest)) {
                return lock;
            }
            lock.unlock();
        }
    }

    @Override
    public void awaitStored(Iterable<Digest> digests) throws IOException {
        uploads.check(digests);
    }

    /** Waits for the running uploads and stops the upload threads (the object store is closed by its owner). */
    public void close() {
        try {
            uploads.awaitAll();
        } catch (InterruptedIOException e) {
            // interrupted: the uploads end with the object store
        }
        background.shutdown();
    }

    @Override
    public boolean exists(Digest digest) {
        ReentrantLock lock;
        try {
            lock = lockSettled(digest);
        } catch (InterruptedIOException e) {
            return false;
        }
        try {
            if (cache.lastUsed(digest).isPresent()) {
                return true;
            }
            Optional<ObjectStore.ObjectInfo> o = objects.head(ObjectKeys.chunk(digest));
            if (o.isEmpty() || o.get().size() == 0) {
                return false;
            }
            cache.mark(digest, o.get().lastModified());
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean touch(Digest digest) throws IOException {
        ReentrantLock lock = lockSettled(digest);
        try {
            if (cache.lastUsed(digest).isEmpty()) {
                Optional<ObjectStore.ObjectInfo> o = objects.head(ObjectKeys.chunk(digest));
                if (o.isEmpty() || o.get().size() == 0) {
                    return false;
                }
            }
            cache.mark(digest, clock.instant());
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public DataBlob read(Digest digest) throws IOException {
        String where = location(digest);
        ReentrantLock lock = lockSettled(digest);
        try {
            byte[] body = cache.body(digest);
            if (body != null) {
                try {
                    DataBlob b = DataBlob.wrap(body, where);
                    b.verifyCrc(where);
                    return b;
                } catch (CorruptDataException e) {
                    cache.evict(digest); // a damaged local copy: the bucket's copy decides
                }
            }
            Optional<Instant> used = cache.lastUsed(digest);
            ObjectStore.Fetched f = objects.get(ObjectKeys.chunk(digest), S3ChunkStore::crcIntact).orElse(null);
            if (f == null || f.data().length == 0) {
                throw new MissingChunkException(digest, where + (f == null ? "" : ", empty object"));
            }
            DataBlob b = DataBlob.wrap(f.data(), where);
            cache.putBody(digest, f.data(), used.orElse(f.lastModified()));
            return b;
        } finally {
            lock.unlock();
            evict();
        }
    }

    /** True if the bytes are a blob whose CRC checks out (then no MD5 of the download is needed). */
    private static boolean crcIntact(byte[] raw) {
        try {
            DataBlob.wrap(raw, "download").verifyCrc("download");
            return true;
        } catch (CorruptDataException e) {
            return false;
        }
    }

    @Override
    public String location(Digest digest) {
        return objects.describe(ObjectKeys.chunk(digest));
    }

    @Override
    public Optional<String> renameCorrupt(Digest digest) throws IOException {
        ReentrantLock lock = lockSettled(digest);
        try {
            Optional<ObjectStore.Fetched> f = objects.get(ObjectKeys.chunk(digest));
            cache.forget(digest);
            if (f.isEmpty()) {
                return Optional.empty();
            }
            int n = 0;
            while (n < 9 && objects.head(ObjectKeys.badChunk(digest, n)).isPresent()) {
                n++;
            }
            objects.put(ObjectKeys.badChunk(digest, n), f.get().data(), false);
            objects.delete(List.of(ObjectKeys.chunk(digest)));
            return Optional.of(digest.hex() + "." + n + ".bad");
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void forEachChunk(ChunkVisitor visitor) throws IOException {
        uploads.awaitAll(); // every chunk whose insert returned is listed
        List<StoredChunk> page = new ArrayList<>();
        IOException[] failed = new IOException[1];
        objects.list(ObjectKeys.CHUNKS, o -> {
            Digest d = ObjectKeys.digestOf(o.key());
            if (d == null || failed[0] != null) {
                return;
            }
            try {
                page.add(new StoredChunk(d, o.size(), cache.lastUsed(d).orElse(o.lastModified())));
                if (page.size() >= 1000) {
                    for (StoredChunk c : page) {
                        visitor.visit(c);
                    }
                    page.clear();
                }
            } catch (IOException e) {
                failed[0] = e;
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
        for (StoredChunk c : page) {
            visitor.visit(c);
        }
    }

    @Override
    public Removal removeIfUnused(Digest digest, Instant cutoff) throws IOException {
        ReentrantLock lock = lockSettled(digest);
        try {
            Optional<Instant> used = cache.lastUsed(digest);
            if (used.isEmpty()) {
                Optional<ObjectStore.ObjectInfo> o = objects.head(ObjectKeys.chunk(digest));
                if (o.isEmpty()) {
                    return Removal.ABSENT;
                }
                used = Optional.of(o.get().lastModified());
            }
            if (!used.get().isBefore(cutoff)) {
                return Removal.KEPT;
            }
            objects.delete(List.of(ObjectKeys.chunk(digest)));
            cache.forget(digest);
            return Removal.REMOVED;
        } finally {
            lock.unlock();
        }
    }

    /** Test hook and repair tool: stores raw bytes as the chunk's object, bypassing the insert rule. */
    public void plant(Digest digest, byte[] raw) throws IOException {
        ReentrantLock lock = lockSettled(digest);
        try {
            objects.put(ObjectKeys.chunk(digest), raw, false);
            cache.forget(digest);
        } finally {
            lock.unlock();
        }
    }

    /** Sets a chunk's last use in the local cache (tests age chunks with it). */
    public void setLastUsed(Digest digest, Instant when) throws IOException {
        ReentrantLock lock = lockSettled(digest);
        try {
            cache.mark(digest, when);
        } finally {
            lock.unlock();
        }
    }

    /** Truncates least recently used bodies back to markers until the bound holds. */
    private void evict() {
        for (int i = 0; i < 1000; i++) {
            Digest v = cache.victim();
            if (v == null) {
                return;
            }
            ReentrantLock lock = lockFor(v);
            if (!lock.tryLock()) {
                return; // busy: the next operation evicts
            }
            try {
                cache.evict(v);
            } catch (IOException e) {
                return;
            } finally {
                lock.unlock();
            }
        }
    }

    @Override
    public String toString() {
        return "S3ChunkStore[" + objects.describe("") + "]";
    }
}
