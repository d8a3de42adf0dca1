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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
        List<String> stores = DatastoreApi.names(acc).stream().filter(n -> only.isEmpty() || only.get().equals(n)).toList();
        List<Row> rows;
        try { // the datastores are read in parallel (the common pool: one thread per core)
            rows = stores.parallelStream().flatMap(store -> rowsOf(acc, store, now - age).stream())
                    .collect(java.util.stream.Collectors.toCollection(ArrayList::new));
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
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

    /** The visible stale groups of one datastore; none if the caller may list nothing there or it cannot be opened. */
    private static List<Row> rowsOf(Access acc, String store, long before) {
        long want = Access.AUDIT | Access.BACKUP;
        if ((acc.privileges(store, BackupNamespace.ROOT) & want) == 0 && !acc.anyPrivsBelow(store, want)) {
            return List.of(); // nothing listable here: the datastore is not even opened
        }
        DatastoreHandle h;
        try {
            h = acc.lookup(store, Operation.READ);
        } catch (IOException e) {
            return List.of(); // offline, in maintenance, or its path is gone
        }
        List<Row> rows = new ArrayList<>();
        try (h) {
            collect(acc, store, h.datastore(), before, rows);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return rows;
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
                Summary sum = summary(ds.groupDir(g));
                long last = sum.last();
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
                rows.add(new Row(store, ns, g, last, sum.count(), owner));
            }
        }
    }

    /**
     * What a group's listing says: snapshot count and {@code last-backup}. {@code settled}: the
     * newest snapshot is finished, so only a change of the group directory (a snapshot added or
     * removed, which changes its mtime) can change these.
     */
    record Summary(long mtime, int count, long last, boolean settled) {}

    /** Group directory → its last summary; a server has at most some 100,000 groups. */
    private static final Map<Path, Summary> SUMMARIES = new ConcurrentHashMap<>();
    /** A directory changed this recently may change again within the same timestamp tick: not reused. */
    private static final long RACY_NANOS = 2_000_000_000L;

    /**
     * The group's summary, from {@link #SUMMARIES} while its directory's mtime is unchanged and
     * the summary settled (one {@code stat} instead of listing the group), else read anew.
     */
    static Summary summary(Path dir) throws IOException {
        long mtime;
        try {
            mtime = Files.getLastModifiedTime(dir).to(TimeUnit.NANOSECONDS);
        } catch (NoSuchFileException e) {
            return new Summary(0, 0, -1, false);
        }
        Summary cached = SUMMARIES.get(dir);
        if (cached != null && cached.settled() && cached.mtime() == mtime) {
            return cached;
        }
        List<String> names = snapshotNames(dir);
        long last = lastFinished(dir, names);
        boolean settled = !names.isEmpty() && DatastoreLayout.timeOfDir(names.getFirst()).orElse(-1L) == last
                && System.currentTimeMillis() * 1_000_000L - mtime > RACY_NANOS;
        Summary s = new Summary(mtime, names.size(), last, settled);
        if (SUMMARIES.size() > 1_000_000) {
            SUMMARIES.clear();
        }
        SUMMARIES.put(dir, s);
        return s;
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
