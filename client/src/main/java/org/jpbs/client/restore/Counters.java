package org.jpbs.client.restore;

import java.util.concurrent.atomic.LongAdder;
import org.jpbs.core.index.IndexFile;

/** Thread-safe counters of one restore, turned into {@link RestoreStats} at the end. */
final class Counters {
    final LongAdder fetchedChunks = new LongAdder();
    final LongAdder fetchedBytes = new LongAdder();
    final LongAdder zeroChunks = new LongAdder();
    final LongAdder zeroBytes = new LongAdder();
    final LongAdder skippedBytes = new LongAdder();

    void zero(int len) {
        zeroChunks.increment();
        zeroBytes.add(len);
    }

    RestoreStats stats(IndexFile index, long nanos) {
        return new RestoreStats(index.size(), index.chunkCount(), fetchedChunks.sum(), fetchedBytes.sum(),
                zeroChunks.sum(), zeroBytes.sum(), skippedBytes.sum(), nanos);
    }
}
