package org.jpbs.client.hypervisor;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.UUID;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.FixedIndex;

/**
 * The state of one image in a {@link BackupSession}: its slots (digest per chunk), which chunks
 * were written, the appends not yet sent, and the writes in progress. Thread-safe (monitor).
 */
final class ImageWriter {
    /** Appends are sent in batches of this many chunks. */
    static final int APPEND_BATCH = 256;

    final int id;
    final String name;
    final long size;
    final int wid;
    final int chunkSize;
    final int chunkCount;
    final boolean incremental;
    private final BitSet dirty;
    private final Digest[] slots;
    private final BitSet written = new BitSet();
    private List<Digest> pendingDigests = new ArrayList<>();
    private List<Long> pendingOffsets = new ArrayList<>();
    private int appended;
    private int inFlight;
    private boolean closing;
    long recorded;
    long uploadedChunks;
    long uploadedBytes;

    /** A batch of appends to send: digests and start offsets. */
    record Batch(List<Digest> digests, long[] offsets) {}

    /**
     * @param previous for an incremental image the previous index (slots pre-filled), else null
     * @param dirty    chunks that must be written (incremental), or null
     */
    ImageWriter(int id, String name, long size, int wid, int chunkSize, FixedIndex previous, BitSet dirty) {
        this.id = id;
        this.name = name;
        this.size = size;
        this.wid = wid;
        this.chunkSize = chunkSize;
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

    /** Records a stored chunk; returns a batch of appends to send if enough accumulated, else null. */
    synchronized Batch record(int i, Digest d, boolean uploaded, int encodedSize) {
        slots[i] = d;
        recorded++;
        if (uploaded) {
            uploadedChunks++;
            uploadedBytes += encodedSize;
        }
        pendingDigests.add(d);
        pendingOffsets.add((long) i * chunkSize);
        return pendingDigests.size() >= APPEND_BATCH ? takeBatch() : null;
    }

    /** The pending appends (possibly empty), counted as appended. */
    synchronized Batch takeBatch() {
        Batch b = new Batch(pendingDigests, pendingOffsets.stream().mapToLong(Long::longValue).toArray());
        appended += pendingDigests.size();
        pendingDigests = new ArrayList<>();
        pendingOffsets = new ArrayList<>();
        return b;
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

    /** Number of chunks appended so far (the close's chunk count). */
    synchronized int appended() {
        return appended;
    }

    /** The index the server will build: every slot filled. */
    synchronized FixedIndex index() {
        return new FixedIndex(UUID.randomUUID(), 0, size, chunkSize, slots.clone());
    }
}
