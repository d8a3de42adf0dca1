package org.jpbs.core.calendar;

/**
 * A calendar event that does not parse. The message names the expression and where it fails,
 * e.g. {@code calendar event 'mon..xyz': unable to parse calendar event at 'xyz' - weekday}.
 */
public final class CalendarEventException extends IllegalArgumentException {
    private final String expression;

    CalendarEventException(String expression, String rest, String what) {
        super("calendar event '" + expression + "': unable to parse calendar event"
                + (rest == null ? "" : " at '" + rest + "'") + " - " + what);
        this.expression = expression;
    }

    /** The expression as given. */
    public String expression() {
        return expression;
    }
}
