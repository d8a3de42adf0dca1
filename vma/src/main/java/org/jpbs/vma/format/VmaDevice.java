package org.jpbs.vma.format;

/**
 * One device (disk image or the VM state stream) of a VMA archive ({@code docs/vma.md#main-header}, {@code docs/vma.md#zero-blocks-order-and-vmstate}).
 *
 * @param id   dev_id, 1..255 (the writer hands out 1..254)
 * @param name device name without the trailing NUL, e.g. {@code drive-scsi0}
 * @param size size in bytes (for {@code vmstate}: the state size)
 */
public record VmaDevice(int id, String name, long size) {
    /** Checks the id range and that the size is not negative. */
    public VmaDevice {
        if (id < 1 || id >= Vma.DEVICE_SLOTS) {
            throw new IllegalArgumentException("dev_id must be 1..255, got " + id);
        }
        if (size < 0) {
            throw new IllegalArgumentException("device " + name + ": negative size " + size);
        }
    }

    /** True for the VM state pseudo-device {@code vmstate}, whose clusters come strictly in order. */
    public boolean isVmstate() {
        return Vma.VMSTATE.equals(name);
    }

    /** Clusters of 64 KiB covering the device, {@code ceil(size / 65536)}. */
    public long clusterCount() {
        return Vma.clusterCount(size);
    }
}
