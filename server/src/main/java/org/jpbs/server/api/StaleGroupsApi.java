package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.snapshot.DatastoreLayout;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.routing.ApiParams;

/**
 * {@code GET /api2/json/status/stale-groups} (jpbs; {@code docs/api.md#without-datastore}): the
 * backup groups of every datastore whose newest snapshot is older than {@code older-than}
 * seconds, the oldest first, in one call instead of a {@code namespace} and a {@code groups}
 * call per datastore and namespace (the dashboard's question "which backups are not fresh").
 * A group is listed exactly when the caller's {@code groups} call would list it: per namespace,
 * every group with {@code Datastore.Audit}, only its own groups with {@code Datastore.Backup},
 * nothing otherwise (no error: stores and namespaces the caller may not list are left out, as
 * are datastores that cannot be opened, e.g. offline). {@code last-backup} and
 * {@code backup-count} are as in {@code groups}: the newest finished snapshot (else the newest)
 * and the number of snapshot directories.
 */
final class StaleGroupsApi {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** Default {@code older-than}: 36 hours (a daily backup missed once). */
    static final long DEFAULT_AGE = 36 * 3600;
    /** Default {@code limit}. */
    static final long DEFAULT_LIMIT = 100;

    private StaleGroupsApi() {}

    private record Row(String store, BackupNamespace ns, BackupGroupRef group, long last, int count, String owner) {}

    /** {@code GET status/stale-groups}: {@code {"data":[...], "total": N}}. */
    static RestResponse list(Access acc, ApiParams p, long now) throws IOException {
        long age = p.optInteger("older-than", 0, Long.MAX_VALUE).orElse(DEFAULT_AGE);
        long limit = p.optInteger("limit", 0, Integer.MAX_VALUE).orElse(DEFAULT_LIMIT);
        Optional<String> only = p.opt("store").map(ApiParams::store);
        List<Row> rows = new ArrayList<>();
        for (String store : DatastoreApi.names(acc)) {
            if (only.isPresent() && !only.get().equals(store)) {
                continue;
            }
            long want = Access.AUDIT | Access.BACKUP;
            if ((acc.privileges(store, BackupNamespace.ROOT) & want) == 0 && !acc.anyPrivsBelow(store, want)) {
                continue; // nothing listable here: the datastore is not even opened
            }
            DatastoreHandle h;
            try {
                h = acc.lookup(store, Operation.READ);
            } catch (IOException e) {
                continue; // offline, in maintenance, or its path is gone
            }
            try (h) {
                collect(acc, store, h.datastore(), now - age, rows);
            }
        }
        rows.sort(Comparator.comparingLong(Row::last).thenComparing(Row::store)
                .thenComparing(r -> r.ns().toString()).thenComparing(r -> r.group().type().text())
                .thenComparing(r -> r.group().id()));
        ArrayNode data = F.arrayNode();
        for (Row r : limit == 0 ? rows : rows.subList(0, (int) Math.min(limit, rows.size()))) {
            ObjectNode o = data.addObject();
            o.put("backup-count", r.count());
            o.put("backup-id", r.group().id());
            o.put("backup-type", r.group().type().text());
            o.put("last-backup", r.last());
            if (!r.ns().isRoot()) {
                o.put("ns", r.ns().toString());
            }
            o.put("owner", r.owner());
            o.put("store", r.store());
        }
        ObjectNode whole = F.objectNode();
        whole.set("data", data);
        whole.put("total", rows.size());
        return RestResponse.json(whole);
    }

    /** Adds the visible groups of {@code ds} whose newest snapshot is older than {@code before}. */
    private static void collect(Access acc, String store, Datastore ds, long before, List<Row> rows) throws IOException {
        for (BackupNamespace ns : ds.listNamespaces()) {
            long privs = acc.privileges(store, ns);
            boolean all = (privs & Access.AUDIT) != 0;
            if (!all && (privs & Access.BACKUP) == 0) {
                continue;
            }
            for (BackupGroupRef g : ds.listGroups(ns)) {
                Path dir = ds.groupDir(g);
                List<String> names = snapshotNames(dir);
                long last = lastFinished(dir, names);
                if (last < 0 || last >= before) {
                    continue; // no snapshot, or a recent one
                }
                String owner;
                try {
                    owner = ds.owner(g);
                } catch (IOException e) {
                    continue; // no owner: groups leaves it out too
                }
                if (!all && !acc.owns(owner)) {
                    continue;
                }
                rows.add(new Row(store, ns, g, last, names.size(), owner));
            }
        }
    }

    /**
     * The snapshot directory names of a group, newest first. The names are the fixed-width
     * {@code YYYY-MM-DDTHH:MM:SSZ}, so their text order is their time order: only the newest are
     * parsed ({@link #lastFinished}), not every one of a server's 100,000 snapshots.
     */
    static List<String> snapshotNames(Path groupDir) throws IOException {
        List<String> out = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(groupDir)) {
            for (Path p : s) {
                String n = p.getFileName().toString();
                if (looksLikeTime(n)) {
                    out.add(n);
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return List.of();
        }
        out.sort(Comparator.reverseOrder());
        return out;
    }

    private static boolean looksLikeTime(String n) {
        if (n.length() != 20 || n.charAt(4) != '-' || n.charAt(7) != '-' || n.charAt(10) != 'T' || n.charAt(13) != ':'
                || n.charAt(16) != ':' || n.charAt(19) != 'Z') {
            return false;
        }
        for (int i : new int[] {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18}) {
            if (n.charAt(i) < '0' || n.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * As {@code groups}' {@code last-backup}: the time of the newest snapshot with a manifest,
     * else of the newest; -1 without a snapshot.
     */
    static long lastFinished(Path groupDir, List<String> newestFirst) {
        long newest = -1;
        for (String n : newestFirst) {
            Optional<Long> t = DatastoreLayout.timeOfDir(n);
            if (t.isEmpty()) {
                continue;
            }
            if (newest < 0) {
                newest = t.get();
            }
            if (Files.isRegularFile(groupDir.resolve(n).resolve(DatastoreLayout.MANIFEST))) {
                return t.get();
            }
        }
        return newest;
    }
}
