/**
 * Locks: the datastore process lock ({@code .lock}, POSIX fcntl, compatible with PBS: shared
 * for writers and for jpbs garbage collection, exclusive for a PBS one), the
 * {@link org.jpbs.datastore.lock.WriterRegistry} ({@code .writers/}: running writers of every
 * process with their start times, and the GC mutex), {@link org.jpbs.datastore.lock.LockHolders}
 * ({@code /proc/locks}), in-process path locks (manifest
 * updates), {@link org.jpbs.datastore.lock.DirLock} (flock on group and snapshot
 * directories, as PBS: one backup writer per group, snapshots in use cannot be removed) and {@link org.jpbs.datastore.lock.LockedException}. Every lock attempt
 * is non-blocking.
 */
package org.jpbs.datastore.lock;
