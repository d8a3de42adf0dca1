package org.jpbs.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import org.jpbs.cli.CliContext;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.RemoteTasks;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.prune.PruneOptions;

/**
 * {@code gc}, {@code prune} and {@code verify} on a server repository: the job is started over
 * the API ({@code POST .../gc}, {@code .../prune} with {@code use-task}, {@code .../verify}), and
 * its task log is followed to the end on stdout, as proxmox-backup-client does. Exit 1 (an
 * {@link IllegalStateException}) if the task ended with an error. With a JSON output format the
 * task's UPID and exit status are printed instead of the log.
 */
final class RemoteJobs {
    private RemoteJobs() {}

    /** Starts a garbage collection and follows it. */
    static int gc(CliContext ctx, PbsClient pbs, OutputFormatOption fmt, OutputOptions out) throws Exception {
        JsonNode upid = pbs.post(pbs.datastorePath() + "/gc", null);
        return follow(ctx, pbs, upid, fmt, out, "garbage collection");
    }

    /**
     * Prunes a group: a dry run answers the list (a table: snapshot, date, keep/remove); a real run
     * starts a task ({@code use-task}) and follows it (an older server that answers the list gets the table).
     */
    static int prune(CliContext ctx, PbsClient pbs, BackupGroupRef g, PruneOptions keep, boolean dryRun,
            OutputFormatOption fmt, OutputOptions out) throws Exception {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("backup-type", g.type().text());
        body.put("backup-id", g.id());
        if (!g.ns().isRoot()) {
            body.put("ns", g.ns().toString());
        }
        put(body, "keep-last", keep.keepLast());
        put(body, "keep-hourly", keep.keepHourly());
        put(body, "keep-daily", keep.keepDaily());
        put(body, "keep-weekly", keep.keepWeekly());
        put(body, "keep-monthly", keep.keepMonthly());
        put(body, "keep-yearly", keep.keepYearly());
        body.put("dry-run", dryRun);
        if (!dryRun) {
            body.put("use-task", true);
        }
        JsonNode data = pbs.post(pbs.datastorePath() + "/prune", body);
        if (data.isTextual()) {
            return follow(ctx, pbs, data, fmt, out, "prune");
        }
        fmt.renderer(ctx).table(data, List.of(
                new Renderer.Column("snapshot", r -> r.path("backup-type").asText() + "/" + r.path("backup-id").asText()
                        + "/" + BackupSnapshotRef.formatTime(r.path("backup-time").asLong())),
                new Renderer.Column("keep", r -> (r.path("keep").asBoolean() ? "keep" : dryRun ? "would remove" : "remove")
                        + (r.path("protected").asBoolean(false) ? " (protected)" : ""))));
        return 0;
    }

    private static void put(ObjectNode body, String name, Integer v) {
        if (v != null) {
            body.put(name, v);
        }
    }

    /**
     * Verifies on the server: one snapshot, a group ({@code type/id}) or a namespace (no SNAPSHOT).
     */
    static int verify(CliContext ctx, PbsClient pbs, BackupNamespace ns, String snapshot, boolean ignoreVerified,
            Integer outdatedAfter, OutputFormatOption fmt, OutputOptions out) throws Exception {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        if (!ns.isRoot()) {
            body.put("ns", ns.toString());
        }
        if (snapshot != null) {
            long slashes = snapshot.chars().filter(c -> c == '/').count();
            if (slashes == 1) {
                BackupGroupRef g = BackupGroupRef.parse(ns, snapshot);
                body.put("backup-type", g.type().text());
                body.put("backup-id", g.id());
            } else {
                BackupSnapshotRef ref = BackupSnapshotRef.parse(ns, snapshot);
                body.put("backup-type", ref.group().type().text());
                body.put("backup-id", ref.group().id());
                body.put("backup-time", ref.time());
            }
        }
        if (ignoreVerified) {
            body.put("ignore-verified", true);
        }
        if (outdatedAfter != null) {
            body.put("outdated-after", outdatedAfter);
        }
        JsonNode upid = pbs.post(pbs.datastorePath() + "/verify", body);
        return follow(ctx, pbs, upid, fmt, out, "verification");
    }

    /** Follows a task to its end; exit 0, or an error naming the task's exit status. */
    static int follow(CliContext ctx, PbsClient pbs, JsonNode upid, OutputFormatOption fmt, OutputOptions out,
            String what) throws IOException, InterruptedException {
        if (!upid.isTextual()) {
            throw new IOException(what + ": the server did not answer a task id (UPID) but " + upid);
        }
        Renderer r = fmt.renderer(ctx);
        RemoteTasks.Outcome o;
        if (r.isText()) {
            o = new RemoteTasks(pbs).follow(upid.asText(), true, line -> {
                if (out == null || out.verbose()) {
                    ctx.out().println(line);
                    ctx.out().flush();
                }
            });
        } else {
            o = new RemoteTasks(pbs).follow(upid.asText(), true, line -> { });
            ObjectNode res = JsonNodeFactory.instance.objectNode();
            res.put("upid", o.upid());
            res.put("exitstatus", o.exitStatus());
            r.json(res);
        }
        if (!o.ok()) {
            throw new IllegalStateException(what + " on " + pbs.repository().hostAndPort() + " failed: "
                    + (o.exitStatus() == null ? "unknown task status" : o.exitStatus()) + " (task " + o.upid() + ")");
        }
        return 0;
    }

    /** Checks a group type for the message's sake. */
    static BackupType type(String t) {
        return BackupType.parse(t);
    }
}
