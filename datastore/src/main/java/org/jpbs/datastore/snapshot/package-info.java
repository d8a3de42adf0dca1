/**
 * The datastore as PBS lays it out (spec {@code pbs-formats.md} §7, §8): namespaces, backup
 * groups with their owner, snapshots with manifest and archives. Listing, reading with
 * manifest checks, writing new snapshots atomically (hidden temp directory, renamed on
 * commit), protection and removal.
 */
package org.jpbs.datastore.snapshot;
