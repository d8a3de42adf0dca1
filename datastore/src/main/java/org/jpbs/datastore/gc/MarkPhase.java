package org.jpbs.datastore.gc;

import org.jpbs.datastore.chunks.ChunkStore;
import org.jpbs.datastore.chunks.DirectoryChunkStore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.DigestScan;
import org.jpbs.datastore.snapshot.WriterReferences;
import org.jpbs.datastore.tuning.ChunkOrder;
import org.jpbs.datastore.tuning.Tuning;

/**
 * Phase 1 of garbage collection, mark ({@code docs/gc.md#garbage-collection}): lists every
 * index file by a walk of the tree, then marks namespace by namespace, group by group,
 * snapshots newest first, reading each index file and handing its entries to the
 * {@link TouchPool}, whose threads touch every digest the {@link DigestCache} has not seen in
 * this run; then the index files found outside the expected layout; then the chunks that
 * running writers of this JVM reference ({@link WriterReferences}). If a group's newest
 * snapshot vanishes while it is marked (a prune racing with a new backup, PSA-2025-00019), the
 * group is listed and marked again, up to {@value #MAX_GROUP_RESTARTS} times. A snapshot that
 * vanishes otherwise is skipped. With {@link ChunkOrder#INODE} the digests each thread claims
 * from a slice are sorted (chunk directory by chunk directory) before they are touched.
 */
final class MarkPhase {
    static final int MAX_GROUP_RESTARTS = 10;

    /** Counters of one mark phase. */
    record Result(long indexFiles, long indexDataBytes, long indexEntries, long cacheHits, long cacheMisses,
                  long touches, long missing, long strange, List<Path> tempDirs, List<BackupGroupRef> emptyGroups) {}

    private final GcFs fs;
    private final Path root;
    private final IndexTree tree;
    private final Tuning tuning;
    private final GcListener listener;
    private final DigestCache cache;
    private final Set<Path> counted = new HashSet<>();
    private final List<Path> tempDirs = new ArrayList<>();
    private final List<BackupGroupRef> emptyGroups = new ArrayList<>();
    private Set<Path> walked;
    private TouchPool pool;
    private long indexDataBytes;
    private long entries;
    private long strange;

    private final ChunkStore store;

    /**
     * @param store the datastore's chunks: a {@link DirectoryChunkStore} is marked through
     *              {@code fs} (atime updates, the fast path), any other store through
     *              {@link ChunkStore#touch}
     */
    MarkPhase(GcFs fs, Path root, ChunkStore store, Tuning tuning, GcListener listener) {
        this.fs = fs;
        this.store = store;
        this.root = root;
        this.tree = new IndexTree(fs, root);
        this.tuning = tuning;
        this.listener = listener;
        this.cache = new DigestCache(tuning.gcCacheCapacity());
    }

    Result run(WriterReferences.Epoch epoch) throws IOException {
        walked = tree.walkAll();
        long total = walked.size();
        listener.info("found " + total + " index files");
        Path chunksDir = root.resolve(".chunks");
        pool = store instanceof DirectoryChunkStore
                ? new TouchPool(fs, () -> fs.openMarker(chunksDir), chunksDir, tuning.threads(), cache,
                        tuning.chunkOrder() == ChunkOrder.INODE, listener)
                : new TouchPool(fs, () -> new StoreMarker(store), null, tuning.threads(), cache, false, listener);
        try {
            for (BackupNamespace ns : tree.namespaces()) {
                for (BackupGroupRef g : tree.groups(ns)) {
                    markGroup(g, total);
                }
            }
            List<Path> rest = new ArrayList<>(walked);
            for (Path p : rest) {
                if (markIndex(p)) {
                    strange++;
                    listener.warning("found index file outside of the expected directory scheme: " + p);
                }
                listener.progress(GcListener.Phase.MARK, counted.size(), total);
            }
            if (strange > 0) {
                listener.warning("found (and marked) " + strange + " index files outside of expected directory scheme");
            }
            for (WriterReferences.Referenced r : epoch.referenced()) {
                Path from = root.resolve(r.snapshot().relativePath() + " (backup in progress)");
                for (Collection<Digest> c : r.digests()) {
                    List<Digest> batch = new ArrayList<>(TouchPool.SLICE);
                    for (Digest d : c) {
                        batch.add(d);
                        if (batch.size() == TouchPool.SLICE) {
                            pool.submit(new TouchPool.Refs(batch, from));
                            entries += batch.size();
                            batch = new ArrayList<>(TouchPool.SLICE);
                        }
                    }
                    entries += batch.size();
                    pool.submit(new TouchPool.Refs(batch, from));
                }
            }
            pool.finish();
        } catch (IOException | RuntimeException | Error e) {
            pool.abort();
            throw e;
        }
        return new Result(counted.size(), indexDataBytes, entries, cache.hits(), cache.misses(), pool.calls(),
                pool.missing(), strange, List.copyOf(tempDirs), List.copyOf(emptyGroups));
    }

