package org.jpbs.core.pxar;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The buffered byte sink under {@link PxarEncoder}: little-endian fields and item headers
 * gathered in a buffer and written to the output in large blocks; large file contents go to
 * the output directly. Counts the stream position.
 */
final class ItemWriter implements Closeable {
    private static final int BUFFER = 256 * 1024;

    private final OutputStream out;
    private final byte[] buf = new byte[BUFFER];
    private int n;
    private long position;

    ItemWriter(OutputStream out) {
        this.out = out;
    }

    long position() {
        return position;
    }

    void header(long type, long fullSize) throws IOException {
        putLong(type);
        putLong(fullSize);
    }

    void putLong(long v) throws IOException {
        putLE(v, 8);
    }

    void putInt(int v) throws IOException {
        putLE(v, 4);
    }

    /** The low {@code bytes} bytes of {@code v}, little-endian. */
    private void putLE(long v, int bytes) throws IOException {
        if (BUFFER - n < bytes) {
            flushBuffer();
        }
        for (int i = 0; i < bytes; i++) {
            buf[n + i] = (byte) (v >>> (8 * i));
        }
        n += bytes;
        position += bytes;
    }

    void putByte(int b) throws IOException {
        if (n == BUFFER) {
            flushBuffer();
        }
        buf[n++] = (byte) b;
        position++;
    }

    void put(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (n == BUFFER) {
                flushBuffer();
            }
            int k = Math.min(len, BUFFER - n);
            System.arraycopy(b, off, buf, n, k);
            n += k;
            off += k;
            len -= k;
            position += k;
        }
    }

    /** Like {@link #put}, but a large piece bypasses the buffer. */
    void putBulk(byte[] b, int off, int len) throws IOException {
        if (len < BUFFER / 2) {
            put(b, off, len);
            return;
        }
        flushBuffer();
        out.write(b, off, len);
        position += len;
    }

    private void flushBuffer() throws IOException {
        if (n > 0) {
            out.write(buf, 0, n);
            n = 0;
        }
    }

    /** Writes out the buffer and flushes the output. */
    void flush() throws IOException {
        flushBuffer();
        out.flush();
    }

    /** Writes out the buffer and closes the output. */
    @Override
    public void close() throws IOException {
        flushBuffer();
        out.close();
    }
}
