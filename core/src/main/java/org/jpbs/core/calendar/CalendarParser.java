package org.jpbs.core.calendar;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The grammar of PBS calendar events ({@code [WEEKDAY] [[YEARS-]MONTHS-DAYS]
 * [HOURS:MINUTES[:SECONDS]] [UTC]}, special words {@code minutely} ... {@code semiannually});
 * {@code docs/jobs.md#calendar-events}. A time without a colon is minutes (as PBS:
 * {@code 0} is every full hour). One instance per parse; not thread-safe.
 */
final class CalendarParser {
    private static final Map<String, Integer> WEEKDAYS = Map.ofEntries(
            Map.entry("mon", 0), Map.entry("monday", 0), Map.entry("tue", 1), Map.entry("tuesday", 1),
            Map.entry("wed", 2), Map.entry("wednesday", 2), Map.entry("thu", 3), Map.entry("thursday", 3),
            Map.entry("fri", 4), Map.entry("friday", 4), Map.entry("sat", 5), Map.entry("saturday", 5),
            Map.entry("sun", 6), Map.entry("sunday", 6));

    private final String expression;
    private String s;
    private int pos;

    private CalendarParser(String expression) {
        this.expression = expression;
    }

    static CalendarEvent parse(String expression) {
        return new CalendarParser(expression).event();
    }

    private CalendarEventException error(String what) {
        return new CalendarEventException(expression, pos < s.length() ? s.substring(pos) : "", what);
    }

    private CalendarEvent event() {
        s = expression;
        boolean utc = false;
        if (s.endsWith("UTC")) {
            utc = true;
            s = s.substring(0, s.length() - 3).stripTrailing();
        }
        List<CalendarValue> zero = List.of(CalendarValue.single(0));
        List<CalendarValue> one = List.of(CalendarValue.single(1));
        List<CalendarValue> any = List.of();
        switch (s) {
            case "minutely": return new CalendarEvent(expression, utc, 0, any, any, any, any, any, zero);
            case "hourly": return new CalendarEvent(expression, utc, 0, any, any, any, any, zero, zero);
            case "daily": return new CalendarEvent(expression, utc, 0, any, any, any, zero, zero, zero);
            case "weekly": return new CalendarEvent(expression, utc, 1, any, any, any, zero, zero, zero);
            case "monthly": return new CalendarEvent(expression, utc, 0, any, any, one, zero, zero, zero);
            case "yearly", "annually": return new CalendarEvent(expression, utc, 0, any, one, one, zero, zero, zero);
            case "quarterly": return new CalendarEvent(expression, utc, 0, any, singles(1, 4, 7, 10), one, zero, zero, zero);
            case "semiannually", "semi-annually":
                return new CalendarEvent(expression, utc, 0, any, singles(1, 7), one, zero, zero, zero);
            default: break;
        }
        int days = 0;
        boolean hasDay = false;
        if (pos < s.length() && isAsciiLetter(s.charAt(pos))) {
            days = weekdays();
            hasDay = true;
            spaces();
        }
        List<CalendarValue> year = any;
        List<CalendarValue> month = any;
        List<CalendarValue> day = any;
        boolean hasDate = false;
        int save = pos;
        List<List<CalendarValue>> date = dateSpec();
        if (date != null) {
            year = date.get(0);
            month = date.get(1);
            day = date.get(2);
            hasDate = true;
            spaces();
        } else {
            pos = save;
        }
        List<CalendarValue> hour = zero;
        List<CalendarValue> minute = zero;
        List<CalendarValue> second = zero;
        boolean hasTime = false;
        save = pos;
        List<List<CalendarValue>> time = timeSpec();
        if (time != null) {
            hour = time.get(0);
            minute = time.get(1);
            second = time.get(2);
            hasTime = true;
        } else {
            pos = save;
        }
        if (!(hasDay || hasDate || hasTime)) {
            throw error("date or time specification");
        }
        if (pos != s.length()) {
            throw error("unexpected text");
        }
        return new CalendarEvent(expression, utc, days, year, month, day, hour, minute, second);
    }

