package org.jpbs.cli.manage;

import org.jpbs.cli.UsageException;
import org.jpbs.cli.commands.Snapshots;
import org.jpbs.core.api.BackupSnapshotRef;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The {@code SNAPSHOT} argument ({@code type/id/time}) and {@code --ns} of the snapshot commands. */
public final class SnapshotArgs {
    @Option(names = "--ns", paramLabel = "NS", description = "Namespace of the snapshot (default: root).")
    String ns;

    @Parameters(index = "0", paramLabel = "SNAPSHOT", description = "The snapshot: type/id/time, e.g. vm/100/2024-01-02T03:04:05Z.")
    String snapshot;

    /** The snapshot (a malformed value is a usage error). */
    BackupSnapshotRef ref() {
        try {
            return BackupSnapshotRef.parse(Snapshots.namespace(ns), snapshot);
        } catch (UsageException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new UsageException("SNAPSHOT: " + e.getMessage(), e);
        }
    }
}
