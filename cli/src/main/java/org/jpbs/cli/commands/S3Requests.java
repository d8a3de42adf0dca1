package org.jpbs.cli.commands;

import java.util.Locale;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.s3.store.S3ChunkStore;

/**
 * The S3 request count of a local command on an S3 datastore ({@code docs/s3.md#request-counts}):
 * taken before the work, and the summary line after it ({@code s3: N requests, R per chunk}).
 * For any other datastore it says nothing.
 */
final class S3Requests {
    /** Workers of a local restore from an S3 datastore unless given: downloads in flight. */
    static final int S3_WORKERS = 8;
    private final S3ChunkStore store;
    private final long before;

    private S3Requests(S3ChunkStore store) {
        this.store = store;
        this.before = store == null ? 0 : store.objects().requests();
    }

    /** Starts counting the requests of {@code ds} (nothing for a directory datastore). */
    static S3Requests start(Datastore ds) {
        return new S3Requests(ds.chunkStore() instanceof S3ChunkStore s ? s : null);
    }

    /**
     * The workers of a local restore: {@code threads} as given, or, when not given explicitly and
     * the datastore is on S3, at least {@link #S3_WORKERS} (each waits for its download most of
     * the time; docs/s3.md#request-counts). A backup needs no more workers than on a directory:
     * its uploads run in the background of the chunk store.
     */
    static int workers(Datastore ds, boolean explicit, int threads) {
        return !explicit && ds.chunkStore() instanceof S3ChunkStore ? Math.max(threads, S3_WORKERS) : threads;
    }

    /** The summary line, or null for a directory datastore; {@code chunks} < 0 leaves out the ratio. */
    String summary(long chunks) {
        if (store == null) {
            return null;
        }
        long n = store.objects().requests() - before;
        return chunks > 0 ? String.format(Locale.ROOT, "s3: %d requests for %d chunks, %.2f per chunk", n, chunks,
                (double) n / chunks) : "s3: " + n + " requests";
    }
}