    private static List<CalendarValue> singles(int... v) {
        List<CalendarValue> l = new ArrayList<>();
        for (int i : v) {
            l.add(CalendarValue.single(i));
        }
        return List.copyOf(l);
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private void spaces() {
        while (pos < s.length() && s.charAt(pos) == ' ') {
            pos++;
        }
    }

    /** Bit set of weekdays, bit 0 Monday .. bit 6 Sunday. */
    private int weekdays() {
        int set = weekdayRange();
        while (pos < s.length() && s.charAt(pos) == ',') {
            pos++;
            set |= weekdayRange();
        }
        return set;
    }

    private int weekdayRange() {
        int start = weekday();
        if (!s.startsWith("..", pos)) {
            return 1 << start;
        }
        pos += 2;
        int end = weekday();
        int set = 0;
        for (int d = start; ; d = (d + 1) % 7) { // fri..mon wraps over the week's end, as PBS
            set |= 1 << d;
            if (d == end) {
                return set;
            }
        }
    }

    private int weekday() {
        int from = pos;
        while (pos < s.length() && isAsciiLetter(s.charAt(pos))) {
            pos++;
        }
        Integer d = WEEKDAYS.get(s.substring(from, pos).toLowerCase(Locale.ROOT));
        if (d == null) {
            pos = from;
            throw error("weekday");
        }
        return d;
    }

    /** {@code [YEARS-]MONTHS-DAYS}, or null (position unspecified) if there is none. */
    private List<List<CalendarValue>> dateSpec() {
        int from = pos;
        try {
            List<CalendarValue> y = compList(0, 2200);
            expect('-');
            List<CalendarValue> m = compList(1, 13);
            expect('-');
            List<CalendarValue> d = compList(1, 32);
            return List.of(y, m, d);
        } catch (CalendarEventException e) {
            pos = from;
        }
        try {
            List<CalendarValue> m = compList(1, 13);
            expect('-');
            List<CalendarValue> d = compList(1, 32);
            return List.of(List.of(), m, d);
        } catch (CalendarEventException e) {
            return null;
        }
    }

    /** {@code [HOURS:]MINUTES[:SECONDS]}, or null if there is none. */
    private List<List<CalendarValue>> timeSpec() {
        int from = pos;
        List<CalendarValue> hour = List.of();
        try {
            hour = compList(0, 24);
            expect(':');
        } catch (CalendarEventException e) {
            pos = from; // no hour: the first number is the minute
            hour = List.of();
        }
        List<CalendarValue> minute;
        try {
            minute = compList(0, 60);
        } catch (CalendarEventException e) {
            return null;
        }
        List<CalendarValue> second = List.of(CalendarValue.single(0));
        if (pos < s.length() && s.charAt(pos) == ':') {
            int at = pos;
            pos++;
            try {
                second = compList(0, 60);
            } catch (CalendarEventException e) {
                pos = at;
            }
        }
        return List.of(hour, minute, second);
    }

    private void expect(char c) {
        if (pos >= s.length() || s.charAt(pos) != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    /** {@code *}, {@code *}/N, or a comma list of values, ranges and repetitions below {@code max}. */
    private List<CalendarValue> compList(int start, int max) {
        if (pos < s.length() && s.charAt(pos) == '*') {
            pos++;
            if (pos < s.length() && s.charAt(pos) == '/') {
                int at = pos;
                pos++;
                int repeat = number(max);
                if (repeat > 0) {
                    return List.of(new CalendarValue(start, -1, repeat));
                }
                pos = at;
            }
            return List.of();
        }
        List<CalendarValue> out = new ArrayList<>();
        out.add(comp(max));
        while (pos < s.length() && s.charAt(pos) == ',') {
            pos++;
            out.add(comp(max));
        }
        return List.copyOf(out);
    }

    private CalendarValue comp(int max) {
        int value = number(max);
        int end = -1;
        if (s.startsWith("..", pos)) {
            pos += 2;
            end = number(max);
            if (value > end) {
                throw error("range start is bigger than end");
            }
        }
        if (pos < s.length() && s.charAt(pos) == '/') {
            pos++;
            int repeat = number(max);
            return repeat == 0 ? CalendarValue.single(value) : new CalendarValue(value, end, repeat);
        }
        return end < 0 ? CalendarValue.single(value) : new CalendarValue(value, end, 0);
    }

    private int number(int max) {
        int from = pos;
        while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
            pos++;
        }
        if (from == pos) {
            throw error("expected a number");
        }
        long v = pos - from > 9 ? Long.MAX_VALUE : Long.parseLong(s.substring(from, pos));
        if (v >= max) {
            throw error("time value too large");
        }
        return (int) v;
    }
}
