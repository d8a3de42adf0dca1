package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Writes a file's contents on extraction ({@code docs/pxar.md#extracting}): sparse (4 KiB
 * blocks of zeros become holes), from the archive stream or from a split archive's payload
 * stream, or from an array read ahead. One instance per thread.
 */
final class ContentWriter {
    private static final int BLOCK = 4096;
    private static final byte[] ZEROS = new byte[BLOCK];

    private final Sys sys;
    private final byte[] buf = new byte[1 << 20];
    private long pos;     // bytes of contents consumed
    private long written; // file offset the descriptor is at

    ContentWriter(Sys sys) {
        this.sys = sys;
    }

    void writeSparse(InputStream src, int fd, long size) throws IOException {
        pos = 0;
        written = 0;
        int fill = 0;
        while (true) {
            int r = src.read(buf, fill, buf.length - fill);
            if (r > 0) {
                fill += r;
            }
            if (fill == buf.length || (r < 0 && fill > 0)) {
                block(fd, buf, fill);
                fill = 0;
            }
            if (r < 0) {
                break;
            }
        }
        finish(fd, size);
    }

    /** Writes the contents {@code data[0, size)}, sparse, written straight from the array. */
    void writeSparse(byte[] data, int fd, int size) throws IOException {
        pos = 0;
        written = 0;
        block(fd, data, size);
        finish(fd, size);
    }

    /** Writes {@code b[0, fill)} at the current position, seeking over 4 KiB blocks of zeros. */
    private void block(int fd, byte[] b, int fill) throws SysException {
        int off = 0;
        while (off < fill) {
            int len = Math.min(BLOCK, fill - off);
            if (!isZero(b, off, len)) {
                int end = off + len;
                while (end < fill && !isZero(b, end, Math.min(BLOCK, fill - end))) {
                    end += Math.min(BLOCK, fill - end);
                }
                if (written != pos) {
                    sys.lseek(fd, pos, Libc.SEEK_SET);
                }
                sys.writeAll(fd, b, off, end - off);
                pos += end - off;
                written = pos;
                off = end;
            } else {
                pos += len;
                off += len;
            }
        }
    }

    /** Checks the length; a file ending in a hole gets its size with {@code ftruncate}. */
    private void finish(int fd, long size) throws IOException {
        if (pos != size) {
            throw new IOException("file contents " + pos + " bytes, expected " + size);
        }
        if (written != size) {
            sys.ftruncate(fd, size);
        }
    }

    private static boolean isZero(byte[] b, int off, int len) {
        return Arrays.mismatch(b, off, off + len, ZEROS, 0, len) < 0;
    }
}
