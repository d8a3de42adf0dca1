package org.jpbs.cli.commands;

import org.jpbs.cli.UsageException;
import java.io.IOException;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.RemoteSnapshots;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.snapshot.Datastore;

/** Parsing of the SNAPSHOT and {@code --ns} arguments shared by several commands. */
public final class Snapshots {
    private Snapshots() {}

    /**
     * Parses {@code --ns} ({@code null} or empty = root).
     *
     * @throws IllegalArgumentException naming the option
     */
    public static BackupNamespace namespace(String ns) {
        if (ns == null || ns.isEmpty() || ns.equals("/")) {
            return BackupNamespace.ROOT;
        }
        try {
            return BackupNamespace.parse(ns);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--ns: " + e.getMessage(), e);
        }
    }

    /**
     * Resolves {@code type/id/time} to that snapshot, or a group {@code type/id} to its latest
     * finished snapshot.
     *
     * @throws IllegalArgumentException naming the value if it is malformed or the group has no
     *         finished snapshot
     */
    public static BackupSnapshotRef resolve(Datastore ds, BackupNamespace ns, String spec) throws IOException {
        long slashes = spec.chars().filter(c -> c == '/').count();
        if (slashes == 1) {
            BackupGroupRef group = usage(() -> BackupGroupRef.parse(ns, spec));
            return ds.lastFinishedSnapshot(group).orElseThrow(() -> new IllegalArgumentException(
                    "no finished snapshot in group " + describe(group)));
        }
        if (slashes == 2) {
            return usage(() -> BackupSnapshotRef.parse(ns, spec));
        }
        throw new UsageException("invalid snapshot '" + spec
                + "' (expected <type>/<id>/<time> or a group <type>/<id>, e.g. host/myhost/2024-01-02T03:04:05Z)");
    }

    /**
     * As {@link #resolve(Datastore, BackupNamespace, String)}, on a server: a group's latest
     * finished snapshot is found with the REST snapshot listing.
     */
    public static BackupSnapshotRef resolve(PbsClient pbs, BackupNamespace ns, String spec) throws IOException {
        long slashes = spec.chars().filter(c -> c == '/').count();
        if (slashes == 1) {
            BackupGroupRef group = usage(() -> BackupGroupRef.parse(ns, spec));
            return RemoteSnapshots.latest(pbs, group).orElseThrow(() -> new IllegalArgumentException(
                    "no finished snapshot in group " + describe(group) + " on " + pbs.repository().hostAndPort()));
        }
        if (slashes == 2) {
            return usage(() -> BackupSnapshotRef.parse(ns, spec));
        }
        throw new UsageException("invalid snapshot '" + spec
                + "' (expected <type>/<id>/<time> or a group <type>/<id>, e.g. host/myhost/2024-01-02T03:04:05Z)");
    }

    /** {@code host/x} or {@code ns a/b: host/x}. */
    public static String describe(BackupGroupRef g) {
        return g.ns().isRoot() ? g.toString() : "ns " + g.ns() + ": " + g;
    }

    /** {@code host/x/T} or {@code ns a/b: host/x/T}. */
    public static String describe(BackupSnapshotRef s) {
        return s.group().ns().isRoot() ? s.toString() : "ns " + s.group().ns() + ": " + s;
    }

    /**
     * Parses a GROUP argument ({@code type/id}).
     *
     * @throws UsageException naming the value if it is malformed (e.g. {@code ../vm/100}): exit 2
     */
    public static BackupGroupRef group(BackupNamespace ns, String spec) {
        return usage(() -> BackupGroupRef.parse(ns, spec));
    }

    /** Runs a parse of a SNAPSHOT/GROUP argument; a malformed value is a usage error. */
    private static <T> T usage(java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (UsageException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }
}
