package org.jpbs.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.errors.ProtectedException;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.H2Response;
import org.jpbs.server.http.HiddenPaths;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.rrd.RrdStore;
import org.jpbs.server.rrd.UsageHistory;

/**
 * The per-datastore calls under {@code /api2/json/admin/datastore/{store}} ({@code docs/api.md#admindatastorestore}) with the PBS permission rules: listing needs
 * {@code Datastore.Audit} (or {@code Datastore.Backup}, then only owned groups), files and
 * download {@code Datastore.Read} (or Backup + owner), forget {@code Datastore.Modify} (or
 * Prune + owner). Parameters are validated before anything is read; nothing is changed on a
 * failure. Stateless.
 */
final class DatastoreApi {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = org.jpbs.server.http.Json.MAPPER;
    private static final Pattern DOWNLOADABLE = Pattern.compile(".*\\.(?:fidx|didx|blob)");
    private static final long NS_PRIVS = Access.MODIFY | Access.BACKUP | Access.AUDIT;

    private DatastoreApi() {}

    /** {@code GET .../groups} ({@code ns}). */
    static RestResponse groups(Access acc, String store, ApiParams p) throws IOException {
        BackupNamespace ns = p.namespace("ns");
        boolean all = acc.checkFull(store, ns, Access.AUDIT, Access.BACKUP);
        try (DatastoreHandle h = acc.lookup(store, Operation.READ)) {
            Datastore ds = h.datastore();
            requireNamespace(ds, ns);
            ArrayNode out = F.arrayNode();
            for (BackupGroupRef g : ds.listGroups(ns)) {
                Optional<String> owner = owner(ds, g);
                if (owner.isEmpty() || (!all && !acc.owns(owner.get()))) {
                    continue;
                }
                ObjectNode item = SnapshotJson.group(ds, g, owner.get());
                if (item != null) {
                    out.add(item);
                }
            }
            return RestResponse.data(out);
        }
    }

    /**
     * {@code GET .../snapshots} ({@code ns}, {@code backup-type}, {@code backup-id} filters),
     * streamed: the answer is written snapshot by snapshot as it is read, so memory does not
     * grow with the number of snapshots (per group only the sorted snapshot times are held,
     * 8 bytes each). Checks and the datastore lookup happen first, so refusals still get their
     * status code.
     */
    static RestResponse snapshots(Access acc, String store, ApiParams p) throws IOException {
        Optional<String> id = p.optBackupId();
        Optional<BackupType> type = p.optBackupType();
        BackupNamespace ns = p.namespace("ns");
        boolean all = acc.checkFull(store, ns, Access.AUDIT, Access.BACKUP);
        DatastoreHandle h = acc.lookup(store, Operation.READ);
        try {
            Datastore ds = h.datastore();
            requireNamespace(ds, ns);
            List<BackupGroupRef> groups = ds.listGroups(ns);
            return RestResponse.streamed(H2Response.JSON_UTF8, out -> {
                try (h; JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
                    g.writeStartObject();
                    g.writeFieldName("data");
                    g.writeStartArray();
                    for (BackupGroupRef group : groups) {
                        if (type.isPresent() && group.type() != type.get() || id.isPresent() && !group.id().equals(id.get())) {
                            continue;
                        }
                        Optional<String> owner = owner(ds, group);
                        if (owner.isEmpty() || (!all && !acc.owns(owner.get()))) {
                            continue;
                        }
                        for (long t : SnapshotJson.snapshotTimes(ds, group)) {
                            ObjectNode item = SnapshotJson.snapshot(ds, new BackupSnapshotRef(group, t), owner.get());
                            if (item != null) {
                                MAPPER.writeTree(g, item);
                            }
                        }
                    }
                    g.writeEndArray();
                    g.writeEndObject();
                }
            });
        } catch (IOException | RuntimeException e) {
            h.close();
            throw e;
        }
    }

