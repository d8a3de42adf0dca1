package org.jpbs.client.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jpbs.client.progress.ProgressListener;
import org.jpbs.core.pxar.PxarDecoder;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.client.pxar.fs.NothingMatchedException;
import org.jpbs.client.pxar.fs.TreeExtractor;
import org.jpbs.client.restore.RestoreStats;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.index.IndexFile;

/**
 * Extracts a file archive ({@code docs/pxar.md#backup-and-restore}): the restore engine
 * writes the archive's byte stream in order (chunks fetched and verified in parallel) into a
 * bounded pipe on a second thread, while the {@link TreeExtractor} decodes it on the caller's
 * thread. A failure on either side stops the other; a failed chunk is reported rather than the
 * truncated stream it leaves. The pipe passes the engine's chunk arrays on without copying them
 * (the engine never writes to an array it has handed out; a copy of every multi-MiB chunk was
 * a third of a restore's CPU time, {@code docs/pxar.md#benchmark}), and the decoder buffers
 * for itself.
 */
final class TreeRestore {
    private static final byte[] EOF = new byte[0];

    private TreeRestore() {}

    /**
     * @param payload a split archive's payload stream (read at the metadata stream's references),
     *                or null for a unified archive
     */
    static RestoreStats extract(RestoreEngine engine, IndexFile index, ReadAt payload, CryptConfig key, Path target,
            TreeExtractor.Options options, Consumer<String> warnings, String resource, ProgressListener progress)
            throws IOException {
        Pipe pipe = new Pipe();
        CompletableFuture<RestoreStats> writer = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().name("jpbs-restore-" + resource).daemon().start(() -> {
            try (OutputStream out = pipe.out) {
                writer.complete(engine.restore(index, key, out, resource, progress));
            } catch (Throwable e) {
                writer.completeExceptionally(e);
            }
        });
        IOException extractFailure = null;
        TreeExtractor extractor = new TreeExtractor(options, warnings);
        try (InputStream in = pipe.in) {
            extractor.extract(new PxarDecoder(in), target, payload);
        } catch (IOException e) {
            extractFailure = e;
        }
        if (extractFailure == null && !options.patterns().isEmpty() && extractor.restored() == 0) {
            extractFailure = new NothingMatchedException(resource); // the stream was read to its end
        }
        try {
            RestoreStats stats = writer.get();
            if (extractFailure != null) {
                throw extractFailure;
            }
            return stats;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            t.interrupt();
            throw new InterruptedIOException("interrupted while restoring " + resource);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (extractFailure != null && c instanceof PipeClosedException) {
                throw extractFailure;
            }
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof RuntimeException r) {
                throw r;
            }
            throw new IOException(c.getMessage(), c);
        }
    }

    /** The reader stopped: the rest of the stream is not wanted. */
    private static final class PipeClosedException extends IOException {
        PipeClosedException() {
            super("restore stopped: the archive could not be extracted");
        }
    }

    /** A piece of the stream: {@code data[off, off + len)}, not copied. */
    private record Piece(byte[] data, int off, int len) {}

    private static final Piece END = new Piece(EOF, 0, 0);

    /**
     * A bounded byte pipe between one writer and one reader thread (writes may come from any
     * thread). A write hands its array over: the writer must not change it afterwards.
     */
    private static final class Pipe {
        private final BlockingQueue<Piece> queue = new ArrayBlockingQueue<>(8);
        private volatile boolean readerClosed;

        final OutputStream out = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (len > 0) {
                    put(new Piece(b, off, len));
                }
            }

            @Override
            public void close() throws IOException {
                put(END);
            }
        };

        private void put(Piece piece) throws IOException {
            try {
                while (!queue.offer(piece, 200, TimeUnit.MILLISECONDS)) {
                    if (readerClosed) {
                        throw new PipeClosedException();
                    }
                }
                if (readerClosed) {
                    queue.clear();
                    if (piece != END) {
                        throw new PipeClosedException();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted");
            }
        }

        final InputStream in = new InputStream() {
            private Piece cur = new Piece(EOF, 0, 0);
            private int pos;
            private boolean eof;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) {
                    return 0;
                }
                while (pos == cur.len) {
                    if (eof) {
                        return -1;
                    }
                    try {
                        cur = queue.take();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("interrupted");
                    }
                    pos = 0;
                    eof = cur == END;
                }
                int n = Math.min(len, cur.len - pos);
                System.arraycopy(cur.data, cur.off + pos, b, off, n);
                pos += n;
                return n;
            }

            @Override
            public void close() {
                readerClosed = true;
                queue.clear();
            }
        };
    }
}
