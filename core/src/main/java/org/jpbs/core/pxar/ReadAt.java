package org.jpbs.core.pxar;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Positional reads of an archive (a file, an in-memory copy, or the chunks of a dynamic index
 * fetched on demand): what {@link PxarAccessor} needs for random access.
 */
public interface ReadAt {
    /** The archive's length in bytes. */
    long size() throws IOException;

    /**
     * Reads up to {@code len} bytes at {@code pos} into {@code b[off..]}.
     *
     * @return bytes read, at least 1 unless {@code pos >= size()} (then -1)
     */
    int read(long pos, byte[] b, int off, int len) throws IOException;

    /** Reads exactly {@code len} bytes at {@code pos}. */
    default byte[] readFully(long pos, int len) throws IOException {
        byte[] b = new byte[len];
        int done = 0;
        while (done < len) {
            int r = read(pos + done, b, done, len - done);
            if (r < 0) {
                throw new java.io.EOFException("pxar archive: unexpected end at byte " + (pos + done));
            }
            done += r;
        }
        return b;
    }

    /** A stream of the bytes from {@code pos} to the end. */
    default InputStream streamFrom(long pos) {
        return streamFrom(pos, -1);
    }

    /**
     * A stream of {@code length} bytes from {@code pos} ({@code -1}: to the end); the source
     * ending earlier is an {@link java.io.EOFException}.
     */
    default InputStream streamFrom(long pos, long length) {
        ReadAt src = this;
        return new InputStream() {
            private long p = pos;
            private long left = length;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0 || left == 0) {
                    return left == 0 ? -1 : 0;
                }
                int r = src.read(p, b, off, left < 0 ? len : (int) Math.min(len, left));
                if (r < 0 && left > 0) {
                    throw new java.io.EOFException("pxar archive: unexpected end at byte " + p);
                }
                if (r > 0) {
                    p += r;
                    left -= left < 0 ? 0 : r;
                }
                return r;
            }
        };
    }

    /** Over a byte array. */
    static ReadAt of(byte[] data) {
        return new ReadAt() {
            @Override
            public long size() {
                return data.length;
            }

            @Override
            public int read(long pos, byte[] b, int off, int len) {
                if (pos >= data.length) {
                    return -1;
                }
                int n = (int) Math.min(len, data.length - pos);
                System.arraycopy(data, (int) pos, b, off, n);
                return n;
            }
        };
    }

    /** Over a file channel (positional reads, thread-safe). */
    static ReadAt of(FileChannel ch) {
        return new ReadAt() {
            @Override
            public long size() throws IOException {
                return ch.size();
            }

            @Override
            public int read(long pos, byte[] b, int off, int len) throws IOException {
                return ch.read(ByteBuffer.wrap(b, off, len), pos);
            }
        };
    }
}