    /**
     * {@code GET .../namespace} ({@code parent}, default the root; {@code max-depth}, 0..7): the
     * parent and the namespaces below it (at most {@code max-depth} levels deeper) on which the
     * caller has {@code Datastore.Audit}, {@code .Modify} or {@code .Backup}, as
     * {@code [{"ns":"a/b"}]} (root: {@code ""}), as PBS: without privileges on the parent the
     * answer is 403 {@code "permission check failed"} if nothing below is visible either (so
     * the existence of a namespace does not leak).
     */
    static RestResponse namespaces(Access acc, String store, ApiParams p) throws IOException {
        Optional<Long> maxDepth = p.optInteger("max-depth", 0, BackupNamespace.MAX_DEPTH);
        BackupNamespace parent = p.namespace("parent");
        boolean parentAccess = (acc.privileges(store, parent) & NS_PRIVS) != 0;
        DatastoreHandle handle;
        try {
            handle = acc.lookup(store, Operation.READ);
        } catch (IOException | ApiException e) {
            if (!parentAccess) { // unknown, offline or unreadable: answered as a store where nothing is visible
                throw new ApiException(403, "permission check failed");
            }
            throw e;
        }
        try (DatastoreHandle h = handle) {
            Datastore ds = h.datastore();
            if (!ds.namespaceExists(parent)) {
                if (!parentAccess) {
                    throw new ApiException(403, "permission check failed");
                }
                requireNamespace(ds, parent);
            }
            ArrayNode out = F.arrayNode();
            int depth = maxDepth.map(Long::intValue).orElse(BackupNamespace.MAX_DEPTH);
            for (BackupNamespace ns : ds.listNamespaces(parent, depth)) {
                if ((acc.privileges(store, ns) & NS_PRIVS) != 0) {
                    out.add(F.objectNode().put("ns", ns.toString()));
                }
            }
            if (out.isEmpty() && !parentAccess) {
                throw new ApiException(403, "permission check failed");
            }
            return RestResponse.data(out);
        }
    }

    /** The snapshot named by {@code backup-type}, {@code backup-id}, {@code backup-time}, {@code ns}. */
    static BackupSnapshotRef snapshotParam(ApiParams p) {
        String id = p.backupId();
        long time = p.backupTime();
        BackupType type = p.backupType();
        BackupNamespace ns = p.namespace("ns");
        return new BackupSnapshotRef(new BackupGroupRef(ns, type, id), time);
    }

    /**
     * Privilege check of a snapshot call, with the owner check when only {@code partial}
     * applies; then the datastore lookup for {@code op} (the caller closes the handle).
     */
    static DatastoreHandle checkSnapshotAccess(Access acc, String store, BackupSnapshotRef ref, long full,
                                               long partial, Operation op) throws IOException {
        BackupNamespace ns = ref.group().ns();
        boolean all = acc.checkFull(store, ns, full, partial);
        DatastoreHandle h = acc.lookup(store, op);
        if (!all) {
            Optional<String> owner = owner(h.datastore(), ref.group());
            try {
                if (owner.isEmpty()) {
                    throw ApiException.badRequest("backup group '" + ref.group() + "' does not exist");
                }
                acc.checkOwner(owner.get());
            } catch (RuntimeException e) {
                h.close();
                throw e;
            }
        }
        return h;
    }

    /** {@code GET .../files} (backup-type, backup-id, backup-time, ns). */
    static RestResponse files(Access acc, String store, ApiParams p) throws IOException {
        BackupSnapshotRef ref = snapshotParam(p);
        try (DatastoreHandle h = checkSnapshotAccess(acc, store, ref, Access.AUDIT | Access.READ, Access.BACKUP,
                Operation.READ)) {
            Datastore ds = h.datastore();
            requireSnapshot(ds, ref);
            return RestResponse.data(SnapshotJson.contents(ds, ref).files());
        } catch (NoSuchFileException e) {
            throw ApiException.badRequest("snapshot " + describe(ref) + " does not exist");
        }
    }

    /** {@code GET .../download} (file-name + snapshot): the raw file as {@code application/octet-stream}. */
    static RestResponse download(Access acc, String store, ApiParams p) throws IOException {
        String fileName = p.fileName();
        BackupSnapshotRef ref = snapshotParam(p);
        try (DatastoreHandle h = checkSnapshotAccess(acc, store, ref, Access.READ, Access.BACKUP, Operation.READ)) {
            Path file = h.datastore().snapshotDir(ref).resolve(fileName);
            if (!DOWNLOADABLE.matcher(fileName).matches() || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw ApiException.badRequest("File open failed: No such file or directory (os error 2)");
            }
            byte[] body = Files.readAllBytes(file);
            return new RestResponse(200, H2Response.OCTET_STREAM, body, Map.of());
        }
    }

