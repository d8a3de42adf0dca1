package org.jpbs.vma.format;

/**
 * Sizes and magic numbers of the VMA format ({@code docs/vma.md#format}, {@code docs/vma.md#main-header}, {@code docs/vma.md#extents}).
 * Sizes are in bytes unless the name says otherwise.
 */
public final class Vma {
    private Vma() {}

    /** Main header magic {@code "VMA\0"}. */
    public static final int MAGIC = 0x564D4100;
    /** Extent header magic {@code "VMAE"}. */
    public static final int EXTENT_MAGIC = 0x564D4145;
    /** The only supported version. */
    public static final int VERSION = 1;
    /** One data block: 4 KiB; the unit of the zero masks. */
    public static final int BLOCK_SIZE = 4096;
    /** One cluster: 64 KiB = 16 blocks; the unit of the block-info entries. */
    public static final int CLUSTER_SIZE = 65536;
    /** Blocks per cluster (bits of a mask). */
    public static final int BLOCKS_PER_CLUSTER = CLUSTER_SIZE / BLOCK_SIZE;
    /** Mask of a cluster whose 16 blocks are all stored. */
    public static final int FULL_MASK = 0xFFFF;
    /** Fixed part of the main header; the blob buffer starts here. */
    public static final int HEADER_FIXED_SIZE = 12288;
    /** Extent header size. */
    public static final int EXTENT_HEADER_SIZE = 512;
    /** Block-info slots per extent (a count of clusters despite upstream's name). */
    public static final int SLOTS_PER_EXTENT = 59;
    /** Clusters QEMU's writer puts into one extent at most (it flushes when 58 slots are full). */
    public static final int QEMU_CLUSTERS_PER_EXTENT = 58;
    /** Largest payload of one extent: 59 full clusters = 3,866,624 bytes. */
    public static final int MAX_EXTENT_DATA = SLOTS_PER_EXTENT * CLUSTER_SIZE;
    /** Largest extent: header plus {@link #MAX_EXTENT_DATA} = 3,867,136 bytes. */
    public static final int MAX_EXTENT_SIZE = EXTENT_HEADER_SIZE + MAX_EXTENT_DATA;
    /** Config slots in the header. */
    public static final int MAX_CONFIGS = 256;
    /** Device slots in the header (dev_id 0 is reserved). */
    public static final int DEVICE_SLOTS = 256;
    /** Highest dev_id the writer hands out. */
    public static final int MAX_DEVICE_ID = 254;
    /** Largest blob payload (the length prefix is a u16). */
    public static final int MAX_BLOB_SIZE = 65535;
    /** Name of the VM state pseudo-device ({@code docs/vma.md#zero-blocks-order-and-vmstate}). */
    public static final String VMSTATE = "vmstate";
    /** A target may be up to this much larger than the recorded device size ({@code docs/vma.md#the-vma-tool}). */
    public static final long TARGET_SIZE_SLACK = 4L * 1024 * 1024;

    // header field offsets
    static final int OFF_VERSION = 4;
    static final int OFF_UUID = 8;
    static final int OFF_CTIME = 24;
    static final int OFF_MD5 = 32;
    static final int OFF_BLOB_OFFSET = 48;
    static final int OFF_BLOB_SIZE = 52;
    static final int OFF_HEADER_SIZE = 56;
    static final int OFF_CONFIG_NAMES = 2044;
    static final int OFF_CONFIG_DATA = 3068;
    static final int OFF_DEV_INFO = 4096;
    static final int DEV_INFO_SIZE = 32;

    /** Number of clusters covering {@code size} bytes: {@code ceil(size / 65536)}. */
    public static long clusterCount(long size) {
        return (size + CLUSTER_SIZE - 1) / CLUSTER_SIZE;
    }
}
