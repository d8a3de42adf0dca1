package org.jpbs.cli.commands;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.client.progress.Units;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.RemoteSnapshots;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.manifest.FileEntry;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.snapshot.SnapshotInfo;
import org.jpbs.datastore.config.Operation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs snapshot list [--ns NS] [GROUP]}: a table of snapshots with columns snapshot,
 * size, files (archive names without {@code .fidx}/{@code .didx}/{@code .blob}, plus
 * {@code index.json}, as PBS shows them) and protected. Without {@code --ns} every namespace is
 * listed and, if there is more than the root, an NS column comes first.
 */
@Command(name = "list", description = "List snapshots (all namespaces unless --ns is given).")
public final class SnapshotListCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Mixin
    RepositoryOptions repo;

    @Option(names = "--ns", paramLabel = "NS", description = "Only this namespace (root: --ns '').")
    String ns;

    @Mixin
    OutputFormatOption format;

    @Parameters(index = "0", arity = "0..1", paramLabel = "GROUP", description = "Only this group, e.g. vm/100.")
    String group;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public SnapshotListCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        if (repo.isRemote(ctx)) {
            try (PbsClient pbs = repo.client(ctx)) {
                return listRemote(pbs);
            }
        }
        Datastore ds = repo.open(ctx, false, Operation.READ);
        List<BackupNamespace> namespaces;
        if (ns != null) {
            namespaces = List.of(Snapshots.namespace(ns));
        } else {
            Set<BackupNamespace> all = new LinkedHashSet<>();
            all.add(BackupNamespace.ROOT);
            all.addAll(ds.listNamespaces());
            namespaces = new ArrayList<>(all);
            namespaces.sort(Comparator.comparing(BackupNamespace::toString));
        }
        boolean nsColumn = ns == null && namespaces.size() > 1;
        List<String> header = new ArrayList<>(List.of("snapshot", "size", "files", "protected"));
        if (nsColumn) {
            header.addFirst("ns");
        }
        TextTable table = new TextTable(header);
        Renderer renderer = format.renderer(ctx);
        com.fasterxml.jackson.databind.node.ArrayNode json = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        for (BackupNamespace n : namespaces) {
            List<BackupGroupRef> groups = group != null ? List.of(Snapshots.group(n, group)) : ds.listGroups(n);
            for (BackupGroupRef g : groups.stream().sorted(Comparator.comparing(BackupGroupRef::toString)).toList()) {
                List<SnapshotInfo> snaps = new ArrayList<>(ds.listSnapshots(g));
                snaps.sort(Comparator.comparingLong(s -> s.ref().time()));
                for (SnapshotInfo s : snaps) {
                    json.add(localJson(s));
                    List<String> row = new ArrayList<>(List.of(s.ref().toString(),
                            s.finished() ? Units.bytes(s.totalSize()) : "-", files(s), s.isProtected() ? "yes" : "no"));
                    if (nsColumn) {
                        row.addFirst(n.isRoot() ? "/" : n.toString());
                    }
                    table.add(row);
                }
            }
        }
        if (!renderer.isText()) {
            renderer.json(json);
            return 0;
        }
        table.print(ctx.out());
        return 0;
    }

    /** A local snapshot in the API's shape ({@code GET .../snapshots}). */
    private static com.fasterxml.jackson.databind.node.ObjectNode localJson(SnapshotInfo s) {
        var o = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        o.put("backup-type", s.ref().group().type().text());
        o.put("backup-id", s.ref().group().id());
        o.put("backup-time", s.ref().time());
        var files = o.putArray("files");
        if (s.finished()) {
            files.addObject().put("filename", "index.json.blob");
            for (FileEntry f : s.files()) {
                files.addObject().put("filename", f.filename()).put("crypt-mode", f.cryptMode().text()).put("size", f.size());
            }
            o.put("size", s.totalSize());
        }
        o.put("protected", s.isProtected());
        return o;
    }

    /** The same table from the server's REST listing ({@code docs/api.md#admindatastorestore}). */
    private int listRemote(PbsClient pbs) throws IOException {
        List<BackupNamespace> namespaces = ns != null ? List.of(Snapshots.namespace(ns)) : RemoteSnapshots.namespaces(pbs);
        boolean nsColumn = ns == null && namespaces.size() > 1;
        List<String> header = new ArrayList<>(List.of("snapshot", "size", "files", "protected"));
        if (nsColumn) {
            header.addFirst("ns");
        }
        TextTable table = new TextTable(header);
        Renderer renderer = format.renderer(ctx);
        if (!renderer.isText()) {
            com.fasterxml.jackson.databind.node.ArrayNode all = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
            for (BackupNamespace n : namespaces) {
                org.jpbs.client.http.Query q = org.jpbs.client.http.Query.of().add("ns", n.isRoot() ? null : n.toString());
                if (group != null) {
                    BackupGroupRef g = BackupGroupRef.parse(n, group);
                    q.add("backup-type", g.type().text()).add("backup-id", g.id());
                }
                pbs.get(pbs.datastorePath() + "/snapshots", q).forEach(all::add);
            }
            renderer.json(all);
            return 0;
        }
        for (BackupNamespace n : namespaces) {
            BackupGroupRef g = group != null ? Snapshots.group(n, group) : null;
            for (RemoteSnapshots.Snapshot s : RemoteSnapshots.list(pbs, n, g)) {
                List<String> names = new ArrayList<>();
                for (String f : s.files()) {
                    int dot = f.lastIndexOf('.');
                    names.add(dot > 0 ? f.substring(0, dot) : f);
                }
                names.sort(null);
                List<String> row = new ArrayList<>(List.of(s.ref().toString(),
                        s.finished() && s.size() >= 0 ? Units.bytes(s.size()) : "-",
                        s.finished() ? String.join(" ", names) : "(unfinished)", s.isProtected() ? "yes" : "no"));
                if (nsColumn) {
                    row.addFirst(n.isRoot() ? "/" : n.toString());
                }
                table.add(row);
            }
        }
        table.print(ctx.out());
        return 0;
    }

    private static String files(SnapshotInfo s) {
        if (!s.finished()) {
            return "(unfinished)";
        }
        List<String> names = new ArrayList<>();
        names.add("index.json");
        for (FileEntry f : s.files()) {
            String n = f.filename();
            names.add(n.substring(0, n.lastIndexOf('.')));
        }
        names.sort(null);
        return String.join(" ", names);
    }
}
