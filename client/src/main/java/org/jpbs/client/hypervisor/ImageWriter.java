package org.jpbs.client.hypervisor;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.BitSet;
import java.util.UUID;
import org.jpbs.client.engine.BackupEngine;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;

/**
 * The state of one image in a {@link BackupSession}: the engine's {@link BackupEngine.Archive}
 * its chunks go through, its slots (digest per chunk, pre-filled from the previous index for an
 * incremental image), which chunks were written, and the writes in progress. Thread-safe
 * (its own monitor, held only for the bookkeeping, never across a chunk).
 */
final class ImageWriter {
    final int id;
    final String name;
    final long size;
    final int chunkSize;
    final int chunkCount;
    final boolean incremental;
    final BackupEngine.Archive archive;
    private final BitSet dirty;
    private final Digest[] slots;
    private final BitSet written = new BitSet();
    private int inFlight;
    private boolean closing;
    private long recorded;

    /**
     * @param archive  the fixed index being written through the engine
     * @param previous for an incremental image the previous index (slots pre-filled), else null
     * @param dirty    chunks that must be written (incremental), or null
     */
    ImageWriter(int id, String name, long size, int chunkSize, BackupEngine.Archive archive, FixedIndex previous,
                BitSet dirty) {
        this.id = id;
        this.name = name;
        this.size = size;
        this.chunkSize = chunkSize;
        this.archive = archive;
        this.chunkCount = FixedIndex.chunkCount(size, chunkSize);
        this.incremental = previous != null;
        this.dirty = dirty == null ? null : (BitSet) dirty.clone();
        this.slots = new Digest[chunkCount];
        if (previous != null) {
            for (int i = 0; i < chunkCount; i++) {
                slots[i] = previous.digest(i);
            }
        }
    }
    /** Length of chunk {@code i}: the chunk size, or what is left for the last one. */
    int chunkLength(int i) {
        return (int) Math.min(chunkSize, size - (long) i * chunkSize);
    }

    /**
     * Validates a write and counts it as in progress.
     *
     * @return the chunk number
     * @throws IllegalArgumentException for a bad offset or length, or a chunk written twice
     * @throws IllegalStateException if the image is closed
     */
    synchronized int beginWrite(long offset, byte[] data) {
        if (closing) {
            throw new IllegalStateException("image '" + name + "' is already closed");
        }
        if (offset < 0 || offset >= size || offset % chunkSize != 0) {
            throw new IllegalArgumentException("image '" + name + "': offset " + offset + " is not a chunk start (a multiple of "
                    + chunkSize + " below the size " + size + ")");
        }
        int i = (int) (offset / chunkSize);
        int len = chunkLength(i);
        if (data != null && data.length != len) {
            throw new IllegalArgumentException("image '" + name + "': chunk at offset " + offset + " must have " + len
                    + " bytes, got " + data.length);
        }
        if (written.get(i)) {
            throw new IllegalArgumentException("image '" + name + "': chunk at offset " + offset + " was already written");
        }
        written.set(i);
        inFlight++;
        return i;
    }

    /** The write of chunk {@code i} failed: it may be written again. */
    synchronized void failWrite(int i) {
        written.clear(i);
        endWrite();
    }

    synchronized void endWrite() {
        inFlight--;
        notifyAll();
    }

    /** Records a stored chunk. */
    synchronized void record(int i, Digest d) {
        slots[i] = d;
        recorded++;
    }

    /** Chunks written by the caller so far. */
    synchronized long recorded() {
        return recorded;
    }

    /** Refuses further writes and waits until the writes in progress are done. */
    synchronized void closeAndDrain() throws InterruptedIOException {
        closing = true;
        while (inFlight > 0) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("closing image '" + name + "' interrupted");
            }
        }
    }

    synchronized boolean isClosing() {
        return closing;
    }

    /**
     * Checks that the image is complete: every chunk written (full backup) or every dirty chunk
     * written (incremental).
     */
    synchronized void checkComplete() throws IOException {
        if (!incremental) {
            int missing = written.nextClearBit(0);
            if (missing < chunkCount) {
                throw new IOException("image '" + name + "': chunk #" + missing + " at offset " + (long) missing * chunkSize
                        + " was never written (" + written.cardinality() + " of " + chunkCount + " chunks written)");
            }
        } else if (dirty != null) {
            BitSet notWritten = (BitSet) dirty.clone();
            notWritten.andNot(written);
            int missing = notWritten.nextSetBit(0);
            if (missing >= 0 && missing < chunkCount) {
                throw new IOException("image '" + name + "': dirty chunk #" + missing + " at offset "
                        + (long) missing * chunkSize + " was never written");
            }
        }
    }

    /** The index: every slot filled (checked by {@link #checkComplete}). */
    synchronized FixedIndex index() {
        return new FixedIndex(UUID.randomUUID(), 0, size, chunkSize, slots.clone());
    }
}
