package org.jpbs.datastore.prune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.datastore.snapshot.SnapshotInfo;
import org.junit.jupiter.api.Test;

/**
 * Prune selection tables ({@code docs/gc.md#prune}). Each row is a snapshot time
 * with flags ({@code P} protected, {@code U} unfinished) and the expected mark and reason.
 */
class PrunePlannerTest {
    static final BackupGroupRef G = new BackupGroupRef(BackupNamespace.ROOT, BackupType.VM, "100");
    static final ZoneId VIENNA = ZoneId.of("Europe/Vienna");

    /** One table row: {@code "2021-01-01T12:00:00Z [P][U] -> keep-weekly 2/3"}. */
    private static void check(PruneOptions o, ZoneId zone, String... rows) {
        List<SnapshotInfo> snaps = new ArrayList<>();
        Map<String, String> expected = new LinkedHashMap<>();
        for (String row : rows) {
            String[] lr = row.split(" -> ");
            String[] left = lr[0].trim().split(" ");
            long t = Instant.parse(left[0]).getEpochSecond();
            String flags = left.length > 1 ? left[1] : "";
            snaps.add(new SnapshotInfo(new BackupSnapshotRef(G, t), !flags.contains("U"), flags.contains("P"), List.of(), 0));
            expected.put(left[0], lr[1].trim());
        }
        List<PruneDecision> got = PrunePlanner.plan(snaps, o, zone);
        Map<String, String> actual = new LinkedHashMap<>();
        long prev = Long.MIN_VALUE;
        for (PruneDecision d : got) {
            assertEquals(true, d.snapshot().time() > prev, "decisions are oldest first");
            prev = d.snapshot().time();
            actual.put(BackupSnapshotRef.formatTime(d.snapshot().time()),
                    d.mark() == PruneMark.KEEP ? d.reason() : d.mark().text());
        }
        Map<String, String> sortedExpected = new LinkedHashMap<>();
        actual.keySet().forEach(k -> sortedExpected.put(k, expected.get(k)));
        assertEquals(sortedExpected, actual);
    }

    private static PruneOptions opts(Integer last, Integer hourly, Integer daily, Integer weekly, Integer monthly,
                                     Integer yearly) {
        return new PruneOptions(last, hourly, daily, weekly, monthly, yearly);
    }

    @Test
    void isoWeeksAtYearEnds() {
        // 2021-01-01..03 belong to ISO week 2020/53; 2024-12-30 belongs to 2025/01
        check(opts(null, null, null, 3, null, null), ZoneOffset.UTC,
                "2020-12-27T12:00:00Z -> keep-weekly 3/3",  // 2020/52
                "2020-12-28T12:00:00Z -> remove",           // 2020/53, older
                "2021-01-01T12:00:00Z -> remove",           // 2020/53, older
                "2021-01-03T12:00:00Z -> keep-weekly 2/3",  // 2020/53, newest of the week
                "2021-01-04T12:00:00Z -> remove",           // 2021/01, older
                "2021-01-05T12:00:00Z -> keep-weekly 1/3"); // 2021/01
        check(opts(null, null, null, 2, null, null), ZoneOffset.UTC,
                "2024-12-23T12:00:00Z -> remove",           // 2024/52 but the pass stopped
                "2024-12-29T12:00:00Z -> keep-weekly 2/2",  // 2024/52
                "2024-12-30T12:00:00Z -> remove",           // 2025/01, older
                "2025-01-05T12:00:00Z -> keep-weekly 1/2"); // 2025/01
    }

