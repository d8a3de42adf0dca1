package org.jpbs.core.calendar;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.StringJoiner;

/**
 * A parsed PBS calendar event ({@code docs/jobs.md#calendar-events}): which weekdays, years,
 * months, days, hours, minutes and seconds it fires on, and whether it is computed in UTC (a
 * trailing {@code UTC}) or in the server's time zone. {@link #next} finds the first event
 * strictly after a point in time with PBS's algorithm (field by field, from the year down, at
 * most 1000 steps; "never" when no date matches, e.g. {@code 2021-02-29}). Immutable.
 */
public final class CalendarEvent {
    private static final int MAX_STEPS = 1000;
    private static final String[] DAY_NAMES = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};

    private final String expression;
    private final boolean utc;
    private final int days; // bit 0 = Monday .. bit 6 = Sunday; 0 = every day
    private final List<CalendarValue> year;
    private final List<CalendarValue> month;
    private final List<CalendarValue> day;
    private final List<CalendarValue> hour;
    private final List<CalendarValue> minute;
    private final List<CalendarValue> second;

    CalendarEvent(String expression, boolean utc, int days, List<CalendarValue> year, List<CalendarValue> month,
                  List<CalendarValue> day, List<CalendarValue> hour, List<CalendarValue> minute,
                  List<CalendarValue> second) {
        this.expression = expression;
        this.utc = utc;
        this.days = days;
        this.year = year;
        this.month = month;
        this.day = day;
        this.hour = hour;
        this.minute = minute;
        this.second = second;
    }

    /**
     * Parses an expression.
     *
     * @throws CalendarEventException naming the expression and the place that does not parse
     */
    public static CalendarEvent parse(String expression) {
        if (expression == null) {
            throw new CalendarEventException("", null, "missing calendar event");
        }
        return CalendarParser.parse(expression);
    }

    /** The expression as given. */
    public String expression() {
        return expression;
    }

    /** True if the event is computed in UTC rather than in the server's time zone. */
    public boolean utc() {
        return utc;
    }

    /**
     * The first event strictly after {@code after} (whole seconds: at least one second later),
     * in the given zone unless the event says {@code UTC}; empty if there is none (within PBS's
     * search limit).
     */
    public Optional<Instant> next(Instant after, ZoneId zone) {
        ZoneId z = utc ? ZoneOffset.UTC : zone;
        long start = after.getEpochSecond() + 1;
        ZonedDateTime origin = Instant.ofEpochSecond(start).atZone(z);
        LocalDateTime t = origin.toLocalDateTime();
        for (int steps = 0; steps <= MAX_STEPS; steps++) {
            if (!year.isEmpty() && !CalendarValue.listContains(year, t.getYear())) {
                OptionalInt n = CalendarValue.findNext(year, t.getYear());
                if (n.isEmpty()) {
                    return Optional.empty();
                }
                t = LocalDateTime.of(n.getAsInt(), 1, 1, 0, 0);
                continue;
            }
            if (!month.isEmpty() && !CalendarValue.listContains(month, t.getMonthValue())) {
                OptionalInt n = CalendarValue.findNext(month, t.getMonthValue());
                t = firstOfMonth(t).plusMonths(n.isPresent() ? n.getAsInt() - t.getMonthValue() : 12 - t.getMonthValue() + 1);
                continue;
            }
            if (!day.isEmpty() && !CalendarValue.listContains(day, t.getDayOfMonth())) {
                OptionalInt n = CalendarValue.findNext(day, t.getDayOfMonth());
                t = n.isPresent() ? t.truncatedTo(ChronoUnit.DAYS).plusDays(n.getAsInt() - t.getDayOfMonth())
                        : firstOfMonth(t).plusMonths(1);
                continue;
            }
            int dayNum = t.getDayOfWeek().getValue() - 1;
            if (days != 0 && (days & (1 << dayNum)) == 0) {
                int d = dayNum + 1;
                while (d < 7 && (days & (1 << d)) == 0) {
                    d++;
                }
                t = t.truncatedTo(ChronoUnit.DAYS).plusDays(d - dayNum);
                continue;
            }
            if (!hour.isEmpty() && !CalendarValue.listContains(hour, t.getHour())) {
                OptionalInt n = CalendarValue.findNext(hour, t.getHour());
                t = t.truncatedTo(ChronoUnit.DAYS).plusHours(n.isPresent() ? n.getAsInt() : 24);
                continue;
            }
            if (!minute.isEmpty() && !CalendarValue.listContains(minute, t.getMinute())) {
                OptionalInt n = CalendarValue.findNext(minute, t.getMinute());
                t = t.truncatedTo(ChronoUnit.HOURS).plusMinutes(n.isPresent() ? n.getAsInt() : 60);
                continue;
            }
            if (!second.isEmpty() && !CalendarValue.listContains(second, t.getSecond())) {
                OptionalInt n = CalendarValue.findNext(second, t.getSecond());
                t = t.truncatedTo(ChronoUnit.MINUTES).plusSeconds(n.isPresent() ? n.getAsInt() : 60);
                continue;
            }
            // a local time in a DST gap moves forward (as mktime); in an overlap the offset of the start wins
            Instant found = ZonedDateTime.ofLocal(t, z, origin.getOffset()).toInstant();
            return Optional.of(found.isBefore(Instant.ofEpochSecond(start)) ? Instant.ofEpochSecond(start) : found);
        }
        return Optional.empty();
    }

    private static LocalDateTime firstOfMonth(LocalDateTime t) {
        return t.toLocalDate().withDayOfMonth(1).atStartOfDay();
    }

    /** The next {@code count} events after {@code after} (fewer if the event ends). */
    public List<Instant> iterations(Instant after, ZoneId zone, int count) {
        List<Instant> out = new ArrayList<>();
        Instant t = after;
        while (out.size() < count) {
            Optional<Instant> n = next(t, zone);
            if (n.isEmpty()) {
                break;
            }
            out.add(n.get());
            t = n.get();
        }
        return out;
    }

    /**
     * The normalized form, as {@code systemd-analyze calendar} prints it, e.g.
     * {@code Mon..Fri *-*-* 02:00:00} or {@code *-*-* *:00/15:00 UTC}.
     */
    public String normalized() {
        StringBuilder sb = new StringBuilder();
        if (days != 0 && days != 0x7f) {
            sb.append(weekdayText()).append(' ');
        }
        sb.append(field(year, 4)).append('-').append(field(month, 2)).append('-').append(field(day, 2)).append(' ')
                .append(field(hour, 2)).append(':').append(field(minute, 2)).append(':').append(field(second, 2));
        if (utc) {
            sb.append(" UTC");
        }
        return sb.toString();
    }

    private String weekdayText() {
        StringJoiner j = new StringJoiner(",");
        int d = 0;
        while (d < 7) {
            if ((days & (1 << d)) == 0) {
                d++;
                continue;
            }
            int e = d;
            while (e + 1 < 7 && (days & (1 << (e + 1))) != 0) {
                e++;
            }
            if (e - d >= 2) {
                j.add(DAY_NAMES[d] + ".." + DAY_NAMES[e]);
            } else {
                for (int i = d; i <= e; i++) {
                    j.add(DAY_NAMES[i]);
                }
            }
            d = e + 1;
        }
        return j.toString();
    }

    private static String field(List<CalendarValue> values, int width) {
        if (values.isEmpty()) {
            return "*";
        }
        StringJoiner j = new StringJoiner(",");
        values.forEach(v -> j.add(v.format(width)));
        return j.toString();
    }

    /** Day of week helper for callers formatting events ({@code Mon} ... {@code Sun}). */
    public static String dayName(DayOfWeek d) {
        return DAY_NAMES[d.getValue() - 1];
    }

    @Override
    public String toString() {
        return expression;
    }
}