    /** {@code DELETE .../snapshots} (forget: backup-type, backup-id, backup-time, ns). */
    static RestResponse forget(Access acc, String store, ApiParams p) throws IOException {
        BackupSnapshotRef ref = snapshotParam(p);
        try (DatastoreHandle h = checkSnapshotAccess(acc, store, ref, Access.MODIFY, Access.PRUNE, Operation.WRITE)) {
            Datastore ds = h.datastore();
            requireSnapshot(ds, ref);
            try {
                ds.removeSnapshot(ref);
            } catch (ProtectedException e) {
                throw ApiException.badRequest("cannot remove protected snapshot"); // PBS's text, without the name
            } catch (NoSuchFileException e) {
                throw ApiException.badRequest("snapshot " + describe(ref) + " does not exist");
            }
            return RestResponse.data(NullNode.getInstance());
        }
    }

    /**
     * {@code GET .../status} ({@code verbose}): {@code total}, {@code used}, {@code avail} in
     * bytes (of the file system), with {@code verbose} also {@code counts} (groups and
     * snapshots per type over all namespaces; a type without groups is null) and
     * {@code gc-status} (the {@code .gc-status} file, only with {@code Datastore.Audit}).
     */
    static RestResponse status(Access acc, String store, ApiParams p) throws IOException {
        long privs = acc.privileges(store, BackupNamespace.ROOT);
        if ((privs & (Access.AUDIT | Access.BACKUP)) == 0) {
            throw new ApiException(403, "permission check failed");
        }
        boolean verbose = p.bool("verbose", false);
        boolean audit = (privs & Access.AUDIT) != 0;
        try (DatastoreHandle h = acc.lookup(store, Operation.READ)) {
            Datastore ds = h.datastore();
            FileStore fs = fileStore(ds);
            long total = fs.getTotalSpace();
            ObjectNode o = F.objectNode();
            o.put("avail", fs.getUsableSpace());
            if (verbose) {
                o.set("counts", counts(ds, audit ? null : acc));
                if (audit) {
                    o.set("gc-status", gcStatus(ds));
                }
            }
            o.put("total", total);
            o.put("used", total - fs.getUnallocatedSpace());
            return RestResponse.data(o);
        }
    }

    /**
     * The file store of a datastore, cached per root: {@link Files#getFileStore} scans the mount
     * table, while the space queries of the returned object are one {@code statvfs} each.
     */
    static FileStore fileStore(Datastore ds) throws IOException {
        FileStore fs = FILE_STORES.get(ds.root());
        if (fs == null) {
            fs = Files.getFileStore(ds.root());
            if (FILE_STORES.size() > 10_000) {
                FILE_STORES.clear();
            }
            FILE_STORES.put(ds.root(), fs);
        }
        return fs;
    }

