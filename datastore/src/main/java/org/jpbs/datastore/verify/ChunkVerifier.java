package org.jpbs.datastore.verify;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.MissingChunkException;
import org.jpbs.core.index.IndexFile;
import org.jpbs.datastore.chunks.ChunkStore;

/**
 * Checks the chunks of one index ({@code docs/gc.md#verify}): each distinct digest
 * once per run (shared "verified" and "corrupt" sets), read by the pool's threads, in inode
 * order if asked (chunks that cannot be stat-ed go last). A chunk must load as a blob with a
 * correct CRC; its crypt mode must match the archive's (a mismatch is an error but the chunk is
 * not renamed); an unencrypted chunk must decompress to the index's chunk length and hash to
 * its name. A corrupt chunk is renamed to {@code <digest>.<n>.bad}.
 */
final class ChunkVerifier {
    /** Per-snapshot counters, updated by the pool's threads. */
    static final class Counts {
        final AtomicLong chunks = new AtomicLong();
        final AtomicLong bytesRead = new AtomicLong();
        final AtomicLong bytesDecoded = new AtomicLong();
    }

    private final ChunkStore store;
    private final ExecutorService pool;
    private final boolean inodeOrder;
    private final Set<Digest> verified = ConcurrentHashMap.newKeySet();
    private final Set<Digest> corrupt = ConcurrentHashMap.newKeySet();

    ChunkVerifier(ChunkStore store, ExecutorService pool, boolean inodeOrder) {
        this.store = store;
        this.pool = pool;
        this.inodeOrder = inodeOrder;
    }

    List<VerifyProblem> verify(BackupSnapshotRef ref, String archive, IndexFile idx, boolean encrypted, Counts counts)
            throws IOException {
        Map<Digest, Integer> todo = new LinkedHashMap<>();
        List<VerifyProblem> problems = new ArrayList<>();
        for (int i = 0; i < idx.chunkCount(); i++) {
            Digest d = idx.digest(i);
            if (verified.contains(d) || todo.containsKey(d)) {
                continue;
            }
            if (corrupt.contains(d)) {
                problems.add(new VerifyProblem(ref, archive, d, VerifyProblem.Kind.CHUNK_MARKED_CORRUPT,
                        "chunk " + d.hex() + " was marked as corrupt"));
                continue;
            }
            todo.put(d, idx.chunkLength(i));
        }
        List<Digest> order = new ArrayList<>(todo.keySet());
        if (inodeOrder) {
            Map<Digest, Long> inode = new java.util.HashMap<>();
            for (Digest d : order) {
                inode.put(d, store.readOrder(d));
            }
            order.sort(Comparator.comparingLong(inode::get));
        }
        List<Future<VerifyProblem>> results = new ArrayList<>();
        for (Digest d : order) {
            int len = todo.get(d);
            results.add(pool.submit(() -> check(ref, archive, d, len, encrypted, counts)));
        }
        for (Future<VerifyProblem> f : results) {
            try {
                VerifyProblem p = f.get();
                if (p != null) {
                    problems.add(p);
                }
            } catch (ExecutionException e) {
                throw new IOException("verifying " + ref + "/" + archive + " failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("verify interrupted");
            }
        }
        return problems;
    }

    /** Checks one chunk; returns the problem or null if good. */
    private VerifyProblem check(BackupSnapshotRef ref, String archive, Digest d, int len, boolean encrypted,
                                Counts counts) throws IOException {
        counts.chunks.incrementAndGet();
        DataBlob blob;
        try {
            blob = store.read(d);
            counts.bytesRead.addAndGet(blob.rawLength());
            blob.verifyCrc(store.location(d));
        } catch (MissingChunkException e) {
            corrupt.add(d);
            return new VerifyProblem(ref, archive, d, VerifyProblem.Kind.CHUNK_MISSING,
                    "can't verify chunk, load failed - chunk " + d.hex() + " is missing");
        } catch (CorruptDataException e) {
            return corruptChunk(ref, archive, d, "can't verify chunk, load failed - " + e.getMessage());
        }
        if (blob.isEncrypted() != encrypted) {
            return new VerifyProblem(ref, archive, d, VerifyProblem.Kind.CRYPT_MODE, "chunk " + d.hex() + " is "
                    + (blob.isEncrypted() ? "encrypted" : "not encrypted") + ", but archive " + archive + " is "
                    + (encrypted ? "encrypted" : "not encrypted"));
        }
        if (!encrypted) {
            byte[] plain;
            try {
                plain = blob.decode(store.location(d), len);
            } catch (CorruptDataException e) {
                return corruptChunk(ref, archive, d, "chunk " + d.hex() + " does not decode: " + e.getMessage());
            }
            counts.bytesDecoded.addAndGet(plain.length);
            Digest actual = Digest.sha256(plain);
            if (!actual.equals(d)) {
                return corruptChunk(ref, archive, d, "wrong digest of chunk " + d.hex() + " (content hashes to "
                        + actual.hex() + ")");
            }
        }
        verified.add(d);
        return null;
    }

    private VerifyProblem corruptChunk(BackupSnapshotRef ref, String archive, Digest d, String why) throws IOException {
        corrupt.add(d);
        String renamed = store.renameCorrupt(d).map(n -> "; renamed to " + n).orElse("");
        return new VerifyProblem(ref, archive, d, VerifyProblem.Kind.CHUNK_CORRUPT, why + renamed);
    }
}
