package org.jpbs.core.chunker;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * An {@link OutputStream} that cuts what is written into chunks with a {@link Chunker} and
 * hands each finished chunk to a {@link ChunkConsumer}: the producer of a dynamic archive (a
 * pxar stream, a catalog) writes its bytes here and the consumer hashes, stores and indexes
 * the chunks ({@code docs/formats.md#chunker-for-dynamic-archives}). {@link #close()} emits the
 * rest as the final chunk. The cuts do not depend on how the writes are split.
 */
public final class ChunkingOutputStream extends OutputStream {
    /** Receives the chunks in stream order. */
    @FunctionalInterface
    public interface ChunkConsumer {
        /**
         * One chunk: {@code data[0, len)}, ending at stream offset {@code end}. The array is
         * reused once this returns: keep a copy if the chunk is processed later.
         */
        void chunk(byte[] data, int len, long end) throws IOException;
    }

    private final Chunker chunker;
    private final ChunkConsumer consumer;
    private byte[] buf;
    private int fill;
    private long offset;
    private boolean closed;

    /**
     * @param chunker  the chunker (its maximum chunk size bounds the buffer)
     * @param maxChunk the largest chunk the chunker can cut (e.g. avg*4 for buzhash)
     */
    public ChunkingOutputStream(Chunker chunker, int maxChunk, ChunkConsumer consumer) {
        this.chunker = Objects.requireNonNull(chunker, "chunker");
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.buf = new byte[Math.min(maxChunk, 1 << 20)];
    }

    /** For the PBS buzhash chunker of average size {@code avg}. */
    public static ChunkingOutputStream buzhash(int avg, ChunkConsumer consumer) {
        BuzhashChunker c = new BuzhashChunker(avg);
        return new ChunkingOutputStream(c, c.maxSize(), consumer);
    }

    /** Bytes written so far. */
    public long position() {
        return offset + fill;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException("chunking stream closed");
        }
        while (len > 0) {
            int cut = chunker.scan(b, off, len);
            int take = cut == 0 ? len : cut;
            append(b, off, take);
            off += take;
            len -= take;
            if (cut > 0) {
                emit();
            }
        }
    }

    private void append(byte[] b, int off, int len) {
        if (buf.length - fill < len) {
            buf = java.util.Arrays.copyOf(buf, Math.max(fill + len, buf.length * 2));
        }
        System.arraycopy(b, off, buf, fill, len);
        fill += len;
    }

    private void emit() throws IOException {
        offset += fill;
        int len = fill;
        fill = 0;
        consumer.chunk(buf, len, offset);
    }

    /**
     * Ends the current chunk here, whatever the chunker says (nothing if no byte is pending),
     * and starts the chunker afresh: the next byte begins a new chunk. Used before chunks that
     * are reused as they are (a split archive's payload, {@code docs/pxar.md#split-archives}).
     */
    public void cut() throws IOException {
        if (closed) {
            throw new IOException("chunking stream closed");
        }
        chunker.reset();
        if (fill > 0) {
            emit();
        }
    }

    /** Emits the bytes after the last cut as the final chunk (nothing for an empty stream). */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            if (fill > 0) {
                emit();
            }
        }
    }
}
