/**
 * Restoring the devices of a VMA archive to files or block devices ({@code docs/vma.md#zero-blocks-order-and-vmstate}, {@code docs/vma.md#the-vma-tool}, {@code docs/vma.md#restore-merged-and-sorted-writes}). {@link org.jpbs.vma.restore.VmaRestore} reads
 * extents on one thread and writes them on another; {@link org.jpbs.vma.restore.WriteMode}
 * chooses between upstream's one request per cluster or 4 KiB block, merged contiguous
 * writes in archive order, and merged writes after sorting each extent's entries by
 * (device, cluster); {@link org.jpbs.vma.restore.DeviceTarget} writes with or without
 * {@code O_DIRECT} and counts requests.
 */
package org.jpbs.vma.restore;
