/**
 * The one backup engine and the one restore engine ({@code docs/design.md#engines}): every
 * caller (the command line to a directory or a server, the hypervisor library, VMA import and
 * export) goes through {@link org.jpbs.client.engine.BackupEngine} over a
 * {@link org.jpbs.core.snapshot.SnapshotTarget} and {@link org.jpbs.client.engine.RestoreEngine}
 * over a {@link org.jpbs.core.snapshot.SnapshotSource}. The engines decide what is reused from the
 * previous snapshot, what goes into the manifest and how it is signed; callers only say which
 * archives, from where, to where.
 */
package org.jpbs.client.engine;
