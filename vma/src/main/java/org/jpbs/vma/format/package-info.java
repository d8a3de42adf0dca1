/**
 * The VMA byte layout (spec {@code vma-and-qemu-lib.md} §1): constants, the main header with its
 * blob table of configs and device names ({@link org.jpbs.vma.format.VmaHeader}), and the
 * 512-byte extent header with its 59 block-info slots ({@link org.jpbs.vma.format.ExtentHeader}).
 * Everything is big-endian except the 2-byte blob lengths, which are little-endian. Pure
 * codecs: no I/O.
 */
package org.jpbs.vma.format;
