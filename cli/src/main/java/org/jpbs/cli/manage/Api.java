package org.jpbs.cli.manage;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.jpbs.client.http.Query;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;

/** Parameters and renderings shared by the server commands (PBS API names). */
final class Api {
    private Api() {}

    /** {@code backup-type}, {@code backup-id}, {@code backup-time} and {@code ns} unless root. */
    static Query snapshot(BackupSnapshotRef ref) {
        return group(ref.group()).add("backup-time", ref.time());
    }

    /** {@code backup-type}, {@code backup-id} and {@code ns} unless root. */
    static Query group(BackupGroupRef g) {
        return Query.of().add("backup-type", g.type().text()).add("backup-id", g.id()).add("ns", ns(g.ns()));
    }

    /** The {@code ns} parameter: null for the root. */
    static String ns(BackupNamespace ns) {
        return ns.isRoot() ? null : ns.toString();
    }

    /** {@code type/id} of a group or snapshot record. */
    static String groupPath(JsonNode r) {
        return r.path("backup-type").asText() + "/" + r.path("backup-id").asText();
    }

    /** {@code type/id/time} of a record with {@code backup-time}, or of a group's {@code last-backup}. */
    static String snapshotPath(JsonNode r, String timeField) {
        JsonNode t = r.get(timeField);
        if (t == null || !t.canConvertToLong()) {
            return "-";
        }
        return groupPath(r) + "/" + BackupSnapshotRef.formatTime(t.asLong());
    }

    /** A file list as PBS renders it: names without {@code .fidx/.didx/.blob}, sorted, space separated. */
    static String files(JsonNode files) {
        List<String> names = new ArrayList<>();
        for (JsonNode f : files) {
            String n = f.isTextual() ? f.asText() : f.path("filename").asText();
            int dot = n.lastIndexOf('.');
            names.add(dot > 0 && (n.endsWith(".fidx") || n.endsWith(".didx") || n.endsWith(".blob")) ? n.substring(0, dot) : n);
        }
        names.sort(null);
        return String.join(" ", names);
    }

    /** An epoch as {@code 2024-01-02T03:04:05Z}, {@code -} if missing. */
    static String epoch(JsonNode v) {
        return v == null || !v.canConvertToLong() ? "-" : BackupSnapshotRef.formatTime(v.asLong());
    }

    /** Checks a group type early (a usage error names it). */
    static BackupType type(String t) {
        return BackupType.parse(t);
    }
}
