package org.jpbs.cli.commands;

import org.jpbs.cli.UsageException;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The {@code datastore.cfg} properties that {@code jpbs datastore create} and {@code update}
 * set ({@code docs/datastore-config.md#datastorecfg}), in PBS manager syntax. Values are validated by
 * the typed config ({@link org.jpbs.datastore.config.DatastoreConfig}) before anything is written.
 */
public final class DatastoreOptions {
    @Option(names = "--comment", paramLabel = "TEXT", description = "Comment.")
    String comment;

    @Option(names = "--gc-schedule", paramLabel = "EVENT", description = "Garbage collection schedule (calendar event, e.g. daily).")
    String gcSchedule;

    @Option(names = "--prune-schedule", paramLabel = "EVENT", description = "Prune schedule (calendar event).")
    String pruneSchedule;

    @Option(names = "--keep-last", paramLabel = "N", description = "Prune: keep the last N snapshots.")
    Long keepLast;

    @Option(names = "--keep-hourly", paramLabel = "N", description = "Prune: keep N hourly snapshots.")
    Long keepHourly;

    @Option(names = "--keep-daily", paramLabel = "N", description = "Prune: keep N daily snapshots.")
    Long keepDaily;

    @Option(names = "--keep-weekly", paramLabel = "N", description = "Prune: keep N weekly snapshots.")
    Long keepWeekly;

    @Option(names = "--keep-monthly", paramLabel = "N", description = "Prune: keep N monthly snapshots.")
    Long keepMonthly;

    @Option(names = "--keep-yearly", paramLabel = "N", description = "Prune: keep N yearly snapshots.")
    Long keepYearly;

    @Option(names = "--tuning", paramLabel = "SPEC", description = {"Tuning options, e.g. 'chunk-order=none,sync-level=file';",
        "keys: chunk-order, sync-level, gc-atime-cutoff, gc-atime-safety-check, gc-cache-capacity,",
        "gc-chunk-metadata-prefetch. Replaces the whole tuning value."})
    String tuning;

    @Option(names = "--verify-new", paramLabel = "BOOL", description = "Verify new backups right after they finish.")
    String verifyNew;

    @Option(names = "--maintenance-mode", paramLabel = "SPEC",
            description = "Maintenance mode: read-only or offline, optionally ',message=TEXT' (e.g. 'offline,message=disk swap').")
    String maintenanceMode;

    /** The properties given on the command line, key to value (only those given). */
    Map<String, String> properties() {
        Map<String, String> m = new LinkedHashMap<>();
        put(m, "comment", comment);
        put(m, "gc-schedule", gcSchedule);
        put(m, "prune-schedule", pruneSchedule);
        put(m, "keep-last", keepLast);
        put(m, "keep-hourly", keepHourly);
        put(m, "keep-daily", keepDaily);
        put(m, "keep-weekly", keepWeekly);
        put(m, "keep-monthly", keepMonthly);
        put(m, "keep-yearly", keepYearly);
        put(m, "tuning", tuning);
        put(m, "verify-new", verifyNew);
        put(m, "maintenance-mode", maintenanceMode);
        return m;
    }

    private static void put(Map<String, String> m, String key, Object v) {
        if (v != null) {
            String s = v.toString().strip();
            if (s.isEmpty()) {
                throw new UsageException("--" + key + " must not be empty (use --delete " + key + " to remove it)");
            }
            m.put(key, s);
        }
    }
}
