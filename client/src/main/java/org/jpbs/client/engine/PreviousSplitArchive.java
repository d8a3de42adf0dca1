package org.jpbs.client.engine;

import java.io.IOException;
import org.jpbs.client.pxar.fs.PreviousArchive;
import org.jpbs.client.pxar.fs.PreviousCursor;
import org.jpbs.core.index.IndexFile;

/**
 * The previous snapshot's split archive for {@code --change-detection-mode metadata}
 * ({@code docs/pxar.md#metadata-change-detection}): files are found in its metadata archive,
 * decoded once from front to back in step with the archiver's walk ({@link PreviousCursor}), and
 * reused payload ranges become whole chunks of its payload index injected into the new payload
 * stream. A range is reused only when the chunks' bytes outside it (padding) stay below
 * {@value #PADDING_THRESHOLD} of the chunks' size, as pxar does. A range starting in the chunk
 * the last reuse ended with, with nothing written since, shares that chunk.
 */
final class PreviousSplitArchive implements PreviousArchive {
    /** Largest share of padding in reused chunks (pxar's CHUNK_PADDING_THRESHOLD). */
    static final double PADDING_THRESHOLD = 0.1;

    private final PreviousCursor metadata;
    private final IndexFile payload;
    private final DynamicArchiveStream out;
    private int lastChunk = -1;
    private long lastChunkEnd = -1;
    private long padding;
    private long reusedChunks;

    /**
     * @param metadata the previous metadata archive ({@code NAME.mpxar.didx}), read in step with the walk
     * @param payload  the previous payload index ({@code NAME.ppxar.didx}); its chunks must be
     *                 known to the new payload stream's target
     * @param out      the new payload stream
     */
    PreviousSplitArchive(PreviousCursor metadata, IndexFile payload, DynamicArchiveStream out) {
        this.metadata = metadata;
        this.payload = payload;
        this.out = out;
    }

    @Override
    public File file(byte[] path) throws IOException {
        return metadata.file(path);
    }

    @Override
    public Placement reuse(long start, long end, boolean continued) throws IOException {
        if (start < 0 || end <= start || end > payload.size()) {
            return null; // a reference outside the previous payload: read the files again
        }
        int first = payload.findChunk(start);
        int last = payload.findChunk(end - 1);
        boolean shared = first == lastChunk && out.position() == lastChunkEnd;
        int from = shared ? first + 1 : first;
        long firstChunkAt = shared ? lastChunkEnd - payload.chunkLength(first) : -1;
        if (from > last) {
            return new Placement(firstChunkAt + (start - payload.chunkStart(first)), 0);
        }
        long injected = payload.chunkEnd(last) - payload.chunkStart(from);
        long pad = (continued ? 0 : payload.chunkEnd(last) - end) + (shared ? 0 : start - payload.chunkStart(first));
        if (pad >= PADDING_THRESHOLD * injected) {
            return null;
        }
        long at = out.inject(payload, from, last + 1);
        if (!shared) {
            firstChunkAt = at;
        }
        padding += pad;
        reusedChunks += last + 1 - from;
        lastChunk = last;
        lastChunkEnd = out.position();
        return new Placement(firstChunkAt + (start - payload.chunkStart(first)), injected);
    }

    /** Bytes of reused chunks that belong to no reused file. */
    long padding() {
        return padding;
    }

    /** Chunks taken over from the previous payload. */
    long reusedChunks() {
        return reusedChunks;
    }
}
