/**
 * The datastore as PBS lays it out ({@code docs/formats.md#datastore-layout}, {@code docs/formats.md#manifest-indexjsonblob}): namespaces, backup
 * groups with their owner, snapshots with manifest and archives. Listing, reading with
 * manifest checks, writing new snapshots atomically (hidden temp directory, renamed on
 * commit), protection and removal.
 */
package org.jpbs.datastore.snapshot;
