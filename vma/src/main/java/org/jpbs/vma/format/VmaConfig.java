package org.jpbs.vma.format;

/**
 * One configuration file stored in a VMA header ({@code docs/vma.md#main-header}), e.g.
 * {@code qemu-server.conf}. Its content is a raw blob of at most 65,535 bytes.
 *
 * @param name file name (no NUL), e.g. {@code qemu-server.conf}
 * @param data the file content (not copied; do not modify)
 */
public record VmaConfig(String name, byte[] data) {}
