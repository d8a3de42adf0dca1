package org.jpbs.core.pxar.catalog;

import java.io.ByteArrayOutputStream;

/**
 * The catalog's variable-length integers: 7 bits per byte, least significant first, high bit
 * = more follows. A negative signed value stores its magnitude the same way, sets the high
 * bit on the last byte too and ends with a 0x00 byte ({@code docs/pxar.md#catalog}).
 */
final class CatalogVarint {
    private CatalogVarint() {}

    static void writeUnsigned(ByteArrayOutputStream out, long v) {
        while (Long.compareUnsigned(v, 128) >= 0) {
            out.write((int) (0x80 | (v & 0x7f)));
            v >>>= 7;
        }
        out.write((int) v);
    }

    static void writeSigned(ByteArrayOutputStream out, long v) {
        if (v >= 0) {
            writeUnsigned(out, v);
            return;
        }
        long d = -(v + 1) + 1; // magnitude; Long.MIN_VALUE stays 2^63 as unsigned
        while (Long.compareUnsigned(d, 128) >= 0) {
            out.write((int) (0x80 | (d & 0x7f)));
            d >>>= 7;
        }
        out.write((int) (0x80 | d));
        out.write(0);
    }

    /** A cursor over catalog bytes. */
    static final class Reader {
        private final byte[] data;
        private int pos;
        private final int end;

        Reader(byte[] data, int pos, int end) {
            this.data = data;
            this.pos = pos;
            this.end = end;
        }

        int position() {
            return pos;
        }

        boolean atEnd() {
            return pos >= end;
        }

        int readByte() throws CatalogFormatException {
            if (pos >= end) {
                throw new CatalogFormatException("unexpected end of data at byte " + pos);
            }
            return data[pos++] & 0xff;
        }

        byte[] readBytes(int n) throws CatalogFormatException {
            if (n < 0 || end - pos < n) {
                throw new CatalogFormatException("entry of " + n + " bytes runs past the table at byte " + pos);
            }
            byte[] b = java.util.Arrays.copyOfRange(data, pos, pos + n);
            pos += n;
            return b;
        }

        long readUnsigned() throws CatalogFormatException {
            long v = 0;
            for (int i = 0; i < 10; i++) {
                int t = readByte();
                v |= (long) (t & 0x7f) << (7 * i);
                if (t < 128) {
                    return v;
                }
            }
            throw new CatalogFormatException("varint without end marker at byte " + pos);
        }

        long readSigned() throws CatalogFormatException {
            long v = 0;
            for (int i = 0; i < 11; i++) {
                int t = readByte();
                if (t == 0) {
                    return v == 0 ? 0 : -(v - 1) - 1;
                }
                if (t < 128) {
                    return v | (long) t << (7 * i);
                }
                v |= (long) (t & 0x7f) << (7 * i);
            }
            throw new CatalogFormatException("signed varint without end marker at byte " + pos);
        }
    }
}
