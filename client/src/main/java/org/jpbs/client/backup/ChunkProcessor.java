package org.jpbs.client.backup;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.jpbs.core.snapshot.ChunkSink;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.blob.EncodedChunk;
import org.jpbs.core.blob.ZeroChunks;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;

/**
 * What a backup does with one chunk of plaintext ({@code docs/formats.md#chunks-and-digests}): an all-zero
 * chunk gets the constant zero digest and its blob is stored at most once per length and run;
 * any other chunk is hashed (SHA-256), only registered if the sink knows it, else compressed
 * (zstd, kept only if smaller) and inserted. With a key, digests are keyed (SHA-256 of data and
 * id_key) and blobs encrypted, the zero chunk included ({@code docs/formats.md#datablob}, {@code docs/formats.md#chunks-and-digests}). Counts every class for
 * {@link BackupStats}.
 *
 * <p>Thread-safe: {@link #process} may be called from many worker threads at once. Used by
 * {@link ImageBackup} and by engines that assemble chunks themselves (e.g. a VMA import).
 */
public final class ChunkProcessor {
    private final ChunkSink sink;
    private final boolean compress;
    private final CryptConfig crypt;
    private final Set<Integer> zeroSeen = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<Integer, Digest> zeroDigests = new ConcurrentHashMap<>();
    private final LongAdder newChunks = new LongAdder();
    private final LongAdder newBytes = new LongAdder();
    private final LongAdder reusedChunks = new LongAdder();
    private final LongAdder reusedBytes = new LongAdder();
    private final LongAdder zeroChunks = new LongAdder();
    private final LongAdder zeroBytes = new LongAdder();
    private final LongAdder storedBytes = new LongAdder();
    private final LongAdder storedChunks = new LongAdder();

    /**
     * @param sink     where chunks go
     * @param compress whether new chunks are zstd-compressed
     */
    public ChunkProcessor(ChunkSink sink, boolean compress) {
        this(sink, compress, null);
    }

    /**
     * @param sink     where chunks go
     * @param compress whether new chunks are zstd-compressed
     * @param crypt    the key to encrypt chunks with, or null for plain chunks
     */
    public ChunkProcessor(ChunkSink sink, boolean compress, CryptConfig crypt) {
        this.sink = sink;
        this.compress = compress;
        this.crypt = crypt;
    }

    /**
     * Stores (or reuses) the chunk {@code data[0, len)} and returns its digest.
     *
     * @throws IOException if the sink fails
     */
    public Digest process(byte[] data, int len) throws IOException {
        if (ZeroChunks.isZero(data, 0, len)) {
            Digest d = crypt == null ? ZeroChunks.digest(len)
                    : zeroDigests.computeIfAbsent(len, n -> crypt.computeDigest(data, 0, n));
            zeroChunks.increment();
            zeroBytes.add(len);
            if (zeroSeen.add(len)) {
                if (sink.isKnown(d)) {
                    sink.reuse(d);
                } else {
                    EncodedChunk chunk = new EncodedChunk(d, crypt == null ? ZeroChunks.blob(len)
                            : DataBlob.encodeEncrypted(data, 0, len, compress, crypt), len);
                    if (sink.insert(chunk)) {
                        storedChunks.increment();
                        storedBytes.add(chunk.blob().rawLength());
                    }
                }
            }
            return d;
        }
        Digest d = EncodedChunk.digest(data, 0, len, crypt);
        if (sink.isKnown(d)) {
            sink.reuse(d);
            reusedChunks.increment();
            reusedBytes.add(len);
            return d;
        }
        DataBlob blob = DataBlob.encode(data, 0, len, compress, crypt);
        if (sink.insert(new EncodedChunk(d, blob, len))) {
            newChunks.increment();
            newBytes.add(len);
            storedChunks.increment();
            storedBytes.add(blob.rawLength());
        } else {
            reusedChunks.increment();
            reusedBytes.add(len);
        }
        return d;
    }

    /** Chunks this processor stored as new on the sink (the zero chunk's blob included). */
    public long storedChunks() {
        return storedChunks.sum();
    }

    /** Encoded bytes of {@link #storedChunks()}. */
    public long storedBytes() {
        return storedBytes.sum();
    }

    /**
     * Registers a chunk taken over as it is from the previous snapshot (a split archive's
     * reused payload, {@code docs/pxar.md#split-archives}) and counts it as reused.
     *
     * @throws IOException if the target does not know the chunk or cannot register it
     */
    public void reuseKnown(Digest d, int len) throws IOException {
        if (!sink.isKnown(d)) {
            throw new IOException("chunk " + d.hex() + " of the previous snapshot is not known to the target");
        }
        sink.reuse(d);
        reusedChunks.increment();
        reusedBytes.add(len);
    }

    /**
     * The counters so far as a {@link BackupStats}.
     *
     * @param size   image size in bytes
     * @param chunks chunks in the index
     * @param nanos  duration in nanoseconds
     */
    public BackupStats stats(long size, int chunks, long nanos) {
        return new BackupStats(size, chunks, newChunks.sum(), newBytes.sum(), reusedChunks.sum(),
                reusedBytes.sum(), zeroChunks.sum(), zeroBytes.sum(), storedBytes.sum(), nanos);
    }
}
