package org.jpbs.client.pxar.fs;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * An open directory of the tree being archived, shared by the walker that lists it and the
 * read-ahead tasks and the encoder that open its entries ({@code docs/pxar.md#reading-a-directory-tree}):
 * closed when the last holder releases it. Carries what its entries are read with: the file
 * system's magic and pxar feature set.
 */
final class DirHandle {
    final int fd;
    final byte[] path;
    final long magic;
    final long features;
    private final AtomicInteger refs = new AtomicInteger(1);

    /** A handle held once, by its creator. */
    DirHandle(int fd, byte[] path, long magic, long features) {
        this.fd = fd;
        this.path = path;
        this.magic = magic;
        this.features = features;
    }

    /** One more holder. */
    DirHandle retain() {
        if (refs.getAndIncrement() <= 0) {
            throw new IllegalStateException("directory handle already closed");
        }
        return this;
    }

    /** Lets go of one hold; the last one closes the descriptor (with the caller's {@link Sys}). */
    void release(Sys sys) {
        if (refs.decrementAndGet() == 0) {
            sys.close(fd);
        }
    }
}
