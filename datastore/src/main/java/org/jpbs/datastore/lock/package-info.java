/**
 * Locks: the datastore process lock ({@code .lock}, POSIX fcntl, shared for writers and
 * exclusive for garbage collection, compatible with PBS), in-process path locks (one backup
 * writer per group) and {@link org.jpbs.datastore.lock.LockedException}. Every lock attempt
 * is non-blocking.
 */
package org.jpbs.datastore.lock;
