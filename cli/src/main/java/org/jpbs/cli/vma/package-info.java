/**
 * {@code jpbs vma ...}: the commands of Proxmox VE's {@code vma} tool (create, list, config,
 * extract, verify) on top of the {@code vma} module, plus the conversion of a VMA archive to a
 * datastore snapshot and back (import, export), composed from the vma reader/writer, the
 * client's chunk processing and restore engines, and the datastore. Archives may be
 * {@code -} (standard input or output) and zstd-, gzip- or lzop-compressed.
 */
package org.jpbs.cli.vma;
