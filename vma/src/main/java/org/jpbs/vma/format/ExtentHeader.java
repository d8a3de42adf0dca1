package org.jpbs.vma.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.jpbs.core.errors.CorruptDataException;

/**
 * The 512-byte header of a VMA extent ({@code docs/vma.md#extents}): magic
 * {@code "VMAE"}, a reserved u16 that must be 0, the block count (4 KiB blocks of payload that
 * follow), the archive uuid, an MD5 over these 512 bytes with the MD5 field zeroed, and 59
 * block-info slots. A slot is a big-endian u64: mask (bits 63..48), reserved (47..40), dev_id
 * (39..32), cluster number (31..0); dev_id 0 marks an unused slot. The payload holds, for each
 * used slot in slot order, the 4 KiB blocks whose mask bit is set (block {@code i} = bit
 * {@code 1 << i}).
 *
 * @param blockCount number of 4 KiB payload blocks
 * @param uuid       the uuid stored in the extent
 * @param entries    the used slots in slot order
 */
public record ExtentHeader(int blockCount, UUID uuid, List<Entry> entries) {
    private static final int OFF_RESERVED = 4;
    private static final int OFF_BLOCK_COUNT = 6;
    private static final int OFF_UUID = 8;
    private static final int OFF_MD5 = 24;
    private static final int OFF_BLOCKINFO = 40;

    /**
     * One used block-info slot.
     *
     * @param slot    slot index 0..58
     * @param devId   dev_id 1..255
     * @param cluster cluster number, 0 .. 2^32-1 (offset = cluster * 65536)
     * @param mask    16-bit mask of the stored 4 KiB blocks
     */
    public record Entry(int slot, int devId, long cluster, int mask) {
        /** Number of stored blocks ({@code popcount(mask)}). */
        public int blocks() {
            return Integer.bitCount(mask);
        }

        /** Offset of the slot's u64 within the extent header. */
        public int headerOffset() {
            return OFF_BLOCKINFO + 8 * slot;
        }
    }

    /** Payload length in bytes, {@code blockCount * 4096}. */
    public int payloadSize() {
        return blockCount * Vma.BLOCK_SIZE;
    }

    /**
     * Checks and decodes an extent header, in upstream's order: magic, reserved field, uuid, MD5,
     * then the block count against the masks.
     *
     * @param h        the 512 header bytes
     * @param offset   archive offset of the extent (for messages)
     * @param expected the archive uuid from the main header
     * @param resource archive name for messages
     * @throws CorruptDataException naming the offset of the bad field
     */
    public static ExtentHeader parse(byte[] h, long offset, UUID expected, String resource) throws CorruptDataException {
        ByteBuffer b = ByteBuffer.wrap(h, 0, Vma.EXTENT_HEADER_SIZE).order(ByteOrder.BIG_ENDIAN);
        if (b.getInt(0) != Vma.EXTENT_MAGIC) {
            throw new CorruptDataException(resource, offset, "bad extent magic " + VmaHeader.hex(h, 0, 4)
                    + " (expected 56 4d 41 45 \"VMAE\")");
        }
        int reserved = Short.toUnsignedInt(b.getShort(OFF_RESERVED));
        if (reserved != 0) {
            throw new CorruptDataException(resource, offset + OFF_RESERVED, "extent reserved field is " + reserved
                    + ", must be 0");
        }
        UUID uuid = new UUID(b.getLong(OFF_UUID), b.getLong(OFF_UUID + 8));
        if (!uuid.equals(expected)) {
            throw new CorruptDataException(resource, offset + OFF_UUID, "extent uuid " + uuid
                    + " does not match the archive uuid " + expected);
        }
        byte[] stored = Arrays.copyOfRange(h, OFF_MD5, OFF_MD5 + 16);
        byte[] computed = VmaHeader.md5(Arrays.copyOf(h, Vma.EXTENT_HEADER_SIZE), OFF_MD5);
        if (!Arrays.equals(stored, computed)) {
            throw new CorruptDataException(resource, offset + OFF_MD5, "wrong extent MD5 (stored "
                    + VmaHeader.hex(stored, 0, 16) + ", computed " + VmaHeader.hex(computed, 0, 16) + ")");
        }
        int blockCount = Short.toUnsignedInt(b.getShort(OFF_BLOCK_COUNT));
        List<Entry> entries = new ArrayList<>();
        int blocks = 0;
        for (int slot = 0; slot < Vma.SLOTS_PER_EXTENT; slot++) {
            long info = b.getLong(OFF_BLOCKINFO + 8 * slot);
            int devId = (int) (info >>> 32) & 0xff;
            if (devId == 0) {
                continue;
            }
            Entry e = new Entry(slot, devId, info & 0xffffffffL, (int) (info >>> 48) & 0xffff);
            entries.add(e);
            blocks += e.blocks();
        }
        if (blocks != blockCount) {
            throw new CorruptDataException(resource, offset + OFF_BLOCK_COUNT, "extent block count is " + blockCount
                    + " but its cluster masks hold " + blocks + " blocks ("
                    + (blockCount > blocks ? "too many blocks" : "missing blocks") + ")");
        }
        return new ExtentHeader(blockCount, uuid, List.copyOf(entries));
    }

    /**
     * Encodes an extent header; the block count is computed from the masks.
     *
     * @param uuid    the archive uuid
     * @param entries at most 59 used slots; each entry goes into the slot it names
     * @return 512 bytes
     * @throws IllegalArgumentException on more than 59 entries or a bad slot, dev_id, cluster or mask
     */
    public static byte[] encode(UUID uuid, List<Entry> entries) {
        if (entries.size() > Vma.SLOTS_PER_EXTENT) {
            throw new IllegalArgumentException("an extent holds at most 59 clusters, got " + entries.size());
        }
        byte[] h = new byte[Vma.EXTENT_HEADER_SIZE];
        ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.BIG_ENDIAN);
        b.putInt(0, Vma.EXTENT_MAGIC);
        b.putLong(OFF_UUID, uuid.getMostSignificantBits());
        b.putLong(OFF_UUID + 8, uuid.getLeastSignificantBits());
        int blocks = 0;
        for (Entry e : entries) {
            if (e.slot() < 0 || e.slot() >= Vma.SLOTS_PER_EXTENT || e.devId() < 1 || e.devId() > 255
                    || e.cluster() < 0 || e.cluster() > 0xffffffffL || (e.mask() & ~0xffff) != 0) {
                throw new IllegalArgumentException("bad extent entry " + e);
            }
            long info = (long) e.mask() << 48 | (long) e.devId() << 32 | e.cluster();
            b.putLong(OFF_BLOCKINFO + 8 * e.slot(), info);
            blocks += e.blocks();
        }
        b.putShort(OFF_BLOCK_COUNT, (short) blocks);
        System.arraycopy(VmaHeader.md5(h, OFF_MD5), 0, h, OFF_MD5, 16);
        return h;
    }
}
