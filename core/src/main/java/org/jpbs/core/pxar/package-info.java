/**
 * The pxar archive format of Proxmox Backup ({@code docs/pxar.md}) as pure streams: a
 * {@link org.jpbs.core.pxar.PxarEncoder} that writes the item stream to any
 * {@link java.io.OutputStream} (a file, or the chunker of a dynamic index), and a
 * {@link org.jpbs.core.pxar.PxarDecoder} that reads one from any {@link java.io.InputStream}.
 * Neither knows about datastores or the network. Reading a directory tree from the file system
 * and writing one back lives in {@code org.jpbs.client.pxar.fs}; the catalog in
 * {@code org.jpbs.core.pxar.catalog}.
 */
package org.jpbs.core.pxar;
