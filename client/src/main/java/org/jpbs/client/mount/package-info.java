/**
 * What a mount shows ({@code docs/pxar.md#mount}): an archive of a snapshot as a read-only
 * tree of paths with attributes, contents, symbolic links and xattrs, independent of the FUSE
 * binding that serves it. {@link org.jpbs.client.mount.PxarTree} shows a file archive through
 * its goodbye tables, {@link org.jpbs.client.mount.ImageTree} an image archive as one file;
 * both read the archive's chunks on demand through a chunk cache
 * ({@link org.jpbs.core.pxar.IndexReadAt}).
 */
package org.jpbs.client.mount;
