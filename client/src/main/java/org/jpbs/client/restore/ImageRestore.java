package org.jpbs.client.restore;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import org.jpbs.core.ChunkSource;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.index.IndexFile;

/**
 * Restores the byte stream an index describes (a disk image for a fixed index, the
 * concatenated chunk stream, e.g. a pxar archive, for a dynamic index) from a synchronous
 * {@link ChunkSource} such as a local chunk store.
 *
 * <p>A pool of {@code workers} threads reads and decodes chunks ({@link ChunkSource#readChunk}),
 * at most {@code window} at a time (default {@code 2 * workers + 2}). Every decoded chunk is
 * checked: its length must equal the index's chunk length and, if {@code verify} is on
 * (default), its SHA-256 (with a key: SHA-256(data ‖ id_key)) must equal its digest ({@code docs/formats.md#chunks-and-digests}) — otherwise a {@link CorruptDataException} naming the chunk.
 *
 * <p>Two kinds of target:
 * <ul>
 * <li>a {@link FileChannel} (regular file, block device): each chunk is written at its offset
 *     with positional writes as soon as it is decoded (out of order). With {@code sparse} on,
 *     zero chunks are not written at all: the caller must give a target that already reads as
 *     zeros there and has the final length (a fresh file extended to the size);</li>
 * <li>an {@link OutputStream} (stdout, a pipe): read in parallel, written strictly in order;
 *     {@code sparse} has no effect.</li>
 * </ul>
 * Zero chunks of a fixed index are recognised by their digest and are never read. Progress
 * counts the plaintext bytes of finished chunks. The loop is {@link RestoreRun}'s, shared with
 * {@link PipelinedRestore}.
 */
public final class ImageRestore extends RestoreSettings<ImageRestore> {
    private int window = -1;

    /** Creates an engine with the defaults. */
    public ImageRestore() {}

    /** Chunks in flight, at least 1 (default {@code 2 * workers + 2}). */
    public ImageRestore window(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + n);
        }
        this.window = n;
        return this;
    }

    /** The effective window. */
    public int window() {
        return window > 0 ? window : 2 * workers + 2;
    }

    /**
     * Restores into a channel with positional writes (the channel position is not used).
     *
     * @param index    the index to restore
     * @param source   where chunks come from
     * @param target   a writable channel; for {@code sparse}, pre-sized and reading as zeros
     * @param resource name of the archive for error messages (e.g. {@code disk.img.fidx})
     * @throws CorruptDataException if a chunk has the wrong length or content
     * @throws IOException if reading or writing fails (e.g. {@code MissingChunkException},
     *         {@code EncryptedDataException})
     */
    public RestoreStats restore(IndexFile index, ChunkSource source, FileChannel target, String resource)
            throws IOException {
        RestoreRun run = newRun(index, resource);
        return run.toChannel(loader(run, source), window(), sparse, target);
    }

    /**
     * Restores into a stream, strictly in order, reading up to {@code window} chunks ahead.
     * The stream is flushed, not closed.
     *
     * @throws CorruptDataException if a chunk has the wrong length or content
     * @throws IOException if reading or writing fails
     */
    public RestoreStats restore(IndexFile index, ChunkSource source, OutputStream out, String resource)
            throws IOException {
        RestoreRun run = newRun(index, resource);
        return run.toStream(loader(run, source), window(), out);
    }

    /**
     * Restores to a consumer: each chunk is handed over as soon as it is decoded, out of order,
     * from the worker threads; zero chunks as {@code null}.
     *
     * @throws CorruptDataException if a chunk has the wrong length or content
     * @throws IOException if reading or the consumer fails
     */
    public RestoreStats restore(IndexFile index, ChunkSource source, ChunkConsumer consumer, String resource)
            throws IOException {
        RestoreRun run = newRun(index, resource);
        return run.toConsumer(loader(run, source), window(), consumer);
    }

    private static RestoreRun.Loader loader(RestoreRun run, ChunkSource source) {
        return i -> CompletableFuture.supplyAsync(() -> run.checkedOrThrow(i,
                () -> source.readChunk(run.index.digest(i), run.index.chunkLength(i), run.crypt())), run.pool);
    }
}
