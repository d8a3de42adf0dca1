package org.jpbs.cli.commands;

import org.jpbs.cli.UsageException;
import java.time.Duration;
import org.jpbs.datastore.tuning.ChunkOrder;
import org.jpbs.datastore.tuning.Tuning;
import picocli.CommandLine.Option;

/**
 * Command line overrides of the datastore tuning ({@link Tuning}; {@code docs/datastore-config.md#datastorecfg}). For now the defaults are PBS's and these options are the
 * only way to change them; reading them from a PBS {@code datastore.cfg} comes later.
 */
public final class TuningOptions {
    @Option(names = "--gc-atime-cutoff", paramLabel = "MINUTES",
            description = "GC removes chunks not touched for this long (default: 1445 = 24 h 5 min).")
    Long atimeCutoffMinutes;

    @Option(names = "--gc-cache-capacity", paramLabel = "N",
            description = "Digests GC remembers to skip repeated touches (default: 1048576; 0 = off).")
    Integer cacheCapacity;

    @Option(names = "--gc-chunk-metadata-prefetch", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            description = "Walk and stat the chunk directories in parallel while marking (default: false).")
    Boolean prefetch;

    @Option(names = "--gc-atime-safety-check", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            description = "Check at GC start that the file system updates atimes (default: true).")
    Boolean safetyCheck;

    @Option(names = "--chunk-order", paramLabel = "ORDER",
            description = "inode (default): verify reads and GC touches in disk order; none: index order.")
    String chunkOrder;

    @Option(names = "--threads", paramLabel = "N", description = "Worker threads (default: 4).")
    Integer threads;

    /**
     * The defaults with the given options applied.
     *
     * @throws IllegalArgumentException naming the option on an invalid value
     */
    public Tuning toTuning() {
        Tuning t = Tuning.DEFAULT;
        if (atimeCutoffMinutes != null) {
            if (atimeCutoffMinutes < 0) {
                throw new UsageException("--gc-atime-cutoff must be >= 0 minutes, got " + atimeCutoffMinutes);
            }
            t = t.withGcAtimeCutoff(Duration.ofMinutes(atimeCutoffMinutes));
        }
        if (cacheCapacity != null) {
            if (cacheCapacity < 0) {
                throw new UsageException("--gc-cache-capacity must be >= 0, got " + cacheCapacity);
            }
            t = t.withGcCacheCapacity(cacheCapacity);
        }
        if (prefetch != null) {
            t = t.withGcChunkMetadataPrefetch(prefetch);
        }
        if (safetyCheck != null) {
            t = t.withGcAtimeSafetyCheck(safetyCheck);
        }
        if (chunkOrder != null) {
            try {
                t = t.withChunkOrder(ChunkOrder.parse(chunkOrder));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--chunk-order: " + e.getMessage(), e);
            }
        }
        if (threads != null) {
            if (threads < 1 || threads > 256) {
                throw new UsageException("--threads must be 1..256, got " + threads);
            }
            t = t.withThreads(threads);
        }
        return t;
    }
}
