package org.jpbs.client.remote;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jpbs.client.http.HttpStatusException;
import org.jpbs.client.http.Query;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;

/**
 * Snapshot and namespace listings of a remote datastore over the REST API ({@code docs/api.md#admindatastorestore}): {@code GET /api2/json/admin/datastore/{store}/snapshots} and
 * {@code .../namespace}.
 */
public final class RemoteSnapshots {
    private RemoteSnapshots() {}

    /**
     * One snapshot as the server lists it.
     *
     * @param ref         the snapshot
     * @param finished    whether it has a manifest ({@code index.json.blob} is listed)
     * @param isProtected the protected flag
     * @param files       file names as listed (e.g. {@code disk.img.fidx}, {@code index.json.blob})
     * @param size        sum of the file sizes in bytes, or -1 if the server gives none (unfinished)
     * @param owner       the group owner, or null
     */
    public record Snapshot(BackupSnapshotRef ref, boolean finished, boolean isProtected, List<String> files, long size,
            String owner) {}

    /**
     * Lists the snapshots of a namespace, optionally of one group, oldest first within a group.
     *
     * @param group only this group (its namespace must be {@code ns}), or null for all
     */
    public static List<Snapshot> list(PbsClient pbs, BackupNamespace ns, BackupGroupRef group) throws IOException {
        Query q = Query.of().add("ns", ns.isRoot() ? null : ns.toString());
        if (group != null) {
            q.add("backup-type", group.type().text()).add("backup-id", group.id());
        }
        JsonNode data = pbs.get(pbs.datastorePath() + "/snapshots", q);
        List<Snapshot> out = new ArrayList<>();
        for (JsonNode s : data) {
            BackupGroupRef g = new BackupGroupRef(ns, BackupType.parse(s.path("backup-type").asText()),
                    s.path("backup-id").asText());
            BackupSnapshotRef ref = new BackupSnapshotRef(g, s.path("backup-time").asLong());
            List<String> files = new ArrayList<>();
            for (JsonNode f : s.path("files")) {
                files.add(f.isTextual() ? f.asText() : f.path("filename").asText());
            }
            boolean finished = files.contains(BackupClient.MANIFEST);
            out.add(new Snapshot(ref, finished, s.path("protected").asBoolean(false), List.copyOf(files),
                    s.has("size") ? s.path("size").asLong() : -1, s.path("owner").asText(null)));
        }
        out.sort(Comparator.comparing((Snapshot s) -> s.ref().group().toString()).thenComparingLong(s -> s.ref().time()));
        return out;
    }

    /** The namespaces of the datastore (root included), sorted by name; only the root if the server has no namespace API. */
    public static List<BackupNamespace> namespaces(PbsClient pbs) throws IOException {
        List<BackupNamespace> out = new ArrayList<>();
        out.add(BackupNamespace.ROOT);
        JsonNode data;
        try {
            data = pbs.get(pbs.datastorePath() + "/namespace", Query.of());
        } catch (HttpStatusException e) {
            if (e.status() == 404 || e.status() == 501) {
                return out;
            }
            throw e;
        }
        for (JsonNode n : data) {
            String s = n.path("ns").asText("");
            if (!s.isEmpty()) {
                out.add(BackupNamespace.parse(s));
            }
        }
        out.sort(Comparator.comparing(BackupNamespace::toString));
        return out;
    }

    /** The newest finished snapshot of a group, if any. */
    public static Optional<BackupSnapshotRef> latest(PbsClient pbs, BackupGroupRef group) throws IOException {
        BackupSnapshotRef best = null;
        for (Snapshot s : list(pbs, group.ns(), group)) {
            if (s.finished() && s.ref().group().equals(group) && (best == null || s.ref().time() > best.time())) {
                best = s.ref();
            }
        }
        return Optional.ofNullable(best);
    }
}
