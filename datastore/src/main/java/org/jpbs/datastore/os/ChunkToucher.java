package org.jpbs.datastore.os;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.jpbs.core.digest.Digest;

/**
 * Touches chunk files (atime = now, mtime unchanged: {@code utimensat} with
 * {@code UTIME_NOW}/{@code UTIME_OMIT}, {@code docs/gc.md#garbage-collection}) as fast as the
 * kernel allows: one descriptor of {@code .chunks} is opened once and each call passes the
 * relative name {@code XXXX/<64 hex>}, written into a reused native buffer, so there is no
 * allocation and no path walk from the root per chunk. Falls back to
 * {@link FileTimes#touchAtime} without native access.
 *
 * <p>Confined to one thread (each marking thread opens its own). Counts its
 * {@code utimensat} calls.
 */
public final class ChunkToucher implements AutoCloseable {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final Path chunksDir;
    private final Arena arena;
    private final int fd;
    private final MemorySegment capture;
    private final MemorySegment times;
    private final MemorySegment name;
    private final ByteBuffer digestBytes = ByteBuffer.allocate(Digest.LENGTH);
    private long calls;
    private boolean closed;

    private ChunkToucher(Path chunksDir, Arena arena, int fd) {
        this.chunksDir = chunksDir;
        this.arena = arena;
        this.fd = fd;
        if (arena != null) {
            capture = Native.captureSegment(arena);
            times = arena.allocate(ValueLayout.JAVA_LONG, 4);
            times.setAtIndex(ValueLayout.JAVA_LONG, 0, 0);
            times.setAtIndex(ValueLayout.JAVA_LONG, 1, Native.UTIME_NOW);
            times.setAtIndex(ValueLayout.JAVA_LONG, 2, 0);
            times.setAtIndex(ValueLayout.JAVA_LONG, 3, Native.UTIME_OMIT);
            name = arena.allocate(4 + 1 + 64 + 8 + 1); // XXXX/<hex>[.N.bad]\0
        } else {
            capture = null;
            times = null;
            name = null;
        }
    }

    /**
     * Opens the chunk directory {@code <datastore>/.chunks} for touching.
     *
     * @throws IOException if it cannot be opened (message names it)
     */
    public static ChunkToucher open(Path chunksDir) throws IOException {
        if (!Native.AVAILABLE) {
            return new ChunkToucher(chunksDir, null, -1);
        }
        int fd = Native.open(chunksDir, Native.O_RDONLY_CLOEXEC | Native.oDirectory());
        return new ChunkToucher(chunksDir, Arena.ofConfined(), fd);
    }

    /**
     * Touches the chunk file of {@code digest}.
     *
     * @return true if it exists, false if not
     * @throws IOException on errors other than "no such file" (e.g. permission denied)
     */
    public boolean touch(Digest digest) throws IOException {
        return touch(digest, -1);
    }

    /**
     * Touches {@code <digest>.<n>.bad} (a renamed corrupt copy, {@code docs/gc.md#errors}).
     *
     * @param n 0..9
     * @return true if it exists
     */
    public boolean touchBad(Digest digest, int n) throws IOException {
        if (n < 0 || n > 9) {
            throw new IllegalArgumentException("bad chunk number must be 0..9, got " + n);
        }
        return touch(digest, n);
    }

    private boolean touch(Digest digest, int bad) throws IOException {
        calls++;
        if (arena == null) {
            String file = digest.hex() + (bad >= 0 ? "." + bad + ".bad" : "");
            try {
                FileTimes.touchAtime(chunksDir.resolve(digest.prefix()).resolve(file));
                return true;
            } catch (NoSuchFileException e) {
                return false;
            }
        }
        digestBytes.clear();
        digest.writeTo(digestBytes);
        byte[] d = digestBytes.array();
        long at = 0;
        for (int i = 0; i < 2; i++) {
            name.set(ValueLayout.JAVA_BYTE, at++, HEX[(d[i] >> 4) & 0xf]);
            name.set(ValueLayout.JAVA_BYTE, at++, HEX[d[i] & 0xf]);
        }
        name.set(ValueLayout.JAVA_BYTE, at++, (byte) '/');
        for (int i = 0; i < Digest.LENGTH; i++) {
            name.set(ValueLayout.JAVA_BYTE, at++, HEX[(d[i] >> 4) & 0xf]);
            name.set(ValueLayout.JAVA_BYTE, at++, HEX[d[i] & 0xf]);
        }
        if (bad >= 0) {
            name.set(ValueLayout.JAVA_BYTE, at++, (byte) '.');
            name.set(ValueLayout.JAVA_BYTE, at++, (byte) ('0' + bad));
            for (byte c : new byte[] {'.', 'b', 'a', 'd'}) {
                name.set(ValueLayout.JAVA_BYTE, at++, c);
            }
        }
        name.set(ValueLayout.JAVA_BYTE, at, (byte) 0);
        int rc;
        try {
            rc = (int) Native.UTIMENSAT.invokeExact(capture, fd, name, times, 0);
        } catch (Throwable t) {
            throw new IOException(chunksDir + ": utimensat call failed: " + t, t);
        }
        if (rc == 0) {
            return true;
        }
        int errno = Native.errno(capture);
        if (errno == 2) {
            return false;
        }
        throw Native.error("utimensat", chunksDir.resolve(name.getString(0)), errno);
    }

    /** Number of {@code utimensat} (or fallback) calls made so far. */
    public long calls() {
        return calls;
    }

    /** Closes the directory descriptor. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (arena != null) {
            try {
                int ignored = (int) Native.CLOSE.invokeExact(fd);
            } catch (Throwable t) {
                // the descriptor is gone either way
            } finally {
                arena.close();
            }
        }
    }
}
