package org.jpbs.client.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.client.pxar.fs.PreviousArchive;
import org.jpbs.core.index.IndexFile;

/**
 * The previous snapshot's split archive for {@code --change-detection-mode metadata}
 * ({@code docs/pxar.md#metadata-change-detection}): files are looked up in its metadata archive
 * (random access through the goodbye tables; each directory listed once, as the archiver reaches it), and
 * reused payload ranges become whole chunks of its payload index injected into the new payload
 * stream. A range is reused only when the chunks' bytes outside it (padding) stay below
 * {@value #PADDING_THRESHOLD} of the chunks' size, as pxar does. A range starting in the chunk
 * the last reuse ended with, with nothing written since, shares that chunk.
 */
final class PreviousSplitArchive implements PreviousArchive {
    /** Largest share of padding in reused chunks (pxar's CHUNK_PADDING_THRESHOLD). */
    static final double PADDING_THRESHOLD = 0.1;

    private final PxarAccessor metadata;
    private final IndexFile payload;
    private final DynamicArchiveStream out;
    private final ArrayDeque<Dir> dirs = new ArrayDeque<>();
    private int lastChunk = -1;
    private long lastChunkEnd = -1;
    private long padding;
    private long reusedChunks;

    /**
     * @param metadata the previous metadata archive ({@code NAME.mpxar.didx})
     * @param payload  the previous payload index ({@code NAME.ppxar.didx}); its chunks must be
     *                 known to the new payload stream's target
     * @param out      the new payload stream
     */
    PreviousSplitArchive(PxarAccessor metadata, IndexFile payload, DynamicArchiveStream out) {
        this.metadata = metadata;
        this.payload = payload;
        this.out = out;
    }

    @Override
    public File file(byte[] path) throws IOException {
        int slash = lastSlash(path);
        Map<ByteBuffer, PxarAccessor.Node> children = directory(slash < 0 ? new byte[0] : Arrays.copyOf(path, slash));
        PxarAccessor.Node n = children.get(ByteBuffer.wrap(Arrays.copyOfRange(path, slash + 1, path.length)));
        if (n == null || n.entry().kind() != PxarEntry.Kind.FILE || !n.entry().hasPayloadRef()) {
            return null;
        }
        return new File(n.entry().metadata(), n.entry().fileSize(), n.entry().payloadRef());
    }

    /**
     * The children of the previous archive's directory {@code path} by name (empty if it is none).
     * The archiver walks depth first, so the listed directories are kept as a stack: the
     * ancestors of the current one; each directory is listed once.
     */
    private Map<ByteBuffer, PxarAccessor.Node> directory(byte[] path) throws IOException {
        while (!dirs.isEmpty() && !isPrefix(dirs.peek().path(), path)) {
            dirs.pop();
        }
        if (!dirs.isEmpty() && Arrays.equals(dirs.peek().path(), path)) {
            return dirs.peek().children();
        }
        PxarAccessor.Node n;
        if (!dirs.isEmpty() && lastSlash(path) == dirs.peek().path().length - (dirs.peek().path().length == 0 ? 1 : 0)
                && dirs.peek().node() != null) {
            n = dirs.peek().children().get(ByteBuffer.wrap(Arrays.copyOfRange(path, lastSlash(path) + 1, path.length)));
        } else {
            n = metadata.lookup(path);
        }
        Map<ByteBuffer, PxarAccessor.Node> children = new HashMap<>();
        if (n != null && n.isDirectory()) {
            for (PxarAccessor.Node c : metadata.list(n)) {
                children.put(ByteBuffer.wrap(c.entry().name()), c);
            }
        } else {
            n = null;
        }
        dirs.push(new Dir(path, n, children));
        return children;
    }

    /** A listed directory of the previous archive. */
    private record Dir(byte[] path, PxarAccessor.Node node, Map<ByteBuffer, PxarAccessor.Node> children) {}

    private static int lastSlash(byte[] path) {
        int i = path.length - 1;
        while (i >= 0 && path[i] != '/') {
            i--;
        }
        return i;
    }

    /** True if {@code dir} is {@code path} or one of its ancestors (the root, "", is everyone's). */
    private static boolean isPrefix(byte[] dir, byte[] path) {
        if (dir.length == 0) {
            return true;
        }
        return path.length >= dir.length && Arrays.equals(path, 0, dir.length, dir, 0, dir.length)
                && (path.length == dir.length || path[dir.length] == '/');
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
