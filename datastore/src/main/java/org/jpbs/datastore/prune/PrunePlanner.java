package org.jpbs.datastore.prune;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.IsoFields;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.snapshot.SnapshotInfo;

/**
 * PBS's prune selection for one group ({@code docs/gc.md#prune}), as a pure
 * function:
 * <ol>
 * <li>newest first; unfinished snapshots (no manifest): the newest gets {@code keep-partial} if
 *     no finished snapshot is newer, every other one {@code remove};</li>
 * <li>rules in the order last, hourly, daily, weekly, monthly, yearly, each with a period key in
 *     the given (server-local) time zone: own time, {@code %Y/%m/%d/%H}, {@code %Y/%m/%d},
 *     ISO {@code %G/%V}, {@code %Y/%m}, {@code %Y};</li>
 * <li>one pass per rule over the unmarked snapshots, newest first: protected ones are marked
 *     {@code protected} and use no slot; a period already kept by an earlier rule is skipped; the
 *     first (newest) snapshot of a new period is kept until N periods are kept, then the pass
 *     stops; older snapshots of a kept period are removed;</li>
 * <li>whatever is still unmarked is removed. No option at all keeps everything.</li>
 * </ol>
 */
public final class PrunePlanner {
    private PrunePlanner() {}

    private record Rule(String name, Integer count, Function<ZonedDateTime, String> key, String period) {}

    /**
     * Decides for every snapshot of one group.
     *
     * @param snapshots the group's snapshots, any order
     * @param options   the keep options
     * @param zone      time zone for the period keys (PBS: the server's local zone)
     * @return one decision per snapshot, oldest first (the order removals happen in)
     */
    public static List<PruneDecision> plan(List<SnapshotInfo> snapshots, PruneOptions options, ZoneId zone) {
        List<SnapshotInfo> list = new ArrayList<>(snapshots);
        list.sort(Comparator.comparingLong((SnapshotInfo s) -> s.ref().time()).reversed());
        Map<BackupSnapshotRef, PruneDecision> mark = new HashMap<>();
        if (!options.keepsSomething()) {
            for (SnapshotInfo s : list) {
                mark.put(s.ref(), new PruneDecision(s.ref(), s.isProtected() ? PruneMark.PROTECTED : PruneMark.KEEP,
                        s.isProtected() ? "protected" : "keep-all"));
            }
            return oldestFirst(list, mark);
        }
        boolean keepUnfinished = true;
        for (SnapshotInfo s : list) {
            if (s.finished()) {
                keepUnfinished = false;
            } else {
                mark.put(s.ref(), keepUnfinished
                        ? new PruneDecision(s.ref(), PruneMark.KEEP_PARTIAL, "unfinished, newest")
                        : new PruneDecision(s.ref(), PruneMark.REMOVE, "unfinished, not the newest"));
                keepUnfinished = false;
            }
        }
        List<Rule> rules = List.of(
                new Rule("keep-last", options.keepLast(), t -> t.toInstant().toString(), "last"),
                new Rule("keep-hourly", options.keepHourly(),
                        t -> String.format("%04d/%02d/%02d/%02d", t.getYear(), t.getMonthValue(), t.getDayOfMonth(),
                                t.getHour()), "hourly"),
                new Rule("keep-daily", options.keepDaily(),
                        t -> String.format("%04d/%02d/%02d", t.getYear(), t.getMonthValue(), t.getDayOfMonth()), "daily"),
                new Rule("keep-weekly", options.keepWeekly(),
                        t -> String.format("%04d/%02d", t.get(IsoFields.WEEK_BASED_YEAR),
                                t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR)), "weekly"),
                new Rule("keep-monthly", options.keepMonthly(),
                        t -> String.format("%04d/%02d", t.getYear(), t.getMonthValue()), "monthly"),
                new Rule("keep-yearly", options.keepYearly(), t -> String.format("%04d", t.getYear()), "yearly"));
        for (Rule r : rules) {
            if (r.count() != null) {
                pass(list, mark, r, zone);
            }
        }
        for (SnapshotInfo s : list) {
            if (s.isProtected()) {
                mark.put(s.ref(), new PruneDecision(s.ref(), PruneMark.PROTECTED, "protected"));
            } else {
                mark.putIfAbsent(s.ref(), new PruneDecision(s.ref(), PruneMark.REMOVE, "not selected"));
            }
        }
        return oldestFirst(list, mark);
    }

    private static void pass(List<SnapshotInfo> newestFirst, Map<BackupSnapshotRef, PruneDecision> mark, Rule r,
                             ZoneId zone) {
        Set<String> alreadyIncluded = new HashSet<>();
        for (SnapshotInfo s : newestFirst) {
            PruneDecision d = mark.get(s.ref());
            if (d != null && d.mark() == PruneMark.KEEP) {
                alreadyIncluded.add(key(r, s, zone));
            }
        }
        Set<String> included = new HashSet<>();
        for (SnapshotInfo s : newestFirst) {
            if (mark.containsKey(s.ref())) {
                continue;
            }
            if (s.isProtected()) {
                mark.put(s.ref(), new PruneDecision(s.ref(), PruneMark.PROTECTED, "protected"));
                continue;
            }
            String k = key(r, s, zone);
            if (alreadyIncluded.contains(k)) {
                continue;
            }
            if (!included.contains(k)) {
                if (included.size() >= r.count()) {
                    break;
                }
                included.add(k);
                mark.put(s.ref(), new PruneDecision(s.ref(), PruneMark.KEEP,
                        r.name() + " " + included.size() + "/" + r.count()));
            } else {
                mark.put(s.ref(), new PruneDecision(s.ref(), PruneMark.REMOVE, "older in the same " + r.period()
                        + " period"));
            }
        }
    }

    private static String key(Rule r, SnapshotInfo s, ZoneId zone) {
        return r.key().apply(ZonedDateTime.ofInstant(Instant.ofEpochSecond(s.ref().time()), zone));
    }

    private static List<PruneDecision> oldestFirst(List<SnapshotInfo> newestFirst,
                                                   Map<BackupSnapshotRef, PruneDecision> mark) {
        List<PruneDecision> out = new ArrayList<>();
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            out.add(mark.get(newestFirst.get(i).ref()));
        }
        return out;
    }
}
