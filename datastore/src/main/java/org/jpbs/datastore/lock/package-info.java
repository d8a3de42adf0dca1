/**
 * Locks: the datastore process lock ({@code .lock}, POSIX fcntl, shared for writers and
 * exclusive for garbage collection, compatible with PBS), in-process path locks (manifest
 * updates), {@link org.jpbs.datastore.lock.DirLock} (flock on group and snapshot
 * directories, as PBS: one backup writer per group, snapshots in use cannot be removed) and {@link org.jpbs.datastore.lock.LockedException}. Every lock attempt
 * is non-blocking.
 */
package org.jpbs.datastore.lock;
