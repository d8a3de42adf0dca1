package org.jpbs.client.pxar.fs;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Writes a file's contents on extraction ({@code docs/pxar.md#extracting}): sparse (4 KiB
 * blocks of zeros become holes), from the archive stream or from a split archive's payload
 * stream.
 */
final class ContentWriter {
    private static final int BLOCK = 4096;

    private final Sys sys;
    private final byte[] buf = new byte[1 << 20];

    ContentWriter(Sys sys) {
        this.sys = sys;
    }

    void writeSparse(InputStream src, int fd, long size) throws IOException {
        long pos = 0;
        long written = 0; // file offset the descriptor is at
        int fill = 0;
        while (true) {
            int r = src.read(buf, fill, buf.length - fill);
            if (r > 0) {
                fill += r;
            }
            if (fill == buf.length || (r < 0 && fill > 0)) {
                int off = 0;
                while (off < fill) {
                    int len = Math.min(BLOCK, fill - off);
                    if (!isZero(buf, off, len)) {
                        int end = off + len;
                        while (end < fill && !isZero(buf, end, Math.min(BLOCK, fill - end))) {
                            end += Math.min(BLOCK, fill - end);
                        }
                        if (written != pos) {
                            sys.lseek(fd, pos, Libc.SEEK_SET);
                        }
                        sys.writeAll(fd, buf, off, end - off);
                        pos += end - off;
                        written = pos;
                        off = end;
                    } else {
                        pos += len;
                        off += len;
                    }
                }
                fill = 0;
            }
            if (r < 0) {
                break;
            }
        }
        if (pos != size) {
            throw new IOException("file contents " + pos + " bytes, expected " + size);
        }
        if (written != size) {
            sys.ftruncate(fd, size);
        }
    }

    private static final byte[] ZEROS = new byte[BLOCK];

    private static boolean isZero(byte[] b, int off, int len) {
        return Arrays.mismatch(b, off, off + len, ZEROS, 0, len) < 0;
    }
}
