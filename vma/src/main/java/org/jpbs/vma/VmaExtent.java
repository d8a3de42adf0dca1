package org.jpbs.vma;

import java.nio.ByteBuffer;
import java.util.List;
import org.jpbs.vma.format.ExtentHeader;
import org.jpbs.vma.format.Vma;

/**
 * One extent as read by {@link VmaReader}: its header and its payload, with the payload offset
 * of each entry's first stored block ({@code docs/vma.md#extents}). The stored blocks
 * of an entry lie back to back from {@link #dataOffset}, in block order.
 */
public final class VmaExtent {
    private final long offset;
    private final ExtentHeader header;
    private final ByteBuffer payload;
    private final int[] dataOffsets;

    VmaExtent(long offset, ExtentHeader header, ByteBuffer payload) {
        this.offset = offset;
        this.header = header;
        this.payload = payload;
        this.dataOffsets = new int[header.entries().size()];
        int pos = 0;
        for (int i = 0; i < dataOffsets.length; i++) {
            dataOffsets[i] = pos;
            pos += header.entries().get(i).blocks() * Vma.BLOCK_SIZE;
        }
    }

    /** Archive offset of the extent header in bytes. */
    public long offset() {
        return offset;
    }

    /** The decoded header. */
    public ExtentHeader header() {
        return header;
    }

    /** The used slots in slot order. */
    public List<ExtentHeader.Entry> entries() {
        return header.entries();
    }

    /**
     * The payload: bytes {@code [0, header().payloadSize())} of this buffer (absolute indexes;
     * its position and limit are not meaningful). The buffer belongs to the caller of
     * {@link VmaReader#next} and is overwritten by the next extent read into it.
     */
    public ByteBuffer payload() {
        return payload;
    }

    /** Payload offset in bytes of the first stored block of entry {@code i} (index into {@link #entries()}). */
    public int dataOffset(int i) {
        return dataOffsets[i];
    }

    /** Total size on the archive in bytes: header plus payload. */
    public long size() {
        return Vma.EXTENT_HEADER_SIZE + (long) header.payloadSize();
    }
}
