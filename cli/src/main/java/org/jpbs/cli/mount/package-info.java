/**
 * {@code jpbs mount} / {@code jpbs unmount} ({@code docs/pxar.md#mount}): serves an
 * {@link org.jpbs.client.mount.ArchiveTree} read-only through FUSE (libfuse3 via the FFM
 * binding jfuse), checks the mount point and the FUSE device first, and finds mounts in
 * {@code /proc/self/mounts}. Knows nothing of repositories or snapshots (the commands open
 * those).
 */
package org.jpbs.cli.mount;
