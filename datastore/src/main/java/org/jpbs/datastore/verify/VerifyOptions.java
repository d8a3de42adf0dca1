package org.jpbs.datastore.verify;

import java.time.Instant;
import org.jpbs.datastore.tuning.ChunkOrder;

/**
 * Options of a verify run ({@code docs/gc.md#verify}).
 *
 * @param ignoreVerified    skip snapshots that already have a {@code verify_state} (unless outdated)
 * @param outdatedAfterDays with {@code ignoreVerified}: re-verify if the last verification is more
 *                          than this many whole days old; null = never outdated
 * @param threads           parallel chunk readers/decoders (1..256)
 * @param chunkOrder        {@link ChunkOrder#INODE}: read the chunks of an index in inode order
 * @param now               the current time (for {@code outdatedAfterDays}; tests pass a fixed one)
 */
public record VerifyOptions(boolean ignoreVerified, Integer outdatedAfterDays, int threads, ChunkOrder chunkOrder,
                            Instant now) {
    /** @throws IllegalArgumentException on a negative day count or a thread count outside 1..256 */
    public VerifyOptions {
        if (outdatedAfterDays != null && outdatedAfterDays < 0) {
            throw new IllegalArgumentException("outdated-after must be >= 0 days, got " + outdatedAfterDays);
        }
        if (threads < 1 || threads > 256) {
            throw new IllegalArgumentException("threads must be 1..256, got " + threads);
        }
        if (chunkOrder == null || now == null) {
            throw new IllegalArgumentException("chunk order and time must be set");
        }
    }

    /** Verify everything, 4 threads, inode order. */
    public static VerifyOptions defaults() {
        return new VerifyOptions(false, null, 4, ChunkOrder.INODE, Instant.now());
    }
}
