package org.jpbs.datastore.prune;

import java.util.ArrayList;
import java.util.List;

/**
 * The keep options of a prune ({@code docs/gc.md#prune}): how many periods of
 * each kind to keep, each null (not set) or at least 1.
 *
 * @param keepLast    the newest N snapshots
 * @param keepHourly  the newest snapshot of each of the newest N hours that have snapshots
 * @param keepDaily   … days
 * @param keepWeekly  … ISO weeks (Monday-based, ISO week-year)
 * @param keepMonthly … months
 * @param keepYearly  … years
 */
public record PruneOptions(Integer keepLast, Integer keepHourly, Integer keepDaily, Integer keepWeekly,
                           Integer keepMonthly, Integer keepYearly) {
    /** No option set: keep everything. */
    public static final PruneOptions NONE = new PruneOptions(null, null, null, null, null, null);

    /** @throws IllegalArgumentException {@code "keep-daily must be at least 1, got 0"} */
    public PruneOptions {
        check("keep-last", keepLast);
        check("keep-hourly", keepHourly);
        check("keep-daily", keepDaily);
        check("keep-weekly", keepWeekly);
        check("keep-monthly", keepMonthly);
        check("keep-yearly", keepYearly);
    }

    private static void check(String name, Integer v) {
        if (v != null && v < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, got " + v);
        }
    }

    /** True if any option is set (PBS: "keeps something"); without any, prune keeps all snapshots. */
    public boolean keepsSomething() {
        return keepLast != null || keepHourly != null || keepDaily != null || keepWeekly != null
                || keepMonthly != null || keepYearly != null;
    }

    /** As PBS logs them: {@code --keep-last 3 --keep-daily 7} (only the set ones). */
    public String describe() {
        List<String> parts = new ArrayList<>();
        add(parts, "keep-last", keepLast);
        add(parts, "keep-hourly", keepHourly);
        add(parts, "keep-daily", keepDaily);
        add(parts, "keep-weekly", keepWeekly);
        add(parts, "keep-monthly", keepMonthly);
        add(parts, "keep-yearly", keepYearly);
        return String.join(" ", parts);
    }

    private static void add(List<String> parts, String name, Integer v) {
        if (v != null) {
            parts.add("--" + name + " " + v);
        }
    }
}
