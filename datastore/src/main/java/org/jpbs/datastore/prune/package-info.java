/**
 * Prune ({@code docs/gc.md#prune}): which snapshots of a group the keep options
 * keep ({@link org.jpbs.datastore.prune.PrunePlanner}, a pure function of the snapshot list, the
 * options and a time zone) and the removal of the others, oldest first
 * ({@link org.jpbs.datastore.prune.Pruner}). Protected snapshots are never removed and do not use
 * a slot; the rule that kept each snapshot is recorded when it is marked.
 */
package org.jpbs.datastore.prune;
