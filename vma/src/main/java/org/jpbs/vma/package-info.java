/**
 * VMA archives, the backup format of Proxmox VE's vzdump ({@code docs/vma.md#format}, {@code docs/vma.md#the-vma-tool}, {@code docs/vma.md#vzdump-archives}): {@link org.jpbs.vma.format} holds the byte layout (header, blob table, extent
 * headers), {@link org.jpbs.vma.VmaReader} and {@link org.jpbs.vma.VmaWriter} read and write
 * archives strictly sequentially (a pipe is enough, nothing seeks), {@link org.jpbs.vma.stream}
 * wraps them in zstd, gzip or lzop streams, and {@link org.jpbs.vma.restore} writes the devices
 * of an archive to files or block devices with merged, optionally sorted, writes.
 */
package org.jpbs.vma;
