/**
 * The VMA byte layout ({@code docs/vma.md#format}): constants, the main header with its
 * blob table of configs and device names ({@link org.jpbs.vma.format.VmaHeader}), and the
 * 512-byte extent header with its 59 block-info slots ({@link org.jpbs.vma.format.ExtentHeader}).
 * Everything is big-endian except the 2-byte blob lengths, which are little-endian. Pure
 * codecs: no I/O.
 */
package org.jpbs.vma.format;
