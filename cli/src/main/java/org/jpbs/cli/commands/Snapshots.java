package org.jpbs.cli.commands;

import org.jpbs.cli.UsageException;
import java.io.IOException;
import org.jpbs.cli.CliContext;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.RemoteSnapshotSource;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.snapshot.LocalSnapshotSource;
import org.jpbs.client.remote.RemoteSnapshots;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.core.errors.NotFoundException;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;

/** Parsing of the SNAPSHOT and {@code --ns} arguments shared by several commands. */
public final class Snapshots {
    private Snapshots() {}

    /** What a command does with an open snapshot. */
    @FunctionalInterface
    public interface SourceBody<T> {
        T apply(SnapshotSource source) throws Exception;
    }

    /**
     * Opens snapshot {@code spec} (in namespace {@code ns}) of the repository for reading, from a
     * server ({@link RemoteSnapshotSource}, a reader session) or a local datastore
     * ({@link LocalSnapshotSource}), runs {@code body} on it and closes it.
     */
    public static <T> T read(CliContext ctx, RepositoryOptions repo, String ns, String spec, SourceBody<T> body)
            throws Exception {
        BackupNamespace namespace = namespace(ns);
        if (repo.isRemote(ctx)) {
            try (PbsClient pbs = repo.client(ctx);
                    SnapshotSource source = RemoteSnapshotSource.open(pbs, resolve(pbs, namespace, spec))) {
                return body.apply(source);
            }
        }
        Datastore ds = repo.open(ctx, false, Operation.READ);
        try (SnapshotSource source = LocalSnapshotSource.open(ds, resolve(ds, namespace, spec))) {
            return body.apply(source);
        }
    }

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
     * @throws IllegalArgumentException naming the value if it is malformed
     * @throws org.jpbs.core.errors.NotFoundException if the group has no finished snapshot
     */
    public static BackupSnapshotRef resolve(Datastore ds, BackupNamespace ns, String spec) throws IOException {
        long slashes = spec.chars().filter(c -> c == '/').count();
        if (slashes == 1) {
            BackupGroupRef group = usage(() -> BackupGroupRef.parse(ns, spec));
            return ds.lastFinishedSnapshot(group).orElseThrow(() -> new org.jpbs.core.errors.NotFoundException(null,
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

    /**
     * The manifest entry of an archive the user named ({@code docs/pxar.md}, README.md "Exit
     * codes"): {@code restore}, {@code mount} and {@code catalog shell} report a missing one alike.
     *
     * @param label      the snapshot as {@link #describe(BackupSnapshotRef)} writes it
     * @param asked      the ARCHIVE argument as the user typed it (named in the message)
     * @param serverName the file name it stands for in this snapshot
     * @throws NotFoundException {@code archive '<asked>' is not in snapshot <label> (it has: ...)}
     */
    public static FileEntry archive(BackupManifest manifest, String label, String asked, String serverName)
            throws NotFoundException {
        java.util.Optional<FileEntry> e = manifest.file(serverName);
        if (e.isEmpty()) {
            throw notInSnapshot(manifest, label, asked);
        }
        return e.get();
    }

    /** {@code archive '<asked>' is not in snapshot <label> (it has: <the manifest's files>)}: exit code 3. */
    public static NotFoundException notInSnapshot(BackupManifest manifest, String label, String asked) {
        java.util.List<String> names = manifest.files().stream().map(FileEntry::filename).toList();
        return new NotFoundException(null, "archive '" + asked + "' is not in snapshot " + label
                + " (it has: " + String.join(", ", names) + ")");
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