    @Test
    void dstFallBackMergesTheRepeatedHourAndDaysAreLocal() {
        // Europe/Vienna, 2023-10-29: 03:00 CEST -> 02:00 CET at 01:00Z, so 02:xx local happens twice
        check(opts(null, 3, null, null, null, null), VIENNA,
                "2023-10-28T23:30:00Z -> keep-hourly 3/3",  // 01:30 CEST
                "2023-10-29T00:10:00Z -> remove",           // 02:10 CEST
                "2023-10-29T00:50:00Z -> remove",           // 02:50 CEST
                "2023-10-29T01:10:00Z -> keep-hourly 2/3",  // 02:10 CET: same local hour as the two above
                "2023-10-29T02:10:00Z -> keep-hourly 1/3"); // 03:10 CET
        // the same times in UTC are five different hours
        check(opts(null, 3, null, null, null, null), ZoneOffset.UTC,
                "2023-10-28T23:30:00Z -> remove",
                "2023-10-29T00:10:00Z -> remove",
                "2023-10-29T00:50:00Z -> keep-hourly 3/3",
                "2023-10-29T01:10:00Z -> keep-hourly 2/3",
                "2023-10-29T02:10:00Z -> keep-hourly 1/3");
        check(opts(null, null, 2, null, null, null), VIENNA,
                "2023-10-27T12:00:00Z -> remove",
                "2023-10-28T21:30:00Z -> keep-daily 2/2",   // 23:30 CEST on the 28th
                "2023-10-28T22:30:00Z -> remove",           // 00:30 CEST on the 29th
                "2023-10-29T02:10:00Z -> keep-daily 1/2");  // the 29th
        // spring forward 2023-03-26: 02:00 CET -> 03:00 CEST at 01:00Z; 01:30 CET and 03:30 CEST differ
        check(opts(null, 2, null, null, null, null), VIENNA,
                "2023-03-26T00:30:00Z -> keep-hourly 2/2",
                "2023-03-26T01:30:00Z -> keep-hourly 1/2");
    }

    @Test
    void protectedSnapshotsAreKeptAndUseNoSlot() {
        check(opts(1, null, null, null, null, null), ZoneOffset.UTC,
                "2024-01-01T00:00:00Z P -> protected",
                "2024-01-02T00:00:00Z -> remove",
                "2024-01-03T00:00:00Z -> keep-last 1/1",
                "2024-01-04T00:00:00Z P -> protected");
        check(opts(null, null, 1, null, null, null), ZoneOffset.UTC,
                "2024-01-03T08:00:00Z -> remove",
                "2024-01-03T09:00:00Z -> keep-daily 1/1",
                "2024-01-03T10:00:00Z P -> protected");
    }

    @Test
    void keepLastThenKeepDailyStartsAtTheNextDay() {
        check(opts(3, null, 2, null, null, null), ZoneOffset.UTC,
                "2024-05-07T10:00:00Z -> remove",
                "2024-05-08T10:00:00Z -> keep-daily 2/2",
                "2024-05-09T09:00:00Z -> remove",
                "2024-05-09T20:00:00Z -> keep-daily 1/2",
                "2024-05-10T08:00:00Z -> keep-last 3/3",
                "2024-05-10T12:00:00Z -> keep-last 2/3",
                "2024-05-10T18:00:00Z -> keep-last 1/3");
    }

    @Test
    void periodsWithoutBackupsDoNotCountAndLaterRulesAddOlderPeriods() {
        check(opts(null, null, 2, null, 2, 3), ZoneOffset.UTC,
                "2021-06-01T00:00:00Z -> keep-yearly 2/3",
                "2022-03-01T00:00:00Z -> remove",
                "2022-03-05T00:00:00Z -> keep-yearly 1/3",
                "2023-11-30T00:00:00Z -> keep-monthly 2/2",
                "2023-12-01T00:00:00Z -> keep-monthly 1/2",
                "2024-01-01T00:00:00Z -> keep-daily 2/2",
                "2024-02-20T00:00:00Z -> keep-daily 1/2");
    }

    @Test
    void unfinishedNewestIsKeptPartialOtherUnfinishedAreRemoved() {
        check(opts(1, null, null, null, null, null), ZoneOffset.UTC,
                "2024-01-01T00:00:00Z -> remove",
                "2024-01-02T00:00:00Z U -> remove",
                "2024-01-03T00:00:00Z -> keep-last 1/1",
                "2024-01-04T00:00:00Z U -> keep-partial");
    }

    @Test
    void noOptionKeepsEverything() {
        check(PruneOptions.NONE, ZoneOffset.UTC,
                "2024-01-01T00:00:00Z -> keep-all",
                "2024-01-02T00:00:00Z P -> protected");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> opts(null, 0, null, null, null, null));
        assertEquals("keep-hourly must be at least 1, got 0", e.getMessage());
        assertEquals("--keep-last 3 --keep-daily 7", opts(3, null, 7, null, null, null).describe());
    }
}
