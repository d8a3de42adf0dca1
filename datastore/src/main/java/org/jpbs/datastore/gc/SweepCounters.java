package org.jpbs.datastore.gc;

import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of one sweep, whatever the chunk store ({@code docs/gc.md#garbage-collection}):
 * {@link SweepPhase} (a directory store, which also meets {@code .bad} copies and temporary
 * files) and {@link StoreSweep} (any store) classify every chunk the same way: removed, or kept
 * as "pending" (last used before the oldest running writer, by more than
 * {@link SweepPhase#TIMESTAMP_SLACK}) or in use. Thread-safe (adders).
 */
final class SweepCounters {
    private final Instant pendingBefore;
    private final LongAdder diskBytes = new LongAdder();
    private final LongAdder diskChunks = new LongAdder();
    private final LongAdder removedBytes = new LongAdder();
    private final LongAdder removedChunks = new LongAdder();
    private final LongAdder pendingBytes = new LongAdder();
    private final LongAdder pendingChunks = new LongAdder();
    private final LongAdder removedBad = new LongAdder();
    private final LongAdder stillBad = new LongAdder();
    private final LongAdder removedTemp = new LongAdder();
    private final LongAdder entries = new LongAdder();

    /** @param oldestWriter the start of the oldest writer running when the collection began */
    SweepCounters(Instant oldestWriter) {
        this.pendingBefore = oldestWriter.minus(SweepPhase.TIMESTAMP_SLACK);
    }

    /** Chunks last used before this are "pending" when kept. */
    Instant pendingBefore() {
        return pendingBefore;
    }

    /** One chunk (or bad copy) seen. */
    void entry() {
        entries.increment();
    }

    /** A chunk (or a bad copy) of {@code size} bytes removed (or, dry run, that would be). */
    void removed(boolean bad, long size) {
        if (bad) {
            removedBad.increment();
        } else {
            removedChunks.increment();
        }
        removedBytes.add(size);
    }

    /** A chunk (or a bad copy) kept, last used at {@code pending ? before : after} {@link #pendingBefore()}. */
    void kept(boolean pending, boolean bad, long size) {
        if (pending) {
            if (bad) {
                stillBad.increment();
            } else {
                pendingChunks.increment();
            }
            pendingBytes.add(size);
        } else {
            if (!bad) {
                diskChunks.increment();
            }
            diskBytes.add(size);
        }
    }

    /** A bad copy that could not be removed. */
    void stillBad() {
        stillBad.increment();
    }

    /** A stale temporary chunk file removed. */
    void removedTemp() {
        removedTemp.increment();
    }

    /** The counters so far. */
    SweepPhase.Result result() {
        return new SweepPhase.Result(diskBytes.sum(), diskChunks.sum(), removedBytes.sum(), removedChunks.sum(),
                pendingBytes.sum(), pendingChunks.sum(), removedBad.sum(), stillBad.sum(), removedTemp.sum(),
                entries.sum());
    }
}
