package org.jpbs.core.index;

import org.jpbs.core.blob.ZeroChunks;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;

/**
 * Zero-chunk digests of a fixed index (at most two lengths: the chunk size and the last
 * chunk's length) and a shared read-only zero buffer. A dynamic index has variable chunk
 * lengths; its zero chunks are not recognised by digest. With a key the digests are keyed
 * ({@code docs/formats.md#chunks-and-digests}). Restores and random reads use it to skip
 * fetching zero chunks. Thread-safe.
 */
public final class ZeroDigests {
    private final Digest full;
    private final int fullLen;
    private final Digest last;
    private final int lastLen;
    private volatile byte[] zeros = new byte[0];

    public ZeroDigests(IndexFile index) {
        this(index, null);
    }

    /** With a key, zero chunks have the keyed digest SHA-256(zeros ‖ id_key). */
    public ZeroDigests(IndexFile index, CryptConfig crypt) {
        if (index instanceof FixedIndex fixed && fixed.chunkCount() > 0) {
            fullLen = fixed.chunkSize();
            full = zeroDigest(fullLen, crypt);
            lastLen = fixed.chunkLength(fixed.chunkCount() - 1);
            last = lastLen == fullLen ? full : zeroDigest(lastLen, crypt);
        } else {
            full = last = null;
            fullLen = lastLen = -1;
        }
    }

    private static Digest zeroDigest(int len, CryptConfig crypt) {
        return crypt == null ? ZeroChunks.digest(len) : crypt.computeDigest(new byte[len], 0, len);
    }

    /** True if chunk {@code d} of length {@code len} is one of the index's zero chunks. */
    public boolean isZero(Digest d, int len) {
        return (len == fullLen && d.equals(full)) || (len == lastLen && d.equals(last));
    }

    /** A shared read-only buffer of at least {@code len} zeros. */
    public byte[] buffer(int len) {
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

