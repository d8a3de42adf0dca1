package org.jpbs.core.calendar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Calendar events: the examples and special values of PBS's documentation of calendar events
 * (each "Example" and its "Alternative" with the same runs), the schedules named in the jobs
 * issue, and cases of PBS's own calendar-event tests; next event and iterations
 * ({@code docs/jobs.md#calendar-events}).
 */
class CalendarEventTest {
    /** Wednesday 2026-12-02 02:18:00 UTC. */
    private static final String T0 = "2026-12-02T02:18:00Z";

    private static List<Instant> runs(String expr, String from, ZoneId zone, int n) {
        return CalendarEvent.parse(expr).iterations(Instant.parse(from), zone, n);
    }

    /** Each row: expression | start | expected runs (UTC zone), separated by blanks. */
    @ParameterizedTest(name = "{0} after {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # PBS documentation, table of examples (Example / Alternative)
            mon,tue,wed,thu,fri      | 2026-12-02T02:18:00Z | 2026-12-03T00:00:00Z 2026-12-04T00:00:00Z 2026-12-07T00:00:00Z
            mon..fri                 | 2026-12-02T02:18:00Z | 2026-12-03T00:00:00Z 2026-12-04T00:00:00Z 2026-12-07T00:00:00Z
            sat,sun                  | 2026-12-02T02:18:00Z | 2026-12-05T00:00:00Z 2026-12-06T00:00:00Z 2026-12-12T00:00:00Z
            sat..sun                 | 2026-12-02T02:18:00Z | 2026-12-05T00:00:00Z 2026-12-06T00:00:00Z 2026-12-12T00:00:00Z
            mon,wed,fri              | 2026-12-02T02:18:00Z | 2026-12-04T00:00:00Z 2026-12-07T00:00:00Z 2026-12-09T00:00:00Z
            12:05                    | 2026-12-02T02:18:00Z | 2026-12-02T12:05:00Z 2026-12-03T12:05:00Z 2026-12-04T12:05:00Z
            *:00/5                   | 2026-12-02T02:18:00Z | 2026-12-02T02:20:00Z 2026-12-02T02:25:00Z 2026-12-02T02:30:00Z
            0/1:0/5                  | 2026-12-02T02:18:00Z | 2026-12-02T02:20:00Z 2026-12-02T02:25:00Z 2026-12-02T02:30:00Z
            mon..wed *:30/10         | 2026-12-02T02:18:00Z | 2026-12-02T02:30:00Z 2026-12-02T02:40:00Z 2026-12-02T02:50:00Z 2026-12-02T03:30:00Z
            mon,tue,wed *:30/10      | 2026-12-02T02:18:00Z | 2026-12-02T02:30:00Z 2026-12-02T02:40:00Z 2026-12-02T02:50:00Z 2026-12-02T03:30:00Z
            mon..wed *:30/10         | 2026-12-02T23:55:00Z | 2026-12-07T00:30:00Z
            mon..fri 8..17,22:0/15   | 2026-12-02T02:18:00Z | 2026-12-02T08:00:00Z 2026-12-02T08:15:00Z 2026-12-02T08:30:00Z
            mon..fri 8..17,22:0/15   | 2026-12-02T17:50:00Z | 2026-12-02T22:00:00Z 2026-12-02T22:15:00Z 2026-12-02T22:30:00Z 2026-12-02T22:45:00Z 2026-12-03T08:00:00Z
            mon..fri 8..17,22:0/15   | 2026-12-04T22:50:00Z | 2026-12-07T08:00:00Z
            fri 12..13:5/20          | 2026-12-02T02:18:00Z | 2026-12-04T12:05:00Z 2026-12-04T12:25:00Z 2026-12-04T12:45:00Z 2026-12-04T13:05:00Z 2026-12-04T13:25:00Z 2026-12-04T13:45:00Z 2026-12-11T12:05:00Z
            fri 12,13:5/20           | 2026-12-02T02:18:00Z | 2026-12-04T12:05:00Z 2026-12-04T12:25:00Z 2026-12-04T12:45:00Z 2026-12-04T13:05:00Z 2026-12-04T13:25:00Z 2026-12-04T13:45:00Z 2026-12-11T12:05:00Z
            12,14,16,18,20,22:5      | 2026-12-02T02:18:00Z | 2026-12-02T12:05:00Z 2026-12-02T14:05:00Z 2026-12-02T16:05:00Z 2026-12-02T18:05:00Z 2026-12-02T20:05:00Z 2026-12-02T22:05:00Z 2026-12-03T12:05:00Z
            12/2:5                   | 2026-12-02T02:18:00Z | 2026-12-02T12:05:00Z 2026-12-02T14:05:00Z 2026-12-02T16:05:00Z 2026-12-02T18:05:00Z 2026-12-02T20:05:00Z 2026-12-02T22:05:00Z 2026-12-03T12:05:00Z
            *:*                      | 2026-12-02T02:18:00Z | 2026-12-02T02:19:00Z 2026-12-02T02:20:00Z 2026-12-02T02:21:00Z
            0/1:0/1                  | 2026-12-02T02:18:00Z | 2026-12-02T02:19:00Z 2026-12-02T02:20:00Z 2026-12-02T02:21:00Z
            *-05                     | 2026-12-02T02:18:00Z | 2026-12-05T00:00:00Z 2027-01-05T00:00:00Z 2027-02-05T00:00:00Z
            Sat *-1..7 15:00         | 2026-12-02T02:18:00Z | 2026-12-05T15:00:00Z 2027-01-02T15:00:00Z 2027-02-06T15:00:00Z 2027-03-06T15:00:00Z
            2015-10-21               | 2015-01-01T00:00:00Z | 2015-10-21T00:00:00Z
            # PBS documentation, special values
            minutely                 | 2026-12-02T02:18:00Z | 2026-12-02T02:19:00Z 2026-12-02T02:20:00Z
            hourly                   | 2026-12-02T02:18:00Z | 2026-12-02T03:00:00Z 2026-12-02T04:00:00Z
            daily                    | 2026-12-02T02:18:00Z | 2026-12-03T00:00:00Z 2026-12-04T00:00:00Z
            weekly                   | 2026-12-02T02:18:00Z | 2026-12-07T00:00:00Z 2026-12-14T00:00:00Z
            monthly                  | 2026-12-02T02:18:00Z | 2027-01-01T00:00:00Z 2027-02-01T00:00:00Z
            yearly                   | 2026-12-02T02:18:00Z | 2027-01-01T00:00:00Z 2028-01-01T00:00:00Z
            annually                 | 2026-12-02T02:18:00Z | 2027-01-01T00:00:00Z 2028-01-01T00:00:00Z
            quarterly                | 2026-12-02T02:18:00Z | 2027-01-01T00:00:00Z 2027-04-01T00:00:00Z 2027-07-01T00:00:00Z 2027-10-01T00:00:00Z
            semiannually             | 2026-12-02T02:18:00Z | 2027-01-01T00:00:00Z 2027-07-01T00:00:00Z
            semi-annually            | 2026-12-02T02:18:00Z | 2027-01-01T00:00:00Z 2027-07-01T00:00:00Z
            # the schedules named in the jobs issue
            mon..fri 02:00           | 2026-12-02T02:18:00Z | 2026-12-03T02:00:00Z 2026-12-04T02:00:00Z 2026-12-07T02:00:00Z
            *:0/15                   | 2026-12-02T02:18:00Z | 2026-12-02T02:30:00Z 2026-12-02T02:45:00Z 2026-12-02T03:00:00Z
            2026-12-24 18:00         | 2026-12-02T02:18:00Z | 2026-12-24T18:00:00Z
            *:0/1                    | 2026-12-02T02:18:59Z | 2026-12-02T02:19:00Z 2026-12-02T02:20:00Z
            # cases of PBS's calendar-event tests (epoch 0 is a Thursday)
            0                        | 1970-01-01T00:00:00Z | 1970-01-01T01:00:00Z 1970-01-01T02:00:00Z
            *                        | 1970-01-01T00:00:00Z | 1970-01-01T00:01:00Z
            *:*:*                    | 1970-01-01T00:00:00Z | 1970-01-01T00:00:01Z 1970-01-01T00:00:02Z
            *:3:5                    | 1970-01-01T00:00:00Z | 1970-01-01T00:03:05Z 1970-01-01T01:03:05Z
            mon 2:50                 | 1970-01-01T00:00:00Z | 1970-01-05T02:50:00Z
            4..10/2:0                | 1970-01-01T05:00:00Z | 1970-01-01T06:00:00Z 1970-01-01T08:00:00Z 1970-01-01T10:00:00Z 1970-01-02T04:00:00Z
            6,4..10:23,5/5           | 1970-01-01T00:00:00Z | 1970-01-01T04:05:00Z 1970-01-01T04:10:00Z
            10,5:8,4                 | 1970-01-01T00:00:00Z | 1970-01-01T05:04:00Z 1970-01-01T05:08:00Z 1970-01-01T10:04:00Z
            5/2:0                    | 1970-01-01T00:00:00Z | 1970-01-01T05:00:00Z 1970-01-01T07:00:00Z 1970-01-01T09:00:00Z 1970-01-01T11:00:00Z
            sat                      | 2020-07-31T00:00:00Z | 2020-08-01T00:00:00Z
            fri                      | 2020-12-31T00:00:00Z | 2021-01-01T00:00:00Z
            fri..mon                 | 2026-12-02T02:18:00Z | 2026-12-04T00:00:00Z 2026-12-05T00:00:00Z 2026-12-06T00:00:00Z 2026-12-07T00:00:00Z 2026-12-11T00:00:00Z
            2020-7..9-2/2            | 2020-07-31T00:00:00Z | 2020-08-02T00:00:00Z
            2020,2021-12-31          | 2020-07-31T00:00:00Z | 2020-12-31T00:00:00Z 2021-12-31T00:00:00Z
            1965/5-01-01             | 1969-12-31T23:59:59Z | 1970-01-01T00:00:00Z 1975-01-01T00:00:00Z
            02-29                    | 1970-01-01T00:00:00Z | 1972-02-29T00:00:00Z 1976-02-29T00:00:00Z
            """)
    void nextEventsAsDocumented(String expr, String from, String expected) {
        List<Instant> want = Arrays.stream(expected.trim().split("\\s+")).map(Instant::parse).toList();
        // one more iteration than listed for events that end: the list is then complete
        List<Instant> got = runs(expr.trim(), from.trim(), ZoneOffset.UTC, want.size());
        assertEquals(want, got, expr);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2015-10-21", "2026-12-24 18:00", "2021-02-29", "02-30"})
    void eventsThatEndOrNeverHappen(String expr) {
        CalendarEvent e = CalendarEvent.parse(expr);
        Instant after = Instant.parse("2026-12-24T18:00:00Z");
        assertTrue(e.next(after, ZoneOffset.UTC).isEmpty(), expr);
    }

    @Test
    void serverTimeZoneAndUtcSuffix() {
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        assertEquals(List.of(Instant.parse("2026-12-02T23:00:00Z")), runs("daily", T0, berlin, 1));
        assertEquals(List.of(Instant.parse("2026-12-03T00:00:00Z")), runs("daily UTC", T0, berlin, 1));
        assertEquals(List.of(Instant.parse("2026-12-03T01:00:00Z")), runs("mon..fri 02:00", T0, berlin, 1));
        assertTrue(CalendarEvent.parse("*:0/5 UTC").utc());
        // 02:30 does not exist on 2027-03-28 in Berlin (clocks jump to 03:00): it runs at 03:30 CEST
        assertEquals(List.of(Instant.parse("2027-03-27T01:30:00Z"), Instant.parse("2027-03-28T01:30:00Z"),
                        Instant.parse("2027-03-29T00:30:00Z")),
                runs("02:30", "2027-03-26T12:00:00Z", berlin, 3));
        // events are wall-clock times: the hour repeated when clocks go back (02:00..03:00) runs once
        assertEquals(List.of(Instant.parse("2027-10-31T00:00:00Z"), Instant.parse("2027-10-31T02:00:00Z"),
                        Instant.parse("2027-10-31T03:00:00Z")),
                runs("hourly", "2027-10-30T23:30:00Z", berlin, 3));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            mon..fri 02:00   | Mon..Fri *-*-* 02:00:00
            *:0/15           | *-*-* *:00/15:00
            Sat *-1..7 15:00 | Sat *-*-01..07 15:00:00
            weekly           | Mon *-*-* 00:00:00
            mon,wed,fri      | Mon,Wed,Fri *-*-* 00:00:00
            2026-12-24 18:00 | 2026-12-24 18:00:00
            daily UTC        | *-*-* 00:00:00 UTC
            4..10/2:0        | *-*-* 04..10/2:00:00
            quarterly        | *-01,04,07,10-01 00:00:00
            """)
    void normalizedFormAsSystemd(String expr, String normalized) {
        assertEquals(normalized, CalendarEvent.parse(expr).normalized());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "mon..xyz", "12:60", "24:00:61", "2200-01-01", "5..3:00", "daily foo", "*/", "mon,",
        "12:05 tomorrow", "2026-13-01", "1..2..3"})
    void badExpressionsNameTheExpression(String expr) {
        CalendarEventException e = assertThrows(CalendarEventException.class, () -> CalendarEvent.parse(expr));
        assertTrue(e.getMessage().startsWith("calendar event '" + expr + "': unable to parse calendar event"), e.getMessage());
        assertEquals(-1, e.getMessage().indexOf('\n'));
    }
}