    private void markGroup(BackupGroupRef g, long total) throws IOException {
        for (int attempt = 0; ; attempt++) {
            IndexTree.GroupListing listing = tree.group(g);
            listener.groupListed(g, attempt);
            if (markSnapshots(listing.snapshotsNewestFirst(), total)) {
                tempDirs.addAll(listing.tempDirs());
                if (listing.snapshotsNewestFirst().isEmpty()) {
                    emptyGroups.add(g); // left by a killed first backup? checked under its lock later
                }
                return;
            }
            if (attempt >= MAX_GROUP_RESTARTS) {
                throw new IOException("cannot mark group " + g + ": its newest snapshot vanished "
                        + (attempt + 1) + " times while it was marked; aborting garbage collection");
            }
            listener.info("newest snapshot of group " + g + " vanished while marking, listing the group again");
        }
    }

    /** Marks the snapshots; false if the newest vanished (restart the group). */
    private boolean markSnapshots(List<BackupSnapshotRef> newestFirst, long total) throws IOException {
        for (int i = 0; i < newestFirst.size(); i++) {
            BackupSnapshotRef s = newestFirst.get(i);
            List<Path> files;
            try {
                files = tree.indexFiles(s);
            } catch (NoSuchFileException e) {
                if (i == 0) {
                    return false;
                }
                listener.info("snapshot " + s + " vanished while marking, skipped");
                continue;
            }
            for (Path p : files) {
                boolean found = markIndex(p);
                listener.progress(GcListener.Phase.MARK, counted.size(), total);
                if (!found) {
                    if (i == 0) {
                        return false;
                    }
                    listener.info("snapshot " + s + " vanished while marking, skipped");
                    break;
                }
            }
        }
        return true;
    }

    /** Reads an index and queues its digests; false if it vanished. */
    private boolean markIndex(Path p) throws IOException {
        byte[] data;
        try {
            data = fs.readFile(p);
        } catch (NoSuchFileException e) {
            walked.remove(p);
            return false;
        } catch (AccessDeniedException e) {
            throw IndexTree.permissionDenied(p, e);
        }
        if (!walked.remove(p) && !counted.contains(p)) {
            listener.info("encountered new index file '" + p + "', increment total index file count");
        }
        DigestScan idx;
        try {
            idx = p.getFileName().toString().endsWith(".fidx")
                    ? DigestScan.fixed(ByteBuffer.wrap(data), p.toString())
                    : DigestScan.dynamic(ByteBuffer.wrap(data), p.toString());
        } catch (CorruptDataException e) {
            throw new IOException("cannot mark the chunks of index " + p + ": " + e.getMessage()
                    + "; aborting garbage collection", e);
        }
        if (counted.add(p)) {
            indexDataBytes += idx.size();
        }
        entries += idx.count();
        pool.submitIndex(idx, p);
        return true;
    }
}
