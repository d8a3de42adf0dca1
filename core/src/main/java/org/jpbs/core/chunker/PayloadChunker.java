package org.jpbs.core.chunker;

import java.util.ArrayDeque;

/**
 * The chunker of a split file archive's payload stream ({@code docs/pxar.md#metadata-change-detection}),
 * as PBS's payload chunker: the buzhash chunker, plus boundaries the encoder suggests (where a
 * file's payload starts), so that chunks tend to end between files and unchanged files can be
 * reused as whole chunks later. Offsets are counted in the bytes this chunker scans.
 *
 * <p>A suggestion is taken when the data being scanned reaches it: if the chunk would then be
 * at least the minimum size and at most the maximum, the chunk is cut exactly there (whatever
 * the rolling hash says before it); a smaller chunk drops the suggestion; a larger one leaves
 * the cut to the rolling hash. A suggestion the stream has passed is dropped. Suggestions
 * survive {@link #reset()} (a forced cut), as in PBS.
 */
public final class PayloadChunker implements Chunker {
    private final BuzhashChunker hash;
    private final ArrayDeque<Long> suggested = new ArrayDeque<>();
    private long pos;
    private long base;

    /** @param avgSize the average chunk size, as {@link BuzhashChunker#BuzhashChunker(int)} */
    public PayloadChunker(int avgSize) {
        this.hash = new BuzhashChunker(avgSize);
    }

    /** The largest chunk it cuts. */
    public int maxSize() {
        return hash.maxSize();
    }

    /**
     * Suggests a chunk boundary at {@code offset} (bytes scanned so far by this chunker when
     * the boundary's byte comes); suggestions must come in ascending order.
     */
    public void suggest(long offset) {
        suggested.add(offset);
    }

    @Override
    public int scan(byte[] data, int off, int len) {
        long at = pos;
        int cut = find(data, off, len);
        if (cut > 0) {
            pos = at + cut;
            base = pos;
        } else {
            pos = at + len;
        }
        return cut;
    }

    private int find(byte[] data, int off, int len) {
        while (!suggested.isEmpty()) {
            long boundary = suggested.peek();
            if (boundary < pos) {
                suggested.poll();
            } else if (boundary > pos + len) {
                return hash.scan(data, off, len);
            } else {
                long size = boundary - base;
                if (size < hash.minSize()) {
                    suggested.poll();
                    continue;
                }
                if (size <= hash.maxSize()) {
                    suggested.poll();
                    int length = (int) (boundary - pos);
                    if (length == 0) {
                        return hash.scan(data, off, len);
                    }
                    hash.reset();
                    return length;
                }
                return hash.scan(data, off, len);
            }
        }
        return hash.scan(data, off, len);
    }

    /** Forgets the rolling hash (the next byte starts a chunk); suggestions stay. */
    @Override
    public void reset() {
        hash.reset();
        base = pos;
    }
}
