package org.jpbs.jobs.sync;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jpbs.client.http.Query;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.RemoteSnapshotSource;
import org.jpbs.client.remote.RemoteSnapshotTarget;
import org.jpbs.client.remote.RemoteSnapshots;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.index.IndexFile;
import org.jpbs.core.manifest.BackupManifest;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.core.snapshot.SnapshotTarget;

/**
 * A datastore on a jpbs or PBS server as one side of a sync: listings over the REST API
 * ({@code admin/datastore/{store}/snapshots}, {@code .../namespace}), snapshots read over a
 * reader session and written over a backup session. Snapshot listings are read once per
 * namespace and kept for the run.
 */
public final class RemoteEndpoint implements SyncEndpoint {
    private record Listed(boolean finished, String owner, String verifyState) {}

    private final String remote;
    private final PbsClient pbs;
    private final int uploadConcurrency;
    private final Map<BackupNamespace, Map<BackupGroupRef, Map<Long, Listed>>> listings = new HashMap<>();

    /** @param remote the remote's name in {@code remote.cfg} (for messages) */
    public RemoteEndpoint(String remote, PbsClient pbs, int uploadConcurrency) {
        this.remote = remote;
        this.pbs = pbs;
        this.uploadConcurrency = uploadConcurrency;
    }

    @Override
    public String describe() {
        return "remote '" + remote + "' (" + pbs.repository().hostAndPort() + "), datastore '"
                + pbs.repository().store() + "'";
    }

    @Override
    public List<BackupNamespace> namespaces(BackupNamespace top, int maxDepth) throws IOException {
        List<BackupNamespace> out = new ArrayList<>();
        for (BackupNamespace ns : RemoteSnapshots.namespaces(pbs)) {
            if (isBelow(ns, top) && ns.depth() - top.depth() <= maxDepth) {
                out.add(ns);
            }
        }
        if (!out.contains(top)) {
            throw new IOException("namespace '" + top + "' not found on " + describe());
        }
        out.sort(Comparator.comparing(BackupNamespace::toString));
        return out;
    }

    static boolean isBelow(BackupNamespace ns, BackupNamespace top) {
        List<String> a = ns.components();
        List<String> b = top.components();
        return a.size() >= b.size() && a.subList(0, b.size()).equals(b);
    }

    @Override
    public boolean namespaceExists(BackupNamespace ns) throws IOException {
        return RemoteSnapshots.namespaces(pbs).contains(ns);
    }

    @Override
    public void createNamespace(BackupNamespace ns) throws IOException {
        Set<BackupNamespace> have = new HashSet<>(RemoteSnapshots.namespaces(pbs));
        BackupNamespace parent = BackupNamespace.ROOT;
        for (String c : ns.components()) {
            BackupNamespace n = parent.child(c);
            if (!have.contains(n)) {
                ObjectNode body = JsonNodeFactory.instance.objectNode().put("name", c);
                if (!parent.isRoot()) {
                    body.put("parent", parent.toString());
                }
                pbs.post(pbs.datastorePath() + "/namespace", body);
            }
            parent = n;
        }
    }

    @Override
    public boolean removeNamespace(BackupNamespace ns) throws IOException {
        pbs.delete(pbs.datastorePath() + "/namespace", Query.of().add("ns", ns.toString()).add("delete-groups", "true"));
        return true;
    }

    private Map<BackupGroupRef, Map<Long, Listed>> listing(BackupNamespace ns) throws IOException {
        Map<BackupGroupRef, Map<Long, Listed>> m = listings.get(ns);
        if (m != null) {
            return m;
        }
        m = new LinkedHashMap<>();
        JsonNode data = pbs.get(pbs.datastorePath() + "/snapshots", Query.of().add("ns", ns.isRoot() ? null : ns.toString()));
        for (JsonNode s : data) {
            BackupGroupRef g = new BackupGroupRef(ns, BackupType.parse(s.path("backup-type").asText()),
                    s.path("backup-id").asText());
            boolean finished = false;
            for (JsonNode f : s.path("files")) {
                finished |= (f.isTextual() ? f.asText() : f.path("filename").asText()).equals("index.json.blob");
            }
            String state = s.path("verification").path("state").asText(null);
            m.computeIfAbsent(g, k -> new java.util.TreeMap<>()).put(s.path("backup-time").asLong(),
                    new Listed(finished, s.path("owner").asText(null), state));
        }
        listings.put(ns, m);
        return m;
    }

    @Override
    public List<BackupGroupRef> groups(BackupNamespace ns) throws IOException {
        List<BackupGroupRef> out = new ArrayList<>(listing(ns).keySet());
        out.sort(Comparator.comparing(BackupGroupRef::toString));
        return out;
    }

    @Override
    public List<Entry> snapshots(BackupGroupRef group) throws IOException {
        List<Entry> out = new ArrayList<>();
        listing(group.ns()).getOrDefault(group, Map.of())
                .forEach((t, l) -> out.add(new Entry(new BackupSnapshotRef(group, t), l.finished())));
        return out;
    }

    @Override
    public Optional<String> owner(BackupGroupRef group) throws IOException {
        return listing(group.ns()).getOrDefault(group, Map.of()).values().stream()
                .map(Listed::owner).filter(o -> o != null).findFirst();
    }

    @Override
    public Optional<String> verifyState(BackupSnapshotRef ref) throws IOException {
        Listed l = listing(ref.group().ns()).getOrDefault(ref.group(), Map.of()).get(ref.time());
        return l == null ? Optional.empty() : Optional.ofNullable(l.verifyState());
    }

    @Override
    public SnapshotSource openSource(BackupSnapshotRef ref) throws IOException {
        return RemoteSnapshotSource.open(pbs, ref);
    }

    @Override
    public SnapshotTarget begin(BackupSnapshotRef ref, String owner) throws IOException {
        listings.remove(ref.group().ns());
        return RemoteSnapshotTarget.start(pbs, ref, uploadConcurrency);
    }

    @Override
    public Set<Digest> knownChunks(SnapshotTarget target, FileEntry entry, IndexFile sourceIndex) throws IOException {
        Set<Digest> out = new HashSet<>();
        Optional<BackupManifest> prev;
        try {
            prev = target.previousManifest();
        } catch (IOException e) {
            return out; // no usable previous snapshot: every chunk is uploaded (the server dedups)
        }
        Optional<FileEntry> pe = prev.flatMap(m -> m.file(entry.filename()));
        if (pe.isPresent() && pe.get().filename().equals(entry.filename())) {
            IndexFile idx = target.previousIndex(pe.get());
            for (int i = 0; i < idx.chunkCount(); i++) {
                out.add(idx.digest(i));
            }
        }
        return out;
    }

    @Override
    public void removeSnapshot(BackupSnapshotRef ref) throws IOException {
        pbs.delete(pbs.datastorePath() + "/snapshots", query(ref.group()).add("backup-time", String.valueOf(ref.time())));
        listings.remove(ref.group().ns());
    }

    @Override
    public boolean removeGroup(BackupGroupRef group) throws IOException {
        pbs.delete(pbs.datastorePath() + "/groups", query(group));
        listings.remove(group.ns());
        return true;
    }

    private static Query query(BackupGroupRef g) {
        return Query.of().add("backup-type", g.type().text()).add("backup-id", g.id())
                .add("ns", g.ns().isRoot() ? null : g.ns().toString());
    }
}
