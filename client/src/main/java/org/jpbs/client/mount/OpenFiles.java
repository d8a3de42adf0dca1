package org.jpbs.client.mount;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.core.pxar.ReadAt;

/**
 * The open files of a mount: a handle stands for a byte range of an archive stream (a file's
 * contents in a pxar stream, or the whole image), read at any offset. Thread-safe.
 */
final class OpenFiles {
    private record Open(ReadAt src, long start, long size) {}

    private final ConcurrentHashMap<Long, Open> open = new ConcurrentHashMap<>();
    private final AtomicLong next = new AtomicLong(1);

    /** A new handle for {@code size} bytes of {@code src} from {@code start}. */
    long open(ReadAt src, long start, long size) {
        long h = next.getAndIncrement();
        open.put(h, new Open(src, start, size));
        return h;
    }

    void release(long handle) {
        open.remove(handle);
    }

    /** Reads as {@link ArchiveTree#read}: all of {@code len} unless the file ends first. */
    int read(long handle, long offset, byte[] b, int off, int len) throws IOException {
        Open o = open.get(handle);
        if (o == null) {
            throw new TreeException(TreeException.Reason.EINVAL, "file handle " + handle);
        }
        if (offset < 0) {
            throw new TreeException(TreeException.Reason.EINVAL, "offset " + offset);
        }
        int want = (int) Math.max(0, Math.min(len, o.size() - offset));
        int done = 0;
        while (done < want) {
            int r = o.src().read(o.start() + offset + done, b, off + done, want - done);
            if (r <= 0) {
                throw new java.io.EOFException("archive ends inside a file at byte " + (o.start() + offset + done));
            }
            done += r;
        }
        return done;
    }
}
