package org.jpbs.datastore.tuning;

import java.time.Duration;

/**
 * Tuning of the maintenance tasks of one datastore ({@code docs/datastore-config.md#datastorecfg}
 * {@code tuning}; the defaults are PBS's). Immutable; change values with the {@code with…}
 * methods.
 *
 * @param gcAtimeSafetyCheck      check at GC start that the file system honours atime updates (default true)
 * @param gcAtimeCutoff           chunks whose atime is older than GC start minus this are removed
 *                                (default 24 h 5 min; PBS configures it in minutes)
 * @param gcCacheCapacity         entries of the GC digest cache that skips repeated touches (default 1,048,576; 0 = off)
 * @param gcChunkMetadataPrefetch walk and stat the chunk directories in parallel while marking, so
 *                                the inodes are in memory when they are touched (jpbs; default false:
 *                                it pays off on cold disks with spare CPU, see {@code docs/gc.md})
 * @param chunkOrder              order of chunk reads in verify and of touches in GC (default {@link ChunkOrder#INODE})
 * @param threads                 worker threads for marking, sweeping, prefetching and verifying (default 4)
 */
public record Tuning(boolean gcAtimeSafetyCheck, Duration gcAtimeCutoff, int gcCacheCapacity,
                     boolean gcChunkMetadataPrefetch, ChunkOrder chunkOrder, int threads) {
    /** PBS's default cutoff: 24 h 5 min (1445 minutes). */
    public static final Duration DEFAULT_ATIME_CUTOFF = Duration.ofMinutes(24 * 60 + 5);
    /** PBS's default digest cache capacity. */
    public static final int DEFAULT_CACHE_CAPACITY = 1 << 20;
    /** Default thread count: queue depth matters more than cores for touches and stats. */
    public static final int DEFAULT_THREADS = 4;
    /** The defaults. */
    public static final Tuning DEFAULT = new Tuning(true, DEFAULT_ATIME_CUTOFF, DEFAULT_CACHE_CAPACITY, false,
            ChunkOrder.INODE, DEFAULT_THREADS);

    /** @throws IllegalArgumentException on a negative cutoff or capacity, or fewer than 1 thread */
    public Tuning {
        if (gcAtimeCutoff == null || gcAtimeCutoff.isNegative()) {
            throw new IllegalArgumentException("gc-atime-cutoff must be >= 0 minutes, got " + gcAtimeCutoff);
        }
        if (gcCacheCapacity < 0) {
            throw new IllegalArgumentException("gc-cache-capacity must be >= 0, got " + gcCacheCapacity);
        }
        if (chunkOrder == null) {
            throw new IllegalArgumentException("chunk-order must be set");
        }
        if (threads < 1 || threads > 256) {
            throw new IllegalArgumentException("threads must be 1..256, got " + threads);
        }
    }

    /**
     * The tuning a datastore's {@code datastore.cfg} {@code tuning} property sets, with the
     * default thread count; keys it does not set keep their defaults. A capacity above
     * {@link Integer#MAX_VALUE} is clamped.
     */
    public static Tuning from(org.jpbs.datastore.config.DatastoreTuning t) {
        return DEFAULT.withGcAtimeSafetyCheck(t.gcAtimeSafetyCheck())
                .withGcAtimeCutoff(Duration.ofMinutes(t.gcAtimeCutoffMinutes()))
                .withGcCacheCapacity((int) Math.min(Integer.MAX_VALUE, t.gcCacheCapacity()))
                .withGcChunkMetadataPrefetch(t.gcChunkMetadataPrefetch())
                .withChunkOrder(ChunkOrder.parse(t.chunkOrder().text()));
    }

    public Tuning withGcAtimeSafetyCheck(boolean v) {
        return new Tuning(v, gcAtimeCutoff, gcCacheCapacity, gcChunkMetadataPrefetch, chunkOrder, threads);
    }

    public Tuning withGcAtimeCutoff(Duration v) {
        return new Tuning(gcAtimeSafetyCheck, v, gcCacheCapacity, gcChunkMetadataPrefetch, chunkOrder, threads);
    }

    public Tuning withGcCacheCapacity(int v) {
        return new Tuning(gcAtimeSafetyCheck, gcAtimeCutoff, v, gcChunkMetadataPrefetch, chunkOrder, threads);
    }

    public Tuning withGcChunkMetadataPrefetch(boolean v) {
        return new Tuning(gcAtimeSafetyCheck, gcAtimeCutoff, gcCacheCapacity, v, chunkOrder, threads);
    }

    public Tuning withChunkOrder(ChunkOrder v) {
        return new Tuning(gcAtimeSafetyCheck, gcAtimeCutoff, gcCacheCapacity, gcChunkMetadataPrefetch, v, threads);
    }

    public Tuning withThreads(int v) {
        return new Tuning(gcAtimeSafetyCheck, gcAtimeCutoff, gcCacheCapacity, gcChunkMetadataPrefetch, chunkOrder, v);
    }
}
