package org.jpbs.jobs.sync;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.snapshot.SnapshotTarget;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.LocalSnapshotSource;
import org.jpbs.datastore.snapshot.LocalSnapshotTarget;
import org.jpbs.datastore.snapshot.SnapshotInfo;

/** A local datastore as one side of a sync (the target of a pull, the source of a push). */
public final class LocalEndpoint implements SyncEndpoint {
    private final String name;
    private final Datastore ds;

    /** @param name the datastore's name, for messages */
    public LocalEndpoint(String name, Datastore ds) {
        this.name = name;
        this.ds = ds;
    }

    @Override
    public String describe() {
        return "datastore '" + name + "'";
    }

    @Override
    public List<BackupNamespace> namespaces(BackupNamespace top, int maxDepth) throws IOException {
        if (!ds.namespaceExists(top)) {
            throw new IOException("namespace '" + top + "' not found in " + describe());
        }
        return ds.listNamespaces(top, maxDepth);
    }

    @Override
    public boolean namespaceExists(BackupNamespace ns) {
        return ns.isRoot() || ds.namespaceExists(ns);
    }

    @Override
    public void createNamespace(BackupNamespace ns) throws IOException {
        List<BackupNamespace> missing = new ArrayList<>();
        for (BackupNamespace n = ns; !n.isRoot() && !ds.namespaceExists(n); n = n.parent()) {
            missing.addFirst(n);
        }
        for (BackupNamespace n : missing) {
            ds.createNamespace(n);
        }
    }

    @Override
    public boolean removeNamespace(BackupNamespace ns) throws IOException {
        // as PBS: a vanished namespace goes with its groups (protected snapshots stay)
        return ds.removeNamespace(ns, true);
    }

    @Override
    public List<BackupGroupRef> groups(BackupNamespace ns) throws IOException {
        return ds.listGroups(ns);
    }

    @Override
    public List<Entry> snapshots(BackupGroupRef group) throws IOException {
        List<Entry> out = new ArrayList<>();
        for (SnapshotInfo s : ds.listSnapshots(group)) {
            out.add(new Entry(s.ref(), s.finished()));
        }
        return out;
    }

    @Override
    public Optional<String> owner(BackupGroupRef group) throws IOException {
        if (!java.nio.file.Files.exists(ds.groupDir(group).resolve("owner"))) {
            return Optional.empty(); // no such group (yet)
        }
        return Optional.ofNullable(ds.owner(group));
    }

    @Override
    public Optional<String> verifyState(BackupSnapshotRef ref) throws IOException {
        String s = ds.openSnapshot(ref).manifest().unprotected().path("verify_state").path("state").asText("");
        return s.isEmpty() ? Optional.empty() : Optional.of(s);
    }

    @Override
    public SnapshotSource openSource(BackupSnapshotRef ref) throws IOException {
        return LocalSnapshotSource.open(ds, ref);
    }

    @Override
    public SnapshotTarget begin(BackupSnapshotRef ref, String owner) throws IOException {
        return LocalSnapshotTarget.begin(ds, ref, owner, true);
    }

    @Override
    public Set<Digest> knownChunks(SnapshotTarget target, FileEntry entry, IndexFile sourceIndex) {
        // the index writer checks that each chunk's file exists (and touches it): ask about all
        Set<Digest> all = new java.util.HashSet<>();
        for (int i = 0; i < sourceIndex.chunkCount(); i++) {
            all.add(sourceIndex.digest(i));
        }
        return all;
    }

    @Override
    public void removeSnapshot(BackupSnapshotRef ref) throws IOException {
        ds.removeSnapshot(ref);
    }

    @Override
    public boolean removeGroup(BackupGroupRef group) throws IOException {
        return ds.removeGroup(group);
    }
}
