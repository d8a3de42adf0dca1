package org.jpbs.core.pxar;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The buffered byte source under {@link PxarDecoder}: reads the underlying stream in large
 * blocks and decodes little-endian fields straight from the buffer, tracking the stream
 * offset for error messages and goodbye-table checks. File contents bypass the buffer when
 * the caller's array is large.
 */
final class ItemReader implements Closeable {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int BUFFER = 256 * 1024;

    private final InputStream in;
    private byte[] buf;
    private int pos;
    private int lim;
    private long base;
    private boolean eof;

    ItemReader(InputStream in) {
        this(in, 0, BUFFER);
    }

    /**
     * A reader whose first byte is at stream offset {@code base}, starting with a buffer of
     * {@code buffer} bytes (it grows for larger items).
     */
    ItemReader(InputStream in, long base, int buffer) {
        this.in = in;
        this.base = base;
        this.buf = new byte[buffer];
    }

    static long getLong(byte[] b, int off) {
        return (long) LONG.get(b, off);
    }

    static int getInt(byte[] b, int off) {
        return (int) INT.get(b, off);
    }

    long position() {
        return base + pos;
    }

    boolean atEnd() throws IOException {
        return !ensure(1);
    }

    /** True if at least {@code n} bytes are buffered (reading as needed); false at end of stream. */
    private boolean ensure(int n) throws IOException {
        if (lim - pos >= n) {
            return true;
        }
        if (buf.length < n) {
            byte[] nb = new byte[Math.max(n, buf.length * 2)];
            System.arraycopy(buf, pos, nb, 0, lim - pos);
            buf = nb;
        } else {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
        }
        base += pos;
        lim -= pos;
        pos = 0;
        while (lim < n && !eof) {
            int r = in.read(buf, lim, buf.length - lim);
            if (r < 0) {
                eof = true;
            } else {
                lim += r;
            }
        }
        return lim - pos >= n;
    }

    private void require(int n) throws IOException {
        if (!ensure(n)) {
            throw new EOFException("pxar archive: unexpected end of stream at byte " + (base + lim));
        }
    }

    long readLong() throws IOException {
        require(8);
        long v = (long) LONG.get(buf, pos);
        pos += 8;
        return v;
    }

    long peekLong() throws IOException {
        require(8);
        return (long) LONG.get(buf, pos);
    }

    /**
     * The content of an item whose 16-byte header at {@code itemOff} declared {@code fullSize}
     * and has just been read.
     */
    byte[] readContent(long itemOff, long fullSize, int max) throws IOException {
        long n = fullSize - PxarFormat.HEADER_SIZE;
        if (Long.compareUnsigned(fullSize, PxarFormat.HEADER_SIZE) < 0 || n > max) {
            throw new PxarFormatException(itemOff, PxarFormat.typeName(peekTypeAt(itemOff)) + " item size "
                    + Long.toUnsignedString(fullSize) + " out of range");
        }
        int len = (int) n;
        require(len);
        byte[] c = new byte[len];
        System.arraycopy(buf, pos, c, 0, len);
        pos += len;
        return c;
    }

    private long peekTypeAt(long itemOff) {
        long rel = itemOff - base;
        return rel >= 0 && rel + 8 <= lim ? (long) LONG.get(buf, (int) rel) : 0;
    }

    int readPayload(byte[] b, int off, int len) throws IOException {
        int avail = lim - pos;
        if (avail > 0) {
            int n = Math.min(avail, len);
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
            return n;
        }
        if (len >= buf.length / 2) {
            int r = in.read(b, off, len);
            if (r < 0) {
                throw new EOFException("pxar archive: unexpected end of stream in file contents at byte " + position());
            }
            base += r;
            return r;
        }
        require(1);
        return readPayload(b, off, len);
    }

    void skip(long n) throws IOException {
        while (n > 0) {
            int avail = lim - pos;
            if (avail == 0) {
                require(1);
                continue;
            }
            int k = (int) Math.min(avail, n);
            pos += k;
            n -= k;
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
