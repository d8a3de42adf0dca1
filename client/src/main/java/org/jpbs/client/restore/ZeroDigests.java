package org.jpbs.client.restore;

import org.jpbs.core.blob.ZeroChunks;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;
import org.jpbs.core.index.IndexFile;

/**
 * Zero-chunk digests of a fixed index (at most two lengths: the chunk size and the last
 * chunk's length) and a shared read-only zero buffer. A dynamic index has variable chunk
 * lengths; its zero chunks are not recognised by digest.
 */
final class ZeroDigests {
    private final Digest full;
    private final int fullLen;
    private final Digest last;
    private final int lastLen;
    private volatile byte[] zeros = new byte[0];

    ZeroDigests(IndexFile index) {
        if (index instanceof FixedIndex fixed && fixed.chunkCount() > 0) {
            fullLen = fixed.chunkSize();
            full = ZeroChunks.digest(fullLen);
            lastLen = fixed.chunkLength(fixed.chunkCount() - 1);
            last = lastLen == fullLen ? full : ZeroChunks.digest(lastLen);
        } else {
            full = last = null;
            fullLen = lastLen = -1;
        }
    }

    boolean isZero(Digest d, int len) {
        return (len == fullLen && d.equals(full)) || (len == lastLen && d.equals(last));
    }

    byte[] buffer(int len) {
        byte[] z = zeros;
        if (z.length < len) {
            synchronized (this) {
                if (zeros.length < len) {
                    zeros = new byte[len];
                }
                z = zeros;
            }
        }
        return z;
    }
}
