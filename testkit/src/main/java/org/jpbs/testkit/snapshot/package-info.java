/**
 * Contract suites for {@link org.jpbs.core.snapshot.SnapshotTarget} and
 * {@link org.jpbs.core.snapshot.SnapshotSource} ({@code docs/design.md#snapshot-source-and-target}):
 * abstract JUnit classes that every implementation (a local datastore, a server session) runs by
 * extending them and saying how to begin and open a snapshot. {@link org.jpbs.testkit.snapshot.SnapshotFixture}
 * makes the seeded archives both suites write.
 */
package org.jpbs.testkit.snapshot;
