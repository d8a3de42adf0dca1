package org.jpbs.datastore.task;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a task ended ({@code docs/datastore-config.md#tasks}): {@code OK}, {@code WARNINGS: <n>}, an
 * error message, or {@code unknown} (e.g. the process died). {@link #toString()} is the text
 * PBS shows as {@code status}/{@code exitstatus}.
 *
 * @param kind    the category ({@code statusfilter} values: ok, warning, error, unknown)
 * @param text    the exit status text
 * @param endTime seconds since the epoch
 */
public record TaskState(Kind kind, String text, long endTime) {
    private static final Pattern WARNINGS = Pattern.compile("WARNINGS: (\\d+)");

    /** The category of an exit state. */
    public enum Kind {
        /** Finished without warnings. */
        OK,
        /** Finished with warnings. */
        WARNING,
        /** Failed. */
        ERROR,
        /** Unknown end. */
        UNKNOWN;

        /** The lower-case name used by {@code statusfilter}: ok, warning, error, unknown. */
        public String filterName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Finished without warnings. */
    public static TaskState ok(long endTime) {
        return new TaskState(Kind.OK, "OK", endTime);
    }

    /** Finished with {@code count} warnings. */
    public static TaskState warnings(long count, long endTime) {
        return new TaskState(Kind.WARNING, "WARNINGS: " + count, endTime);
    }

    /** Failed with {@code message} (one line). */
    public static TaskState error(String message, long endTime) {
        return new TaskState(Kind.ERROR, message, endTime);
    }

    /** Parses the text form ({@code OK}, {@code WARNINGS: n}, {@code unknown}, anything else is an error message). */
    public static TaskState parse(String text, long endTime) {
        if (text.equals("OK")) {
            return ok(endTime);
        }
        if (text.equals("unknown")) {
            return new TaskState(Kind.UNKNOWN, "unknown", endTime);
        }
        Matcher m = WARNINGS.matcher(text);
        if (m.matches()) {
            return warnings(Long.parseLong(m.group(1)), endTime);
        }
        return error(text, endTime);
    }

    @Override
    public String toString() {
        return text;
    }
}
