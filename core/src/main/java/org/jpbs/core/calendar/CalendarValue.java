package org.jpbs.core.calendar;

import java.util.List;
import java.util.OptionalInt;

/**
 * One element of a calendar-event field: a single value ({@code 5}), a range ({@code 1..7}) or a
 * repetition ({@code 5/10}: 5, 15, 25 ...; {@code 4..10/2}: 4, 6, 8, 10). Empty field lists mean
 * "every value" ({@code *}).
 *
 * @param start  the value, the range's start or the repetition's start
 * @param end    the range's or repetition's last value, or -1 if open
 * @param repeat the repetition step, or 0 for a single value or a range
 */
record CalendarValue(int start, int end, int repeat) {
    static CalendarValue single(int v) {
        return new CalendarValue(v, v, 0);
    }

    boolean isSingle() {
        return repeat == 0 && end == start;
    }

    /** True if {@code v} is one of the values. */
    boolean contains(int v) {
        if (repeat == 0) {
            return v >= start && v <= end;
        }
        if (v < start || (end >= 0 && v > end)) {
            return false;
        }
        return (v - start) % repeat == 0;
    }

    /** The smallest value of this element greater than {@code v}, if any. */
    OptionalInt next(int v) {
        if (v < start) {
            return OptionalInt.of(start);
        }
        if (repeat == 0) {
            return v + 1 <= end ? OptionalInt.of(v + 1) : OptionalInt.empty();
        }
        int n = start + ((v - start + repeat) / repeat) * repeat;
        return end >= 0 && n > end ? OptionalInt.empty() : OptionalInt.of(n);
    }

    static boolean listContains(List<CalendarValue> list, int v) {
        for (CalendarValue c : list) {
            if (c.contains(v)) {
                return true;
            }
        }
        return false;
    }

    /** The smallest value of the list greater than {@code v}, if any. */
    static OptionalInt findNext(List<CalendarValue> list, int v) {
        int best = Integer.MAX_VALUE;
        for (CalendarValue c : list) {
            OptionalInt n = c.next(v);
            if (n.isPresent() && n.getAsInt() < best) {
                best = n.getAsInt();
            }
        }
        return best == Integer.MAX_VALUE ? OptionalInt.empty() : OptionalInt.of(best);
    }

    /** The normalized text (systemd style): zero-padded to {@code width} digits. */
    String format(int width) {
        String f = "%0" + width + "d";
        String s = String.format(f, start);
        if (repeat == 0) {
            return end == start ? s : s + ".." + String.format(f, end);
        }
        return (end >= 0 ? s + ".." + String.format(f, end) : s) + "/" + repeat;
    }
}