    private static final java.util.concurrent.ConcurrentHashMap<Path, FileStore> FILE_STORES =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * {@code GET .../gc}: the last garbage collection's status (the {@code .gc-status} file, or
     * all counters 0 if there was none); needs {@code Datastore.Audit}.
     */
    static RestResponse gc(Access acc, String store, ApiParams p) throws IOException {
        if ((acc.privileges(store, BackupNamespace.ROOT) & Access.AUDIT) == 0) {
            throw new ApiException(403, "permission check failed");
        }
        try (DatastoreHandle h = acc.lookup(store, Operation.READ)) {
            return RestResponse.data(gcStatus(h.datastore()));
        }
    }

    /**
     * {@code GET /api2/json/status/datastore-usage}: per visible store {@code {"store","total",
     * "used","avail","history","history-start","history-delta","gc-status","estimated-full-date"?}};
     * {@code history} is {@value UsageHistory#POINTS} used/total fractions from the metrics store
     * (null where not sampled), kept ready by the sampler ({@link UsageHistory}). A store seen only through a namespace ACL gives {@code {"store"}};
     * one whose lookup fails (e.g. offline) {@code {"error","store"}} (the error without server paths, {@link HiddenPaths}). Config order. With {@code history=0}
     * (a jpbs extension, for the dashboard) the three history fields are left out.
     */
    static RestResponse usage(Access acc, ApiParams p, long now) throws IOException {
        UsageHistory usage = RrdStore.forConfigDir(acc.auth().configDir()).usage();
        boolean withHistory = p.bool("history", true);
        ArrayNode out = F.arrayNode();
        for (String store : names(acc)) { // config order, as PBS
            long privs = acc.privileges(store, BackupNamespace.ROOT);
            if ((privs & (Access.AUDIT | Access.BACKUP)) == 0) {
                if (acc.anyPrivsBelow(store, NS_PRIVS | Access.READ)) {
                    out.add(F.objectNode().put("store", store));
                }
                continue;
            }
            DatastoreHandle handle;
            try {
                handle = acc.lookup(store, Operation.READ);
            } catch (IOException e) {
                out.addObject().put("error", HiddenPaths.hide(String.valueOf(e.getMessage()))).put("store", store);
                continue;
            }
            try (handle) {
                Datastore ds = handle.datastore();
                FileStore fs = fileStore(ds);
                long total = fs.getTotalSpace();
                ObjectNode o = out.addObject();
                o.put("avail", fs.getUsableSpace());
                UsageHistory.Entry history = usage.get(store, now);
                if (history.estimate().isPresent()) {
                    o.put("estimated-full-date", history.estimate().getAsLong());
                }
                o.set("gc-status", gcStatus(ds));
                if (withHistory) {
                    o.putRawValue("history", new RawValue(history.json()));
                    o.put("history-delta", UsageHistory.DELTA);
                    o.put("history-start", history.start());
                }
                o.put("store", store);
                o.put("total", total);
                o.put("used", total - fs.getUnallocatedSpace());
            }
        }
        return RestResponse.data(out);
    }

    /** Names of all configured datastores. */
    static List<String> names(Access acc) throws IOException {
        List<String> out = new java.util.ArrayList<>();
        for (DatastoreConfig c : acc.stores().list()) {
            out.add(c.name());
        }
        return out;
    }

    private static ObjectNode counts(Datastore ds, Access ownerFilter) throws IOException {
        Map<BackupType, long[]> c = new EnumMap<>(BackupType.class);
        for (BackupNamespace ns : ds.listNamespaces()) {
            for (BackupGroupRef g : ds.listGroups(ns)) {
                if (ownerFilter != null) {
                    Optional<String> owner = owner(ds, g);
                    if (owner.isEmpty() || !ownerFilter.owns(owner.get())) {
                        continue;
                    }
                }
                int n = SnapshotJson.snapshotRefs(ds, g).size();
                if (n == 0) {
                    continue;
                }
                long[] v = c.computeIfAbsent(g.type(), k -> new long[2]);
                v[0]++;
                v[1] += n;
            }
        }
        ObjectNode o = F.objectNode();
        for (String key : new String[] {"ct", "host", "other", "vm"}) {
            long[] v = key.equals("other") ? null : c.get(BackupType.parse(key));
            if (v == null) {
                o.putNull(key);
            } else {
                o.putObject(key).put("groups", v[0]).put("snapshots", v[1]);
            }
        }
        return o;
    }

    private static JsonNode gcStatus(Datastore ds) {
        Path f = ds.root().resolve(".gc-status");
        try {
            JsonNode n = MAPPER.readTree(Files.readAllBytes(f));
            if (n != null && n.isObject()) {
                return n;
            }
        } catch (IOException e) {
            // absent or unreadable: PBS answers the empty status
        }
        ObjectNode o = F.objectNode();
        for (String k : new String[] {"disk-bytes", "disk-chunks", "index-data-bytes", "index-file-count",
            "pending-bytes", "pending-chunks", "removed-bad", "removed-bytes", "removed-chunks", "still-bad"}) {
            o.put(k, 0);
        }
        return o;
    }

    private static Optional<String> owner(Datastore ds, BackupGroupRef g) {
        try {
            return Optional.of(ds.owner(g));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static void requireNamespace(Datastore ds, BackupNamespace ns) {
        if (!ds.namespaceExists(ns)) {
            throw ApiException.badRequest("namespace '" + ns + "' does not exist");
        }
    }

    static void requireSnapshot(Datastore ds, BackupSnapshotRef ref) {
        if (!Files.isDirectory(ds.snapshotDir(ref), LinkOption.NOFOLLOW_LINKS)) {
            throw ApiException.badRequest("snapshot " + describe(ref) + " does not exist");
        }
    }

    private static String describe(BackupSnapshotRef ref) {
        BackupNamespace ns = ref.group().ns();
        return (ns.isRoot() ? "" : "ns/" + ns + "/") + ref;
    }
}
